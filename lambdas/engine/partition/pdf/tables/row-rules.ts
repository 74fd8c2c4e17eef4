// Unruled tables whose records are bounded by horizontal rules (no vertical lines, so no ruled grid):
// the rules, not the text lines, are the row boundaries. A record's wrapped lines between two rules
// are one row, and the table runs down to its bottom rule even where its last lines hold a single
// wrapped cell (which alignment alone reads as prose).
import type { Box, Line } from '../page-text';
import { union } from '../extract';
import { mergeH, TOL } from './grid';
import type { HRule } from './paths';

/** Rules that span most of the box's width, merged and sorted top to bottom. */
function spanning(box: Box, rules: HRule[], tol: number): HRule[] {
  const w = box.x1 - box.x0;
  return mergeH(rules, tol).filter((r) => Math.min(r.x1, box.x1) - Math.max(r.x0, box.x0) >= 0.8 * w && r.x1 - r.x0 <= 1.5 * w + 4 * tol);
}

/**
 * The ys of the rules that bound the records of a table region, when it has them: at least two rules
 * across the table between its first and last text lines (a rule under the header and a bottom rule
 * alone, as in booktabs tables, are not record rules).
 */
export function recordRules(rows: Line[], rules: HRule[], tol = TOL): number[] | undefined {
  if (!rows.length) return undefined;
  const box = union(rows);
  const across = spanning(box, rules, tol);
  const inner = across.filter((r) => r.y > box.y0 + tol && r.y < box.y1 - tol);
  return inner.length >= 2 ? across.map((r) => r.y) : undefined;
}

/**
 * How far a table region [start, end] of `lines` with record rules inside it extends downwards: the
 * lines that follow it, closely spaced, each with its text inside the record left open at the
 * region's end (a rule above it within the region, none between, one below; all covering the text),
 * up to `limit` (exclusive). Returns the new end index.
 */
export function extendToRules(lines: Line[], start: number, end: number, limit: number, rules: HRule[], body: number, tol = TOL): number {
  const box = union(lines.slice(start, end + 1));
  const w = box.x1 - box.x0;
  const near = mergeH(rules, tol).filter((r) => Math.min(r.x1, box.x1) - Math.max(r.x0, box.x0) >= 0.3 * w && r.x1 - r.x0 <= 1.5 * w + 4 * body && r.y >= box.y0 - 2 * body);
  // Record rules inside the region (tables side by side each draw their own: no test of spanning it all).
  if (near.filter((r) => r.y > box.y0 + tol && r.y < box.y1 - tol).length < 2) return end;
  const covers = (r: HRule, b: Box) => r.x0 <= b.x0 + tol && r.x1 >= b.x1 - tol;
  const lastMid = (lines[end]!.y0 + lines[end]!.y1) / 2;
  let k = end;
  while (k + 1 < limit) {
    const next = lines[k + 1]!;
    if (next.y0 - lines[k]!.y1 > body) break;
    // The record left open at the region's end: no rule between the region and the line (a rule
    // there closes the table; text below it is the next thing on the page), one below it.
    const inside = next.segs.every((s) => {
      const above = near.filter((r) => covers(r, s) && r.y <= s.y0 + tol);
      return above.length > 0 && above.every((r) => r.y < lastMid) && near.some((r) => covers(r, s) && r.y >= s.y1 - tol);
    });
    if (!inside) break;
    k++;
  }
  return k;
}
