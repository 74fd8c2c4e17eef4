// List bullets drawn as shapes. Browsers (Skia) and some other producers draw a list's discs and
// squares as filled paths, not as text: the items then start with their words only and read as
// paragraphs. A small dot just left of a line's first word, at the middle of its line, is that line's
// marker: a filled one a "•", a stroked circle a "◦", a stroked square (a form's box to tick) a "□",
// which the layout and the classifier read as list markers.
import type { Line } from './page-text';
import type { Mark } from './tables/paths';
import { SYMBOL_MARKER, toSegment } from './extract';

const MARKER: Record<Mark['kind'], string> = { disc: '\u2022', circle: '\u25e6', box: SYMBOL_MARKER };

/** A bullet is at most this wide (text sizes; a box to tick up to about an em) and ends at most this far before its item's first word. */
const MAX_WIDTH: Record<Mark['kind'], number> = { disc: 0.6, circle: 0.6, box: 1.1 };
const MAX_DISTANCE = 2.5;

export function markBullets(lines: Line[], marks: Mark[]): void {
  if (!marks.length) return;
  for (const l of lines) {
    for (let k = 0; k < l.segs.length; k++) {
      const seg = l.segs[k]!;
      const first = seg.words[0];
      if (!first || first.rotated || seg.rtl || /^[•\u25a0-\u25ff\u2022-]/.test(seg.text)) continue;
      const size = seg.size;
      const before = k ? l.segs[k - 1]!.x1 : -Infinity;
      const mark = marks.find((m) => {
        const cy = (m.y0 + m.y1) / 2;
        return m.x1 - m.x0 <= MAX_WIDTH[m.kind] * size && cy > seg.y0 && cy < seg.y1 && m.x1 <= first.x0 && first.x0 - m.x1 <= MAX_DISTANCE * size && m.x0 > before;
      });
      if (!mark) continue;
      l.segs[k] = toSegment([{ t: MARKER[mark.kind], x0: mark.x0, y0: seg.y0, x1: mark.x1, y1: seg.y1, size, bold: first.bold, italic: false }, ...seg.words]);
      l.x0 = Math.min(l.x0, mark.x0);
    }
  }
}
