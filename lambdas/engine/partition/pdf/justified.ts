// Wide word gaps inside justified paragraphs. A line is split into segments at gaps wider than about
// an em (columns, table cells), but a justified line can hold a stretched space (or a glyph its font
// leaves blank) as wide: such a gap is a gap in running text, not a gutter, when the line next to it
// is one segment of the same paragraph that runs across it. A column gutter or a table's cell gap
// runs down its neighbours too.
import type { Line, Segment, Word } from './page-text';

/** Widest gap (in text sizes) that can be a stretched space. */
const MAX_STRETCH_EM = 2;

/**
 * Joins the segments of lines whose inner gaps a neighbouring line of the same paragraph runs
 * across; `makeSegment` builds a segment from words in any order.
 */
export function joinJustifiedGaps(lines: Line[], makeSegment: (words: Word[], rtl: boolean) => Segment): Line[] {
  const upright = lines.filter((l) => l.segs.every((s) => !s.words.some((w) => w.rotated)));
  for (let i = 0; i < upright.length; i++) {
    const line = upright[i]!;
    if (line.segs.length < 2 || line.segs.length > 4) continue;
    const em = Math.max(...line.segs.map((s) => s.size), 1);
    const flowing = [upright[i - 1], upright[i + 1]].filter((n): n is Line => !!n && n.segs.length === 1
      && Math.abs(n.y0 - line.y0) < 2.5 * em && Math.abs(n.x0 - line.x0) < 2 * em && Math.abs(n.x1 - line.x1) < 2 * em
      && Math.abs(n.segs[0]!.size - em) < 0.2 * em);
    if (!flowing.length) continue;
    const segs: Segment[] = [line.segs[0]!];
    for (const s of line.segs.slice(1)) {
      const prev = segs[segs.length - 1]!;
      const gap = s.x0 - prev.x1;
      const across = gap < MAX_STRETCH_EM * em && flowing.some((n) => n.x0 < prev.x1 - em && n.x1 > s.x0 + em);
      if (across && !!prev.rtl === !!s.rtl) {
        segs[segs.length - 1] = makeSegment([...prev.words, ...s.words], !!prev.rtl);
      } else {
        segs.push(s);
      }
    }
    line.segs = segs;
  }
  return lines;
}
