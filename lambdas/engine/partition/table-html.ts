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

/** A plain grid (one string per position, no spans) as table rows. */
export function rowsFromGrid(grid: string[][]): TableRows {
  return grid.map((r) => r.map((text) => ({ text })));
}
