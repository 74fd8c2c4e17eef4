// List bullets drawn as shapes. Browsers (Skia) and some other producers draw a list's discs and
// squares as filled paths, not as text: the items then start with their words only and read as
// paragraphs. A small dot just before a line's first word (left of it; right of it in a right-to-left
// script), at the middle of its line, is that line's marker: a filled one a "•", a stroked circle a
// "◦", a stroked square (a form's box to tick) a "□", which the layout and the classifier read as list
// markers. A disc with a number in it (a slide's
// numbered list) marks that line as a list item too.
import type { Line } from './page-text';
import type { Mark } from './tables/paths';
import { toSegment } from './lines';
import { SYMBOL_MARKER } from './raw-words';

const MARKER: Record<Mark['kind'], string> = { disc: '\u2022', circle: '\u25e6', box: SYMBOL_MARKER };

/** A bullet is at most this wide (text sizes; a box to tick up to about an em) and ends at most this far before its item's first word. */
const MAX_WIDTH: Record<Mark['kind'], number> = { disc: 0.6, circle: 0.6, box: 1.1 };
const MAX_DISTANCE = 2.5;

export function markBullets(lines: Line[], marks: Mark[]): void {
  if (!marks.length) return;
  // marks by their middle's y, so each segment looks only at the marks within its own height
  const byMiddle = marks.map((m) => ({ m, cy: (m.y0 + m.y1) / 2 })).sort((a, b) => a.cy - b.cy);
  for (const l of lines) {
    for (let k = 0; k < l.segs.length; k++) {
      const seg = l.segs[k]!;
      // (the first word as read: the rightmost of a right-to-left segment, whose bullet stands right of it)
      const first = seg.words[0];
      if (!first || first.rotated || /^[•\u25a0-\u25ff\u2022-]/.test(seg.text)) continue;
      const rtl = !!seg.rtl;
      const size = seg.size;
      // the neighbouring segments on the side the bullet stands
      const before = rtl ? Math.min(Infinity, ...l.segs.filter((g) => g.x0 >= seg.x1).map((g) => g.x0)) : k ? l.segs[k - 1]!.x1 : -Infinity;
      const beside = (m: Mark) => (rtl ? m.x0 >= first.x1 && m.x0 - first.x1 <= MAX_DISTANCE * size && m.x1 < before : m.x1 <= first.x0 && first.x0 - m.x1 <= MAX_DISTANCE * size && m.x0 > before);
      let mark: Mark | undefined;
      for (let i = firstAbove(byMiddle, seg.y0); i < byMiddle.length && byMiddle[i]!.cy < seg.y1 && !mark; i++) {
        const m = byMiddle[i]!.m;
        if (m.x1 - m.x0 <= MAX_WIDTH[m.kind] * size && beside(m)) mark = m;
        // a ball with the item's number in it (a slide's numbered list)
        else if (!rtl && m.kind === 'disc' && ITEM_NUMBER.test(first.t) && m.x1 - m.x0 <= 1.2 * size && encloses(m, first) && m.x0 > before) mark = m;
      }
      if (!mark) continue;
      l.segs[k] = toSegment([{ t: MARKER[mark.kind], x0: mark.x0, y0: seg.y0, x1: mark.x1, y1: seg.y1, size, bold: first.bold, italic: false }, ...seg.words], rtl);
      l.x0 = Math.min(l.x0, mark.x0);
      l.x1 = Math.max(l.x1, mark.x1);
    }
  }
}

/** A numbered list's label set inside its marker: one or two digits, or a letter. */
const ITEM_NUMBER = /^(?:\d{1,2}|\p{L})$/u;
const encloses = (m: Mark, w: { x0: number; y0: number; x1: number; y1: number }) => {
  const cx = (w.x0 + w.x1) / 2, cy = (w.y0 + w.y1) / 2;
  return cx > m.x0 && cx < m.x1 && cy > m.y0 && cy < m.y1;
};

/** Index of the first entry whose middle is below `y` (strictly greater), by binary search. */
function firstAbove(sorted: { cy: number }[], y: number): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.cy > y) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
