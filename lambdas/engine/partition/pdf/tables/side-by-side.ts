// Side-by-side tables: an unruled table region whose horizontal rules stop at a common gutter (each
// table draws its own row lines) is two tables. The gutter can be narrower than the tables' own column
// gaps, so alignment alone cannot split it; the rules can.
import type { Line } from '../page-text';
import { union } from '../lines';
import type { HRule } from './paths';

/** The x of a gutter that every horizontal rule over the region stays clear of, with 2+ rules each side. */
export function ruleGutter(rows: Line[], rules: HRule[], body: number): number | undefined {
  const box = union(rows);
  const inside = rules.filter((r) => r.y >= box.y0 - 2 * body && r.y <= box.y1 + 2 * body && r.x1 > box.x0 && r.x0 < box.x1);
  if (inside.length < 4) return undefined;
  const iv = inside.map((r) => [r.x0, r.x1] as [number, number]).sort((a, b) => a[0] - b[0]);
  let end = iv[0]![1];
  for (let k = 1; k < iv.length; k++) {
    const [a, b] = iv[k]!;
    if (a > end + 0.5 * body) {
      const left = k, right = iv.length - k;
      if (left < 2 || right < 2) return undefined;
      const gap = (end + a) / 2;
      // Text crossing the gutter means one table after all.
      if (rows.some((l) => l.segs.some((s) => s.x0 < gap && s.x1 > gap))) return undefined;
      return gap;
    }
    end = Math.max(end, b);
  }
  return undefined;
}

/** The rows of a region split at x: left lines, right lines (lines empty on one side are left out). */
export function splitRows(rows: Line[], x: number): [Line[], Line[]] {
  const side = (keep: (cx: number) => boolean): Line[] => rows.flatMap((l) => {
    const segs = l.segs.filter((s) => keep((s.x0 + s.x1) / 2));
    return segs.length ? [{ segs, ...union(segs) }] : [];
  });
  return [side((cx) => cx < x), side((cx) => cx >= x)];
}
