// An OpenDocument table (table:table: a slide's table frame, ...) as table rows (../table-html.ts):
// header rows, row groups and rows read in order; a spanning cell keeps its number-columns-spanned /
// number-rows-spanned, the positions it covers (table:covered-table-cell) are not listed. Repeated
// cells (number-columns-repeated) are expanded up to MAX_SPAN columns a row, repeated rows only when
// they hold text (a grid's trailing empty rows are written as one row repeated), and the table's cells
// count against MAX_TABLE_CELLS.
import { capExceeded, MAX_TABLE_CELLS } from '../limits';
import { clampSpan, MAX_SPAN, type TableRows } from '../table-html';
import { childElements, localName, type DomElement } from './common';

const repeat = (v: string | undefined): number => Math.max(1, Math.min(Number(v ?? 1) || 1, MAX_SPAN));
const ROW_CONTAINERS = new Set(['table-header-rows', 'table-rows', 'table-row-group']);

export function odfTableRows(table: DomElement, cellText: (cell: DomElement) => string, kind: string): TableRows {
  const rows: TableRows = [];
  let cells = 0;
  const readRows = (el: DomElement): void => {
    for (const r of childElements(el)) {
      const name = localName(r);
      if (ROW_CONTAINERS.has(name)) readRows(r);
      if (name !== 'table-row') continue;
      const row: TableRows[number] = [];
      let width = 0;
      for (const c of childElements(r)) {
        const cn = localName(c);
        const times = repeat(c.attribs['table:number-columns-repeated']);
        if (cn === 'covered-table-cell') width += times;
        if (cn !== 'table-cell') continue;
        const text = cellText(c);
        const colspan = clampSpan(c.attribs['table:number-columns-spanned']);
        const rowspan = clampSpan(c.attribs['table:number-rows-spanned']);
        for (let k = 0; k < times && width < MAX_SPAN; k++, width += colspan) row.push({ text, colspan, rowspan });
      }
      const times = row.some((c) => c.text.trim()) ? repeat(r.attribs['table:number-rows-repeated']) : 1;
      for (let k = 0; k < times; k++) {
        cells += row.length;
        if (cells > MAX_TABLE_CELLS) throw capExceeded(`${kind}: a table's cells`, MAX_TABLE_CELLS, 'cells');
        rows.push(k ? row.map((c) => ({ ...c })) : row);
      }
    }
  };
  readRows(table);
  return rows;
}
