// A legacy PowerPoint table is a group of rectangles, one per cell (a merged cell is one rectangle over
// the cells it covers), placed by their anchors in the group's coordinates, with the borders as line
// shapes beside them. The grid is rebuilt from the rectangles' edges: every distinct left/right edge is
// a column boundary and every top/bottom edge a row boundary (edges a few units apart are one), so a
// cell's spans are the boundaries it crosses. Positions no rectangle covers are empty cells.
import type { TableRows } from '../table-html';

export interface PptCell {
  top: number;
  left: number;
  bottom: number;
  right: number;
  text: string;
}

/** Edges closer than this (master units, 576 per inch) are one boundary. */
const EDGE_TOLERANCE = 4;
/** A larger grid is not rebuilt (its cells' texts are read as shapes instead). */
const MAX_GRID_POSITIONS = 250_000;

/** Sorted boundaries, values closer than the tolerance (under half the smallest extent) merged. */
function boundaries(edges: [number, number][]): number[] {
  const smallest = Math.min(...edges.map(([a, b]) => b - a));
  const tolerance = Math.min(EDGE_TOLERANCE, smallest / 2);
  const sorted = edges.flat().sort((a, b) => a - b);
  const out: number[] = [];
  for (const v of sorted) if (!out.length || v - out[out.length - 1]! > tolerance) out.push(v);
  return out;
}

/** Index of the boundary nearest `v` (binary search). */
function nearest(bounds: number[], v: number): number {
  let lo = 0;
  let hi = bounds.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bounds[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && v - bounds[lo - 1]! < bounds[lo]! - v ? lo - 1 : lo;
}

/** The table of the cells, or undefined when they make no grid (fewer than two cells, no text, too large). */
export function pptTableRows(cells: PptCell[]): TableRows | undefined {
  const boxes = cells.filter((c) => c.right > c.left && c.bottom > c.top);
  if (boxes.length < 2 || !boxes.some((c) => c.text)) return undefined;
  const xs = boundaries(boxes.map((c) => [c.left, c.right]));
  const ys = boundaries(boxes.map((c) => [c.top, c.bottom]));
  const nCols = xs.length - 1;
  const nRows = ys.length - 1;
  if (nCols < 1 || nRows < 1 || nCols * nRows > MAX_GRID_POSITIONS) return undefined;
  // owner[r][c]: the index of the cell covering the position (-1: none)
  const owner = Array.from({ length: nRows }, () => new Int32Array(nCols).fill(-1));
  const spans: { r: number; c: number; rs: number; cs: number; text: string }[] = [];
  for (const box of boxes) {
    const c0 = nearest(xs, box.left);
    const c1 = nearest(xs, box.right);
    const r0 = nearest(ys, box.top);
    const r1 = nearest(ys, box.bottom);
    if (c1 <= c0 || r1 <= r0) continue;
    const taken = owner[r0]![c0]!;
    if (taken >= 0) {
      // overlapping rectangles: the text joins the cell already there
      if (box.text) spans[taken]!.text = spans[taken]!.text ? `${spans[taken]!.text}\n${box.text}` : box.text;
      continue;
    }
    const k = spans.length;
    spans.push({ r: r0, c: c0, rs: r1 - r0, cs: c1 - c0, text: box.text });
    for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) if (owner[r]![c]! < 0) owner[r]![c] = k;
  }
  const rows: TableRows = [];
  for (let r = 0; r < nRows; r++) {
    const row: TableRows[number] = [];
    for (let c = 0; c < nCols; c++) {
      const k = owner[r]![c]!;
      if (k < 0) row.push({ text: '' });
      else {
        const span = spans[k]!;
        if (span.r !== r || span.c !== c) continue; // covered by a span from above or the left
        row.push({ text: span.text, colspan: span.cs, rowspan: span.rs });
      }
    }
    rows.push(row);
  }
  return rows;
}
