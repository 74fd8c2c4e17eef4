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
