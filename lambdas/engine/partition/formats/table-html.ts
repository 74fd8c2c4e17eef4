// A table as its anchored cells (each cell once, at its top-left grid position, with colspan/rowspan),
// rendered the way a retrieval system wants it: `text` is the cells row by row (a spanned cell once),
// `text_as_html` keeps the spans as colspan/rowspan. The Office readers (pptx, docx, odt) build
// their tables through this; the grid itself (who covers what) is theirs to read from their markup.
import { escapeHtml } from './common';

export interface TableCell {
  text: string;
  /** Grid columns / rows the cell covers (1 when not spanned). */
  colspan: number;
  rowspan: number;
}

/** Rows of anchored cells, in document order (cells covered by a span are not listed). */
export type TableRows = TableCell[][];

/** Largest span honoured: a hostile gridSpan of a million would otherwise blow up the grid. */
export const MAX_SPAN = 1000;

export function clampSpan(v: unknown): number {
  const n = Math.floor(Number(v));
  return Number.isFinite(n) && n > 1 ? Math.min(n, MAX_SPAN) : 1;
}

const cellString = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** `<table><tr><td colspan="2">…</td>…</tr>…</table>` (the library's plain shape plus spans). */
export function spannedTableHtml(rows: TableRows): string {
  let html = '<table>';
  for (const row of rows) {
    html += '<tr>';
    for (const c of row) {
      const span = (c.colspan > 1 ? ` colspan="${c.colspan}"` : '') + (c.rowspan > 1 ? ` rowspan="${c.rowspan}"` : '');
      html += `<td${span}>${escapeHtml(cellString(c.text))}</td>`;
    }
    html += '</tr>';
  }
  return html + '</table>';
}

/** Non-empty cell texts row by row, a spanned cell once, joined by spaces. */
export function spannedTableText(rows: TableRows): string {
  const words: string[] = [];
  for (const row of rows) for (const c of row) {
    const t = cellString(c.text);
    if (t) words.push(t);
  }
  return words.join(' ');
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
      for (let dr = 0; dr < c.rowspan; dr++) {
        const g = (grid[r + dr] ??= []);
        for (let dc = 0; dc < c.colspan; dc++) g[col + dc] = cellString(c.text);
      }
      col += c.colspan;
    }
  });
  const width = grid.reduce((w, g) => Math.max(w, g.length), 0);
  return grid.slice(0, rows.length).map((g) => Array.from({ length: width }, (_, i) => g[i] ?? ''));
}
