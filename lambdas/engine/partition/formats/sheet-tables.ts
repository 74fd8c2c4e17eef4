// Finds the separate tables of one worksheet grid. The open-source library's partition_xlsx takes
// 4-connected components of non-empty cells and merges those whose rows overlap: in effect a sheet is
// cut at its empty rows only, so the blank spacer columns of a financial statement do not tear a
// table apart. Two tables side by side would then be read as one, their rows interleaved; so a row
// band is also cut at an empty column when the blocks on either side are both real tables (two rows
// and two columns or more) spanning different rows. Each piece is cut again the same way (an
// XY-cut), a bounded number of levels deep.

export interface Box {
  r0: number;
  r1: number;
  c0: number;
  c1: number;
}

/** Levels of cutting (each level rows then columns); deeper structure stays within one table. */
const MAX_DEPTH = 6;

const filled = (grid: string[][], r: number, c: number): boolean => grid[r]![c] !== '';

/** Runs of indexes in [from, to] for which `has(i)` holds, as [start, end] pairs. */
function runs(from: number, to: number, has: (i: number) => boolean): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let i = from; i <= to; i++) {
    if (has(i)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push([start, i - 1]);
      start = -1;
    }
  }
  if (start >= 0) out.push([start, to]);
  return out;
}

/** The box shrunk to its non-empty rows and columns (undefined when it holds nothing). */
function tighten(grid: string[][], b: Box): Box | undefined {
  let r0 = Infinity;
  let r1 = -1;
  let c0 = Infinity;
  let c1 = -1;
  for (let r = b.r0; r <= b.r1; r++) {
    for (let c = b.c0; c <= b.c1; c++) {
      if (!filled(grid, r, c)) continue;
      if (r < r0) r0 = r;
      if (r > r1) r1 = r;
      if (c < c0) c0 = c;
      if (c > c1) c1 = c;
    }
  }
  return r1 < 0 ? undefined : { r0, r1, c0, c1 };
}

const isTable = (b: Box): boolean => b.r1 > b.r0 && b.c1 > b.c0;

function cut(grid: string[][], box: Box, depth: number, out: Box[]): void {
  const bands = runs(box.r0, box.r1, (r) => {
    for (let c = box.c0; c <= box.c1; c++) if (filled(grid, r, c)) return true;
    return false;
  });
  for (const [r0, r1] of bands) {
    const blocks = runs(box.c0, box.c1, (c) => {
      for (let r = r0; r <= r1; r++) if (filled(grid, r, c)) return true;
      return false;
    }).map(([c0, c1]) => tighten(grid, { r0, r1, c0, c1 })!);
    // adjacent blocks stay one table unless both are tables and they do not span the same rows
    const groups: Box[] = [];
    for (const b of blocks) {
      const g = groups[groups.length - 1];
      if (g && !(isTable(g) && isTable(b) && (g.r0 !== b.r0 || g.r1 !== b.r1))) {
        groups[groups.length - 1] = { r0: Math.min(g.r0, b.r0), r1: Math.max(g.r1, b.r1), c0: g.c0, c1: b.c1 };
      } else groups.push(b);
    }
    for (const g of groups) {
      const split = groups.length > 1 || g.r0 !== box.r0 || g.r1 !== box.r1 || g.c0 !== box.c0 || g.c1 !== box.c1;
      if (split && depth < MAX_DEPTH) cut(grid, g, depth + 1, out);
      else out.push(g);
    }
  }
}

/** The tables (as boxes of the grid) of a sheet, top to bottom, then left to right within a band. */
export function sheetTables(grid: string[][], nRows: number, nCols: number): Box[] {
  const out: Box[] = [];
  if (nRows && nCols) cut(grid, { r0: 0, r1: nRows - 1, c0: 0, c1: nCols - 1 }, 0, out);
  return out;
}
