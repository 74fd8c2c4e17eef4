// A table's columns as its cells' segments give them (unruled.ts, column-starts.ts, layout.ts).
import type { Segment } from '../page-text';

/** Column ranges: the union of overlapping x-intervals of cells. */
export function columnsOf(segs: Segment[]): [number, number][] {
  const iv = segs.map((s) => [s.x0, s.x1] as [number, number]).sort((a, b) => a[0] - b[0]);
  const cols: [number, number][] = [];
  for (const [a, b] of iv) {
    const last = cols[cols.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else cols.push([a, b]);
  }
  return cols;
}
