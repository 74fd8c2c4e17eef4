// One table model for every format that finds tables (PDF grids, OCR, office documents): rows of
// cells where a merged cell is listed once, at its top-left position, with its spans, as in HTML.
// From it come `metadata.text_as_html` (colspan/rowspan) and the element text (cells row by row).

export interface TableCell {
  text: string;
  colspan?: number;
  rowspan?: number;
  /** A header cell (<th>). */
  header?: boolean;
}

/** Rows of cells; positions covered by a span from a cell above or to the left are not listed. */
export type TableRows = TableCell[][];

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
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
