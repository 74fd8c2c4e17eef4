// Wrapped cells of unruled tables: a cell whose text runs over several lines leaves lines holding
// that one cell alone, which alignment alone reads as rows of their own, or as prose after the table.
// These rules tell such a line from a row: the lines that wrap a table's last row, the first lines of
// a header cell wrapped down to the bottom of its row, and a single cell that continues the cell above
// it (a label of its own, or one after a blank row, starts a row). The column lookup and the stripping
// of dot leaders stand here too: unruled.ts and unruled-grid.ts use them as well, and import them from
// here. Rows padded apart, whose long cells wrap around their short ones (a browser's table, its cells
// centred), are grouped here as well.
import type { Line, Segment, Word } from '../page-text';

/** A cell's text without its dot leaders ("Total . . . . . 11,062": spacing, not words). */
export const stripLeaders = (t: string) => t.replace(/(?:\s*[.\u2026·]){2,}\s*/g, ' ').trim();

/** A cell holding a figure (digits with their signs, separators, units of money, brackets): a value, which never wraps. */
export const isFigure = (c: string): boolean => /\d/.test(c) && /^[\d\s.,:%$€£()+\-\u2010-\u2013/]+$/u.test(c);

/** The column that holds x `cx`, else the one whose centre is nearest to it. */
export const nearest = (cols: [number, number][], cx: number): number => {
  let k = cols.findIndex(([a, b]) => cx >= a && cx <= b);
  if (k < 0) k = cols.reduce((best, c, idx) => (Math.abs((c[0] + c[1]) / 2 - cx) < Math.abs((cols[best]![0] + cols[best]![1]) / 2 - cx) ? idx : best), 0);
  return k;
};

/**
 * The last line of a table with the lines right after its last row that wrap that row's cells: each a
 * single segment inside one column, about as long as the table's cells at most, under text of that column, set closer to the line above
 * than the table's rows are to each other (a word processor's table: a cell's lines at the line
 * spacing, rows a paragraph's spacing apart). A paragraph after the table stands further off.
 */
export function trailingWraps(lines: Line[], start: number, end: number, cols: [number, number][], body: number): number {
  // the most common gap between two lines of several cells (lines overlapping in height are one row's
  // parts, a cell set between two lines: no gap between rows)
  const gaps: number[] = [];
  for (let k = start + 1; k <= end; k++) {
    const gap = lines[k]!.y0 - lines[k - 1]!.y1;
    if (lines[k]!.segs.length >= 2 && lines[k - 1]!.segs.length >= 2 && gap >= 0) gaps.push(gap);
  }
  let rowGap = commonGap(gaps);
  // rows never set next to each other (each with wrapped cells, rows padded apart): the widest gap inside the table
  if (rowGap === Infinity) for (let k = start + 1; k <= end; k++) rowGap = Math.max(rowGap === Infinity ? 0 : rowGap, lines[k]!.y0 - lines[k - 1]!.y1);
  // rows padded apart, a cell's lines at the line spacing (paddedRecords): a line that close wraps the
  // last row (a wrapped cell's lines with several cells in them made the line spacing the common gap)
  const region = lines.slice(start, end + 1);
  const padded = paddedRecords(region, body) !== undefined;
  if (!padded && (!(rowGap > 0) || rowGap === Infinity)) return end;
  const maxGap = padded ? recordLineGap(region, body) : Math.min(0.5 * body, 0.7 * rowGap);
  // a wrapped line about as long as the table's longest cell line (a description column; lines of a
  // cell differ in length), sixty characters at least
  let longest = 0;
  for (let k = start; k <= end; k++) for (const g of lines[k]!.segs) longest = Math.max(longest, stripLeaders(g.text).length);
  longest = Math.max(60, Math.min(160, 1.5 * longest));
  let last = end;
  while (last + 1 < lines.length && last - end < 3 && wrapsCell(lines[last]!, lines[last + 1]!, cols, body, maxGap, longest)) last++;
  return last;
}

/**
 * Whether `l` wraps a cell of the line above it: a single segment of at most `maxChars` inside one
 * column, starting where that column's text starts, under text of that column, at most `maxGap` below.
 */
export function wrapsCell(above: Line, l: Line, cols: [number, number][], body: number, maxGap: number, maxChars = 60): boolean {
  const gap = l.y0 - above.y1;
  if (l.segs.length !== 1 || gap < -0.2 * body || gap > maxGap) return false;
  const s = l.segs[0]!;
  const over = (a: number, b: number, g: { x0: number; x1: number }) => Math.min(b, g.x1) - Math.max(a, g.x0) > 0;
  const inside = cols.filter(([a, b]) => over(a, b, s));
  if (inside.length !== 1 || stripLeaders(s.text).length > maxChars) return false;
  const [a, b] = inside[0]!;
  return s.x0 >= a - 0.5 * body && above.segs.some((g) => over(a, b, g));
}

/**
 * The number of lines from `from` on (at most four) that wrap cells of the row above them (wrapsCell,
 * set at most half a text size apart, as wide as a row's wide cell may be), when a row of the table
 * follows them (`isRow`): a cell of several lines inside a table's body, whose lines alignment alone
 * reads as prose. 0 when none.
 */
export function innerWraps(lines: Line[], from: number, cols: [number, number][], body: number, isRow: (l: Line) => boolean): number {
  let n = 0;
  while (from + n < lines.length && n < 4 && !isRow(lines[from + n]!) && wrapsCell(lines[from + n - 1]!, lines[from + n]!, cols, body, 0.5 * body, 160)) n++;
  return n > 0 && from + n < lines.length && isRow(lines[from + n]!) ? n : 0;
}

/**
 * Whether `line` (cells `row`) is the top of wrapped cells of the line under it (`next`, cells
 * `nextRow`, labels): fewer cells, each over a cell of `next` and aligned with it (left edges, centres
 * or right edges within half a text size), at most half a text size above it.
 */
export function headsCells(line: Line, next: Line, row: string[], nextRow: string[], cols: [number, number][], body: number): boolean {
  const filled = row.filter(Boolean).length;
  if (!filled || filled >= nextRow.filter(Boolean).length) return false;
  // a header row holds labels: a row of figures under a line is a record under the end of the one
  // before it (a table going on from the page before)
  if (nextRow.some(isFigure)) return false;
  const gap = next.y0 - line.y1;
  if (gap < -0.2 * body || gap > 0.5 * body) return false;
  const tol = 0.5 * body;
  return line.segs.every((s) => {
    const k = nearest(cols, (s.x0 + s.x1) / 2);
    const under = next.segs.filter((g) => nearest(cols, (g.x0 + g.x1) / 2) === k);
    return under.length === 1 && !!nextRow[k]
      && [s.x0 - under[0]!.x0, s.x0 + s.x1 - under[0]!.x0 - under[0]!.x1, s.x1 - under[0]!.x1].some((d, n) => Math.abs(d) <= (n === 1 ? 2 * tol : tol));
  });
}

/** The most common of the gaps (half points); Infinity when there is none (nothing to compare with). */
export function commonGap(gaps: number[]): number {
  if (!gaps.length) return Infinity;
  const count = new Map<number, number>();
  for (const g of gaps) { const k = Math.round(g * 2) / 2; count.set(k, (count.get(k) ?? 0) + 1); }
  return [...count].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
}

/** Whether the first word of `seg` would have fit on the line above after its text in column k. */
export function wouldHaveFit(above: Line | undefined, seg: Segment, cols: [number, number][], k: number): boolean {
  const mine = above?.segs.filter((s) => nearest(cols, (s.x0 + s.x1) / 2) === k) ?? [];
  const first = seg.words[0];
  if (!mine.length || !first) return false;
  const end = Math.max(...mine.map((s) => s.x1));
  return end + 0.3 * first.size + (first.x1 - first.x0) <= cols[k]![1] - 0.5;
}

/**
 * A line set in another style than the cell above it, each in one style (an italic group label under
 * a row of upright text, LaTeX's `\multicolumn{4}{l}{\textit{Fine-tuned}}`; a bold one under an
 * italic header): a row of its own, not that cell's wrapped text, which keeps its cell's style.
 */
export function restyled(above: Line | undefined, seg: Segment, cols: [number, number][], k: number): boolean {
  const mine = above?.segs.filter((s) => nearest(cols, (s.x0 + s.x1) / 2) === k).flatMap((s) => s.words) ?? [];
  const style = (ws: Word[]) => new Set(ws.map((w) => `${w.bold ? 'b' : ''}${w.italic ? 'i' : ''}`));
  const a = style(mine), b = style(seg.words);
  return a.size === 1 && b.size === 1 && [...a][0] !== [...b][0];
}

/**
 * The last line of a table's row standing apart from the rows above by its cells' padding, whose long
 * cells wrap around its short ones (cells centred in their row: a description's first line above the
 * line of short cells, its last below): the lines from `from` on set a line's spacing apart (or
 * overlapping), one of them a row (`isRow`) each of whose cells stands in one of the table's columns,
 * every other segment inside one column where its text starts and no longer than a wide cell, all in
 * the table's text size. Undefined when the lines are no such row.
 */
export function paddedBand(lines: Line[], from: number, cols: [number, number][], body: number, isRow: (l: Line) => boolean): number | undefined {
  let m = from;
  while (m + 1 < lines.length && m - from < 5 && lines[m + 1]!.y0 - lines[m]!.y1 <= 0.3 * body) m++;
  const band = lines.slice(from, m + 1);
  if (band.length < 2 || !band.some(isRow)) return undefined;
  // in the table's type (not the small print of a picture beside it), each segment in one column
  const size = (g: Segment) => Math.abs(g.size - body) <= 0.15 * body;
  const column = (g: Segment) => {
    const over = cols.filter(([a, b]) => Math.min(b, g.x1) - Math.max(a, g.x0) > 0);
    return over.length === 1 ? over[0]! : undefined;
  };
  // wrapped lines start where their column's text starts; a row's cells may be aligned either way
  const wrapped = (g: Segment) => { const c = column(g); return !!c && g.x0 >= c[0] - 0.5 * body && stripLeaders(g.text).length <= 160; };
  return band.every((l) => l.segs.every(size) && (isRow(l) ? l.segs.every((g) => !!column(g)) : l.segs.every(wrapped))) ? m : undefined;
}

/** The widest gap (text sizes) between the lines of one record of rows padded apart. */
const WITHIN_RECORD = 0.3;

/**
 * The widest gap between the lines of one record: WITHIN_RECORD, or a quarter of a text size over the
 * table's narrowest gap between lines where its line spacing is looser (a browser's line height of
 * 1.5 sets a cell's lines half a text size apart).
 */
function recordLineGap(rows: Line[], body: number): number {
  let least = Infinity;
  for (let k = 1; k < rows.length; k++) least = Math.min(least, rows[k]!.y0 - rows[k - 1]!.y1);
  return Math.max(WITHIN_RECORD * body, least + 0.25 * body);
}

/**
 * Records of a table whose rows stand apart by their cells' padding (an HTML or word-processor table
 * without rules): the gaps between its lines fall in two groups, a line's spacing inside a cell
 * (recordLineGap) and clearly more between rows, and no two lines of as many cells as the fullest
 * stand a line's spacing apart (rows of a table set close, groups of them spaced out, are rows each).
 * A record's number for each line; undefined when the gaps do not say.
 */
export function paddedRecords(rows: Line[], body: number): number[] | undefined {
  if (rows.length < 4) return undefined;
  const gaps = rows.slice(1).map((r, k) => r.y0 - rows[k]!.y1);
  const limit = recordLineGap(rows, body);
  const within = (g: number) => g <= limit;
  const tight = gaps.filter(within), loose = gaps.filter((g) => !within(g));
  if (!tight.length || loose.length < 2 || Math.min(...loose) < Math.max(...tight) + 0.25 * body) return undefined;
  // (two lines of fewer cells than the fullest line are no full rows: two cells of one record wrapping
  // together, its item's name and its notes)
  const fullest = Math.max(...rows.map((r) => r.segs.length));
  if (gaps.some((g, k) => within(g) && rows[k]!.segs.length >= 2 && rows[k + 1]!.segs.length === rows[k]!.segs.length && rows[k]!.segs.length >= fullest)) return undefined;
  const ids = [0];
  gaps.forEach((g) => ids.push(ids[ids.length - 1]! + (within(g) ? 0 : 1)));
  return ids;
}

/**
 * The lines of one record as one row, when they are one row's wrapped cells: one line fuller than every
 * other (the row's line, which may stand in the middle when cells are centred), the others only in
 * columns it fills, and no column with a figure on two lines (figures do not wrap). Undefined otherwise.
 */
export function recordRow(lines: string[][]): string[] | undefined {
  const filled = lines.map((row) => row.filter(Boolean).length);
  const most = Math.max(...filled);
  const main = lines[filled.indexOf(most)]!;
  if (filled.filter((n) => n === most).length > 1) return undefined;
  for (const row of lines) {
    if (row === main) continue;
    if (row.some((c, k) => c && (!main[k] || (isFigure(c) && lines.some((o) => o !== row && o[k] && isFigure(o[k]!)))))) return undefined;
  }
  return main.map((_, k) => lines.map((row) => row[k]).filter(Boolean).join(' '));
}
