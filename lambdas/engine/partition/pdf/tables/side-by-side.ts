// What a table's horizontal rules say of the region alignment found: an unruled table region whose
// rules stop at a common gutter (each table draws its own row lines) is two tables, and text beyond
// the rules' ends on both sides is no part of the table. The gutter can be narrower than the tables'
// own column gaps, so alignment alone cannot split it; the rules can.
import type { Line, Segment } from '../page-text';
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

/**
 * The region's segments wholly beyond the ends of the horizontal rules drawn across it (a paragraph
 * beside a table in a slide's other column, its lines at the heights of the table's rows), apart from
 * the rest; undefined when no rule crosses the region or every segment is within their reach.
 */
export function beyondRules(rows: Line[], rules: HRule[], body: number): { inside: Line[]; outside: Segment[] } | undefined {
  const box = union(rows);
  const across = rules.filter((r) => r.y >= box.y0 - 0.5 * body && r.y <= box.y1 + 0.5 * body && r.x1 > box.x0 && r.x0 < box.x1 && r.x1 - r.x0 >= 3 * body);
  if (!across.length) return undefined;
  const a = Math.min(...across.map((r) => r.x0)) - body, b = Math.max(...across.map((r) => r.x1)) + body;
  const beyond = (s: Segment) => s.x1 < a || s.x0 > b;
  const outside = rows.flatMap((l) => l.segs.filter(beyond));
  if (!outside.length) return undefined;
  const inside = rows.flatMap((l) => { const segs = l.segs.filter((s) => !beyond(s)); return segs.length ? [{ segs, ...union(segs) }] : []; });
  return inside.filter((l) => l.segs.length >= 2).length >= 2 ? { inside, outside } : undefined;
}
