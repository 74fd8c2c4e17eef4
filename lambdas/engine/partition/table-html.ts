// One table model for every format that finds tables (PDF grids, OCR, office documents): rows of
// cells where a merged cell is listed once, at its top-left position, with its spans, as in HTML.
// From it come `metadata.text_as_html` (colspan/rowspan) and the element text (cells row by row).
// The readers own the grid itself (who covers what, from their markup or drawn lines).

export interface TableCell {
  text: string;
  colspan?: number;
  rowspan?: number;
  /** A header cell (<th>). */
  header?: boolean;
}

/** Rows of cells; positions covered by a span from a cell above or to the left are not listed. */
export type TableRows = TableCell[][];

export const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

export function tableToHtml(rows: TableRows): string {
  let html = '<table>';
  for (const row of rows) {
    html += '<tr>';
    for (const c of row) {
      const tag = c.header ? 'th' : 'td';
      const cs = c.colspan && c.colspan > 1 ? ` colspan="${c.colspan}"` : '';
      const rs = c.rowspan && c.rowspan > 1 ? ` rowspan="${c.rowspan}"` : '';
      html += `<${tag}${cs}${rs}>${escapeHtml(clean(c.text))}</${tag}>`;
    }
    html += '</tr>';
  }
  return `${html}</table>`;
}

/**
 * The same table read from its right-hand column: a table of a right-to-left script starts there. A
 * row's cells reversed; spans keep their cells, as the grid mirrors with them.
 */
export function mirrorColumns(rows: TableRows): TableRows {
  return rows.map((row) => [...row].reverse());
}

/** Cells row by row, left to right: how a reader (and a retrieval system) takes a table in. */
export function tableText(rows: TableRows): string {
  const parts: string[] = [];
  for (const row of rows) for (const c of row) { const t = clean(c.text); if (t) parts.push(t); }
  return parts.join(' ');
}

/**
 * Cells column by column, top to bottom (a spanned cell where it starts): the order of the open-source
 * library's PDF Table text, whose text boxes stack each column of a table.
 */
export function tableTextByColumns(rows: TableRows): string {
  const origins: { r: number; c: number; text: string }[] = [];
  const taken: boolean[][] = rows.map(() => []);
  rows.forEach((row, r) => {
    let c = 0;
    for (const cell of row) {
      while (taken[r]![c]) c++;
      const cs = Math.max(1, cell.colspan ?? 1), rs = Math.max(1, cell.rowspan ?? 1);
      for (let dr = 0; dr < rs && r + dr < rows.length; dr++) for (let dc = 0; dc < cs; dc++) taken[r + dr]![c + dc] = true;
      origins.push({ r, c, text: clean(cell.text) });
      c += cs;
    }
  });
  origins.sort((a, b) => a.c - b.c || a.r - b.r);
  return origins.map((o) => o.text).filter(Boolean).join(' ');
}

/** A plain grid (one string per position, no spans) as table rows. */
export function rowsFromGrid(grid: string[][]): TableRows {
  return grid.map((r) => r.map((text) => ({ text })));
}

/** Largest span honoured: a hostile gridSpan of a million would otherwise blow up the grid. */
export const MAX_SPAN = 1000;

export function clampSpan(v: unknown): number {
  const n = Math.floor(Number(v));
  return Number.isFinite(n) && n > 1 ? Math.min(n, MAX_SPAN) : 1;
}

/**
 * The full grid (rows × columns of strings), a spanned cell's text repeated over every position it
 * covers, as python-docx reads merged cells. For tests and callers that want a rectangular view.
 */
export function expandGrid(rows: TableRows): string[][] {
  const grid: string[][] = [];
  rows.forEach((row, r) => {
    grid[r] ??= [];
    let col = 0;
    for (const c of row) {
      while (grid[r]![col] !== undefined) col++;
      const cs = Math.max(1, c.colspan ?? 1), rs = Math.max(1, c.rowspan ?? 1);
      for (let dr = 0; dr < rs; dr++) {
        const g = (grid[r + dr] ??= []);
        for (let dc = 0; dc < cs; dc++) g[col + dc] = clean(c.text);
      }
      col += cs;
    }
  });
  const width = grid.reduce((w, g) => Math.max(w, g.length), 0);
  return grid.slice(0, rows.length).map((g) => Array.from({ length: width }, (_, i) => g[i] ?? ''));
}

/**
 * A cell as a word processor defines it in its row (RTF's \cellx, a legacy Word row's sprmTDefTable):
 * its right edge (twips) and whether it starts or continues a merge.
 */
export interface EdgeCell {
  x: number;
  vStart?: boolean;
  vCont?: boolean;
  hCont?: boolean;
}

/** Cell edges this close (twips, a point) are one column's: rows written with rounding. */
const EDGE_TOLERANCE = 20;

/**
 * The rows of a table whose rows define their cells by their right edges: the columns are all the
 * rows' edges, a cell wider than one column spans them (a writer's merged cell is one cell reaching
 * further), a cell continuing a vertical merge lengthens the cell that starts it, one continuing a
 * horizontal merge widens the cell before it; a continuation's text (empty as a rule) joins its cell.
 * Undefined where a row's definitions do not fit its cells (the caller keeps the cells as they come).
 */
export function spansFromEdges(rows: string[][], defs: EdgeCell[][]): TableRows | undefined {
  if (defs.length !== rows.length || defs.some((d, k) => d.length !== rows[k]!.length || d.some((c, j) => j > 0 && c.x <= d[j - 1]!.x))) return undefined;
  const xs = [...new Set(defs.flat().map((c) => c.x))].sort((a, b) => a - b);
  const edges: number[] = [];
  for (const x of xs) if (!edges.length || x - edges[edges.length - 1]! > EDGE_TOLERANCE) edges.push(x);
  if (edges.length > MAX_SPAN) return undefined;
  // the first edge within tolerance of x (edges are sorted: a binary search for the first at x - tolerance)
  const edgeOf = (x: number): number => {
    let lo = 0, hi = edges.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (edges[mid]! < x - EDGE_TOLERANCE) lo = mid + 1; else hi = mid; }
    return lo < edges.length && edges[lo]! <= x + EDGE_TOLERANCE ? lo : -1;
  };
  type Placed = TableCell & { colspan: number; rowspan: number };
  const open = new Map<number, Placed>();
  return rows.map((row, r) => {
    const out: Placed[] = [];
    let left = -1;
    row.forEach((text, k) => {
      const def = defs[r]![k]!;
      const col = left + 1;
      const right = Math.max(col, edgeOf(def.x));
      const colspan = right - col + 1;
      left = right;
      const join = (c: Placed) => { if (text) c.text = c.text ? `${c.text} ${text}` : text; };
      const above = open.get(col);
      if (def.vCont && above && above.colspan === colspan) { above.rowspan++; join(above); return; }
      if (def.hCont && out.length) { out[out.length - 1]!.colspan += colspan; join(out[out.length - 1]!); return; }
      const cell: Placed = { text, colspan, rowspan: 1 };
      out.push(cell);
      if (def.vStart) open.set(col, cell);
      else open.delete(col);
    });
    return out;
  });
}
