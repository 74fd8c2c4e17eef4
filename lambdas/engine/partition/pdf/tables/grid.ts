// Ruled-table geometry, pure: horizontal and vertical rules → merged lines → groups of lines that
// cross each other → a grid of column and row boundaries → cells, where a missing separator between
// neighbouring positions makes one cell span them (colspan/rowspan). A table drawn without an outer
// frame takes its outer edges from the ends of its lines.
import type { HRule, VRule } from './paths';

export interface GridCell {
  row: number;
  col: number;
  rowspan: number;
  colspan: number;
  x0: number; y0: number; x1: number; y1: number;
}

export interface Grid {
  /** Column boundaries (ncols + 1) and row boundaries (nrows + 1), ascending. */
  xs: number[];
  ys: number[];
  cells: GridCell[];
  x0: number; y0: number; x1: number; y1: number;
}

/** Distance (points) within which lines are the same line or touch. */
export const TOL = 2;
/** Merged lines shorter than this are ticks or underscores, not table lines. */
const MIN_LINE = 6;
/** At most this many line pairs are tested for crossings on a page (bounded work). */
const MAX_PAIRS = 4_000_000;

/** Merges collinear rules that overlap or nearly touch (gaps up to 1.5 × tol). */
export function mergeH(rules: HRule[], tol = TOL): HRule[] {
  const sorted = [...rules].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const bands: HRule[][] = [];
  for (const r of sorted) {
    const band = bands[bands.length - 1];
    if (band && Math.abs(r.y - band[0]!.y) <= tol) band.push(r);
    else bands.push([r]);
  }
  const out: HRule[] = [];
  for (const band of bands) {
    const y = band.reduce((s, r) => s + r.y, 0) / band.length;
    band.sort((a, b) => a.x0 - b.x0);
    let cur: HRule | undefined;
    for (const r of band) {
      if (cur && r.x0 <= cur.x1 + 1.5 * tol) cur.x1 = Math.max(cur.x1, r.x1);
      else { if (cur) out.push(cur); cur = { y, x0: r.x0, x1: r.x1 }; }
    }
    if (cur) out.push(cur);
  }
  return out.filter((r) => r.x1 - r.x0 >= MIN_LINE);
}

export function mergeV(rules: VRule[], tol = TOL): VRule[] {
  return mergeH(rules.map((r) => ({ y: r.x, x0: r.y0, x1: r.y1 })), tol).map((r) => ({ x: r.y, y0: r.x0, y1: r.x1 }));
}

/** Sorted values with neighbours closer than tol collapsed to their mean. */
function cluster(values: number[], tol: number): number[] {
  const s = [...values].sort((a, b) => a - b);
  const out: number[] = [];
  let group: number[] = [];
  for (const v of s) {
    if (group.length && v - group[group.length - 1]! > tol) { out.push(group.reduce((a, b) => a + b, 0) / group.length); group = []; }
    group.push(v);
  }
  if (group.length) out.push(group.reduce((a, b) => a + b, 0) / group.length);
  return out;
}

/** Groups of lines connected by crossings (union-find). */
function components(h: HRule[], v: VRule[], tol: number): { h: HRule[]; v: VRule[] }[] {
  const parent = Array.from({ length: h.length + v.length }, (_, i) => i);
  const find = (i: number): number => { while (parent[i] !== i) { parent[i] = parent[parent[i]!]!; i = parent[i]!; } return i; };
  const vs = v.map((r, i) => ({ r, i })).sort((a, b) => a.r.x - b.r.x);
  for (let a = 0; a < h.length; a++) {
    const hr = h[a]!;
    // v-lines within the h-line's x-range (binary search on the sorted xs).
    let lo = 0, hi = vs.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (vs[mid]!.r.x < hr.x0 - tol) lo = mid + 1; else hi = mid; }
    for (let k = lo; k < vs.length && vs[k]!.r.x <= hr.x1 + tol; k++) {
      const vr = vs[k]!.r;
      if (hr.y >= vr.y0 - tol && hr.y <= vr.y1 + tol) {
        const ra = find(a), rb = find(h.length + vs[k]!.i);
        if (ra !== rb) parent[ra] = rb;
      }
    }
  }
  const groups = new Map<number, { h: HRule[]; v: VRule[] }>();
  const get = (root: number) => { let g = groups.get(root); if (!g) { g = { h: [], v: [] }; groups.set(root, g); } return g; };
  h.forEach((r, i) => get(find(i)).h.push(r));
  v.forEach((r, i) => get(find(h.length + i)).v.push(r));
  return [...groups.values()];
}

/** Grids (at least 2 × 2 positions) from a page's rules. */
export function findGrids(hRules: HRule[], vRules: VRule[], tol = TOL): Grid[] {
  const h = mergeH(hRules, tol), v = mergeV(vRules, tol);
  if (h.length * v.length > MAX_PAIRS) return [];
  const grids: Grid[] = [];
  for (const comp of components(h, v, tol)) {
    if (comp.h.length < 2 || comp.v.length < 1) continue;
    const g = gridOf(comp.h, comp.v, tol);
    if (g) grids.push(g);
  }
  return grids.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

function gridOf(h: HRule[], v: VRule[], tol: number): Grid | undefined {
  const left = Math.min(...h.map((r) => r.x0)), right = Math.max(...h.map((r) => r.x1));
  const top = Math.min(...v.map((r) => r.y0), ...h.map((r) => r.y)), bottom = Math.max(...v.map((r) => r.y1), ...h.map((r) => r.y));
  const xs = cluster([left, right, ...v.map((r) => r.x)].filter((x) => x >= left - tol && x <= right + tol), tol);
  const ys = cluster([top, bottom, ...h.map((r) => r.y)], tol);
  const nc = xs.length - 1, nr = ys.length - 1;
  if (nc < 1 || nr < 1 || nc * nr < 2) return undefined;
  // Is there a separator at column boundary c along row r (or at row boundary r along column c)?
  // A line counts when it covers the middle of that stretch.
  const vAt = xs.map((x) => v.filter((r) => Math.abs(r.x - x) <= tol));
  const hAt = ys.map((y) => h.filter((r) => Math.abs(r.y - y) <= tol));
  const vEdge = (c: number, r: number) => { const mid = (ys[r]! + ys[r + 1]!) / 2; return vAt[c]!.some((l) => l.y0 <= mid && l.y1 >= mid); };
  const hEdge = (r: number, c: number) => { const mid = (xs[c]! + xs[c + 1]!) / 2; return hAt[r]!.some((l) => l.x0 <= mid && l.x1 >= mid); };
  const taken = Array.from({ length: nr }, () => new Uint8Array(nc));
  const cells: GridCell[] = [];
  for (let r = 0; r < nr; r++) {
    for (let c = 0; c < nc; c++) {
      if (taken[r]![c]) continue;
      let cs = 1;
      while (c + cs < nc && !vEdge(c + cs, r) && !taken[r]![c + cs]) cs++;
      let rs = 1;
      while (r + rs < nr) {
        let open = true;
        for (let k = c; k < c + cs && open; k++) if (hEdge(r + rs, k) || taken[r + rs]![k]) open = false;
        if (!open) break;
        rs++;
      }
      for (let a = r; a < r + rs; a++) for (let b = c; b < c + cs; b++) taken[a]![b] = 1;
      cells.push({ row: r, col: c, rowspan: rs, colspan: cs, x0: xs[c]!, x1: xs[c + cs]!, y0: ys[r]!, y1: ys[r + rs]! });
    }
  }
  return { xs, ys, cells, x0: xs[0]!, x1: xs[nc]!, y0: ys[0]!, y1: ys[nr]! };
}

/** Index of the interval of `bounds` holding v, or -1. */
export function intervalOf(bounds: number[], v: number): number {
  if (v < bounds[0]! || v > bounds[bounds.length - 1]!) return -1;
  let lo = 0, hi = bounds.length - 2;
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (bounds[mid]! <= v) lo = mid; else hi = mid - 1; }
  return lo;
}

/**
 * Drops rows and columns in which no cell holds text (and no text-bearing cell starts), shrinking the
 * spans that cross them: separators drawn for spacing leave empty positions that are not data. A
 * column `keepCol` names stays though empty (a form's blank fields, ruled.ts).
 */
export function pruneEmpty<T extends { row: number; col: number; rowspan: number; colspan: number; text: string }>(cells: T[], nr: number, nc: number, keepCol: (col: number) => boolean = () => false): { cells: T[]; nrows: number; ncols: number } {
  const rowUsed = new Uint8Array(nr), colUsed = new Uint8Array(nc);
  for (let k = 0; k < nc; k++) if (keepCol(k)) colUsed[k] = 1;
  for (const c of cells) {
    if (!c.text.trim()) continue;
    rowUsed[c.row] = 1; colUsed[c.col] = 1;
  }
  const rowMap = remap(rowUsed), colMap = remap(colUsed);
  const out: T[] = [];
  for (const c of cells) {
    const r0 = firstKept(rowUsed, c.row, c.rowspan), c0 = firstKept(colUsed, c.col, c.colspan);
    if (r0 < 0 || c0 < 0) continue;
    const rs = countKept(rowUsed, c.row, c.rowspan), cs = countKept(colUsed, c.col, c.colspan);
    out.push({ ...c, row: rowMap[r0]!, col: colMap[c0]!, rowspan: rs, colspan: cs });
  }
  return { cells: out, nrows: rowUsed.reduce((a, b) => a + b, 0), ncols: colUsed.reduce((a, b) => a + b, 0) };
}

function remap(used: Uint8Array): number[] {
  const map: number[] = [];
  let k = 0;
  for (let i = 0; i < used.length; i++) { map[i] = k; if (used[i]) k++; }
  return map;
}
const firstKept = (used: Uint8Array, start: number, span: number) => { for (let i = start; i < start + span; i++) if (used[i]) return i; return -1; };
const countKept = (used: Uint8Array, start: number, span: number) => { let n = 0; for (let i = start; i < start + span; i++) n += used[i]!; return n; };
