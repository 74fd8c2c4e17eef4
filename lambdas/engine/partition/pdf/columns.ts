// Page columns for table detection. Lines are grouped across the whole page width, so on a page in
// two columns (or a two-page spread) a line of one column and a table row of the other at the same
// height make one multi-cell line, and an unruled table found there swallows the neighbouring
// column's text and blocks the reading-order cut between the columns. Where a gutter runs clear down
// the whole page and each side holds running text of its own, the sides are looked at apart.
import type { Line, Segment } from './page-text';
import { union } from './extract';

/** A gutter at least this wide (body sizes) between page columns. */
const MIN_GUTTER = 1.5;
/** Lines of running text (a segment of this many words) each side needs. */
const PROSE_WORDS = 7;
const PROSE_LINES = 3;

/** The page's lines split into page columns, left to right; one group when the page is not in columns. */
export function pageColumns(lines: Line[], body: number): Line[][] {
  const segs = lines.flatMap((l) => l.segs).filter((s) => !s.words.some((w) => w.rotated));
  if (segs.length < 2 * PROSE_LINES) return [lines];
  // Column ranges: x-intervals of segments merged where they overlap or nearly touch.
  const iv = segs.map((s) => [s.x0, s.x1] as [number, number]).sort((a, b) => a[0] - b[0]);
  const cols: [number, number][] = [];
  for (const [a, b] of iv) {
    const last = cols[cols.length - 1];
    if (last && a <= last[1] + MIN_GUTTER * body) last[1] = Math.max(last[1], b);
    else cols.push([a, b]);
  }
  if (cols.length < 2) return [lines];
  const rangeOf = (s: Segment) => cols.findIndex(([a, b]) => s.x0 >= a && s.x1 <= b);
  const prose = cols.map(() => 0);
  for (const s of segs) if (s.words.length >= PROSE_WORDS) prose[rangeOf(s)]!++;
  // Split only at gutters with running text right beside them on both sides (a column of page
  // numbers or of table figures beyond a gutter stays with its neighbour).
  const group: number[] = [0];
  for (let k = 1; k < cols.length; k++) group.push(group[k - 1]! + (prose[k - 1]! >= PROSE_LINES && prose[k]! >= PROSE_LINES ? 1 : 0));
  const n = group[group.length - 1]! + 1;
  if (n < 2) return [lines];
  const side = (s: Segment) => group[rangeOf(s)]!;
  // Rows of short cells on both sides of a gutter are one table across it (a full-width table on a
  // page in two columns), not two columns side by side.
  let across = 0;
  for (const l of lines) {
    const sides = new Map<number, number>();
    for (const s of l.segs) sides.set(side(s), Math.max(sides.get(side(s)) ?? 0, s.words.length));
    if (sides.size >= 2 && [...sides.values()].every((w) => w <= 3)) across++;
  }
  if (across >= 3) return [lines];
  return Array.from({ length: n }, (_, k) => lines.flatMap((l) => {
    const mine = l.segs.filter((s) => side(s) === k);
    return mine.length ? [{ segs: mine, ...union(mine) }] : [];
  }));
}
