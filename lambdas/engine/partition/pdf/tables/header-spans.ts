// Header cells that span: a group label narrower than the sub-columns it heads (colspan), and a label
// set between two rows (rowspan). unruled-grid.ts builds a table's grid line by line; these read the
// lines' geometry once the grid stands. A label wide enough to reach over two columns is found as the
// grid is built (spanOf there). A header set beside its values is merged into their column here too,
// for tables of either kind (unruled-grid.ts, row-rules.ts).
import type { Line, Segment } from '../page-text';
import { isFigure, nearest } from './wrapped-cells';

/** Cells spanning columns (or rows) by grid row: first column -> how many. */
export type Spans = Map<string[], Map<number, number>>;

/** Records that the cell of `row` at column `k` spans `n` columns (or rows). */
export function setSpan(spans: Spans, row: string[], k: number, n: number): void {
  (spans.get(row) ?? spans.set(row, new Map()).get(row)!).set(k, n);
}

/** How far (a share of its group's width) a label reaching out of its column may sit off the group's middle. */
const LOOSE_CENTRE = 0.15;

/**
 * A group label narrower than its group ("Top-20" centred over "NQ | TriviaQA | WQ | TREC | SQuAD"): in
 * a header line of fewer cells over a line of labels (one of the table's first three rows), a label
 * standing among empty columns, each with a label under it, spans the widest run of them around it
 * whose middle is its own (within half a text size). The grid row and its spans are changed in place.
 */
export function narrowGroupLabels(grid: string[][], rows: Line[], lineRows: string[][], cols: [number, number][], spans: Spans, body: number): void {
  const filled = (r: string[]) => r.filter(Boolean).length;
  for (let g = 0; g + 1 < Math.min(grid.length, 3); g++) {
    const upper = grid[g]!, lower = grid[g + 1]!;
    const i = lineRows.indexOf(upper);
    if (i < 0 || lineRows[i + 1] !== lower || filled(upper) >= filled(lower) || lower.some((c) => c && isFigure(c))) continue;
    const own = spans.get(upper) ?? new Map<number, number>();
    const covered = (k: number) => [...own].some(([k0, n]) => k0 <= k && k < k0 + n);
    const free = (k: number) => k >= 0 && k < cols.length && !upper[k] && !covered(k) && !!lower[k];
    for (const seg of rows[i]!.segs) {
      const mid = (seg.x0 + seg.x1) / 2;
      const k = nearest(cols, mid);
      if (upper[k] !== seg.text || !lower[k] || covered(k)) continue;
      let a = k, b = k;
      while (free(a - 1)) a--;
      while (free(b + 1)) b++;
      // A label reaching out of its own column's text towards a neighbour is centred over cells wider
      // than their text (a table stretched to the page's width, figures set to one side of their
      // cells): its middle is looser to the group's text, by a share of the group's width.
      const outside = seg.x0 < cols[k]![0] - 0.5 || seg.x1 > cols[k]![1] + 0.5;
      const tol = (x: number, y: number) => Math.max(0.5 * body, outside ? LOOSE_CENTRE * (cols[y]![1] - cols[x]![0]) : 0);
      let best: [number, number] | undefined;
      for (let x = a; x <= k; x++) {
        for (let y = Math.max(k, x + 1); y <= b; y++) {
          if (Math.abs((cols[x]![0] + cols[y]![1]) / 2 - mid) <= tol(x, y) && (!best || y - x > best[1] - best[0])) best = [x, y];
        }
      }
      if (!best) continue;
      const text = upper[k]!;
      upper[k] = '';
      upper[best[0]] = text;
      own.set(best[0], best[1] - best[0] + 1);
      spans.set(upper, own);
    }
  }
}

/**
 * Labels set between two rows (joinOffsetLines joined them to the upper one) span both rows where
 * the lower one leaves their column empty: the upper row's cell with its rowspan, when both rows
 * stand in the grid as rows of their own, one under the other.
 */
export function labelsSpanningRows(grid: string[][], rows: Line[], lineRows: string[][], joined: Map<Line, Segment[]>, cols: [number, number][], spans: Spans): Spans {
  const out: Spans = new Map();
  for (const [line, segs] of joined) {
    const i = rows.indexOf(line);
    const upper = lineRows[i], lower = lineRows[i + 1];
    const g = upper ? grid.indexOf(upper) : -1;
    if (!upper || !lower || g < 0 || grid[g + 1] !== lower) continue;
    const spannedBelow = (k: number) => [...(spans.get(lower) ?? [])].some(([k0, n]) => k0 <= k && k < k0 + n);
    for (const s of segs) {
      const k = nearest(cols, (s.x0 + s.x1) / 2);
      if (!upper[k] || lower[k] || spans.get(upper)?.has(k) || spannedBelow(k)) continue;
      setSpan(out, upper, k, 2);
    }
  }
  return out;
}

/**
 * A label centred beside a group of rows between two rules (LaTeX's \multirow{3}{*}{CNN/DM} between
 * \midrule's, a browser's <td rowspan=3>): in a band of an odd number of rows (three or more), each a
 * row of values, a column whose only cell is on the middle row, in text. It spans the band: moved to
 * its first row, with the band's rows as its rowspan (`rowspans` is added to in place).
 */
export function labelsCentredInBands(grid: string[][], bands: Map<string[], number>, spans: Spans, rowspans: Spans): void {
  for (let g = 0; g < grid.length;) {
    const band = bands.get(grid[g]!);
    let e = g;
    while (band !== undefined && e + 1 < grid.length && bands.get(grid[e + 1]!) === band) e++;
    const n = e - g + 1;
    const group = grid.slice(g, e + 1);
    if (band !== undefined && n >= 3 && n % 2 === 1 && group.every((r) => !spans.has(r) && !rowspans.has(r))) {
      const mid = group[(n - 1) >> 1]!;
      for (let k = 0; k < mid.length; k++) {
        const label = mid[k]!;
        if (!label || isFigure(label) || group.some((r) => r !== mid && r[k])) continue;
        // every row of the band a row of values beside it
        if (!group.every((r) => r.filter((c, c2) => c2 !== k && c).length >= 2)) continue;
        mid[k] = '';
        group[0]![k] = label;
        setSpan(rowspans, group[0]!, k, n);
      }
    }
    g = e + 1;
  }
}

/**
 * A header cell set beside its values rather than over them (a word processor's or a spreadsheet's
 * column: the header aligned left, the figures right, each too short to reach the other): two
 * neighbouring columns a little apart, one holding only the first row's cell, the other every cell
 * but that row's, are one column.
 */
export function headerBesideValues(grid: string[][], cols: [number, number][], body: number, spans: Spans = new Map()): string[][] {
  // (not beside cells spanning columns: their places are counted in the columns as found)
  if (grid.length < 3 || spans.size) return grid;
  const merge: number[] = [];
  for (let k = 0; k + 1 < cols.length; k++) {
    // within a cell's width of each other (a short header at one side of the cell, figures at the other)
    if (cols[k + 1]![0] - cols[k]![1] > 4 * body) continue;
    const only = (c: number) => !!grid[0]![c] && grid.slice(1).every((r) => !r[c]);
    const values = (c: number) => !grid[0]![c] && grid.slice(1).filter((r) => r[c]).length >= 2;
    if ((only(k) && values(k + 1)) || (values(k) && only(k + 1))) { merge.push(k); k++; }
  }
  if (!merge.length) return grid;
  for (const row of grid) for (const k of [...merge].reverse()) row.splice(k, 2, row[k] || row[k + 1]!);
  return grid;
}
