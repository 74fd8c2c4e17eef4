// Tables that hold no data: a page laid out with <table> (old sites, newsletters and e-mails place their
// columns, boxes and headings in cells) and code listings set beside a gutter of line numbers (Pygments'
// "highlighttable", Rouge's and Hugo's line-number tables). Read as one Table, a layout table's headings,
// paragraphs and nested data tables would run together in one cell's text, and a listing's numbers would
// be read as code; read as blocks, they are what a reader sees.
import { isTag, type DomElement, type DomNode } from './common';

/**
 * - `layout`: the markup says so (role="presentation" / "none": the table is no table to assistive
 *   technology) or a cell holds a heading of a section (not a row of column headings set as headings).
 * - `code`: every cell with text holds it in <pre>: a listing split in columns.
 * - `data`: any other table.
 */
export type TableKind = 'data' | 'layout' | 'code';

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

export function tableKind(table: DomElement, hidden: (el: DomElement, name: string) => boolean): TableKind {
  const role = (table.attribs['role'] ?? '').trim().toLowerCase();
  if (role === 'presentation' || role === 'none') return 'layout';
  let heading = false;
  let nested = false;
  let preText = false;
  let plainText = false;
  const headingRows = new Map<DomElement, boolean>();
  const inHeadingRow = (row: DomElement): boolean => {
    let known = headingRows.get(row);
    if (known === undefined) headingRows.set(row, (known = isHeadingRow(row, hidden)));
    return known;
  };
  // nested tables are searched too: a page's outer frame holds the table its headings are in
  const visit = (n: DomNode, inPre: boolean, row: DomElement | undefined): void => {
    if (n.type === 'text') {
      if (/\S/.test((n as { data: string }).data)) {
        if (inPre) preText = true;
        else plainText = true;
      }
      return;
    }
    if (!isTag(n)) return;
    const name = n.name.toLowerCase();
    if (hidden(n, name)) return;
    if (HEADINGS.has(name) && !(row && inHeadingRow(row))) heading = true;
    if (name === 'table') nested = true;
    for (const c of n.children) visit(c, inPre || name === 'pre', name === 'tr' ? n : row);
  };
  for (const c of table.children) visit(c, false, undefined);
  if (heading) return 'layout';
  return preText && !plainText && !nested ? 'code' : 'data';
}

/**
 * A header row whose cells an editor formatted as headings (`<th><h3>Plan</h3></th>` side by side): two
 * or more cells with text, each nothing but a heading. Headings there head columns, not a page's sections.
 */
function isHeadingRow(row: DomElement, hidden: (el: DomElement, name: string) => boolean): boolean {
  let filled = 0;
  for (const cell of row.children) {
    if (!isTag(cell) || hidden(cell, cell.name.toLowerCase())) continue;
    let outside = false;
    let inHeading = false;
    const scan = (n: DomNode, under: boolean): void => {
      if (n.type === 'text') {
        if (/\S/.test((n as { data: string }).data)) (under ? (inHeading = true) : (outside = true));
      } else if (isTag(n) && !hidden(n, n.name.toLowerCase())) {
        for (const c of n.children) scan(c, under || HEADINGS.has(n.name.toLowerCase()));
      }
    };
    scan(cell, false);
    if (outside) return false;
    if (inHeading) filled++;
  }
  return filled >= 2;
}

/** A code listing's gutter: a cell whose text is only line numbers. */
export function isLineNumberCell(cell: DomElement): boolean {
  let text = '';
  const collect = (n: DomNode): void => {
    if (n.type === 'text') text += (n as { data: string }).data;
    else if (isTag(n)) n.children.forEach(collect);
  };
  collect(cell);
  return /^[\s\d]*$/.test(text);
}
