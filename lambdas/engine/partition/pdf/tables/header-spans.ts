// Header cells that span: a group label narrower than the sub-columns it heads (colspan), and a label
// set between two rows (rowspan). unruled.ts builds a table's grid line by line; these read the
// lines' geometry once the grid stands. A label wide enough to reach over two columns is found as the
// grid is built (spanOf there).
import type { Line, Segment } from '../page-text';
import { isFigure, nearest } from './wrapped-cells';

/** Cells spanning columns (or rows) by grid row: first column -> how many. */
export type Spans = Map<string[], Map<number, number>>;

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
      let best: [number, number] | undefined;
      for (let x = a; x <= k; x++) {
        for (let y = Math.max(k, x + 1); y <= b; y++) {
          if (Math.abs((cols[x]![0] + cols[y]![1]) / 2 - mid) <= 0.5 * body && (!best || y - x > best[1] - best[0])) best = [x, y];
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
      (out.get(upper) ?? out.set(upper, new Map()).get(upper)!).set(k, 2);
    }
  }
  return out;
}

