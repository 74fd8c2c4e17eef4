// Tables that hold no data: a page laid out with <table> and marked so (newsletters and e-mails place
// their columns, boxes and headings in cells) and code listings set beside a gutter of line numbers (Pygments'
// "highlighttable", Rouge's and Hugo's line-number tables). Read as one Table, a layout table's headings,
// paragraphs and nested data tables would run together in one cell's text, and a listing's numbers would
// be read as code; read as blocks, they are what a reader sees.
import { isTag, type DomElement, type DomNode } from './common';

/**
 * - `layout`: the markup says so (role="presentation" / "none": the table is no table to assistive
 *   technology, as newsletters and e-mails mark theirs). Other tables holding headings and paragraphs
 *   stay Tables: both reference readers (the library's and docling's) make every other <table> one.
 * - `code`: every cell with text holds it in <pre>: a listing split in columns.
 * - `data`: any other table.
 */
export type TableKind = 'data' | 'layout' | 'code';

export function tableKind(table: DomElement, hidden: (el: DomElement, name: string) => boolean): TableKind {
  const role = (table.attribs['role'] ?? '').trim().toLowerCase();
  if (role === 'presentation' || role === 'none') return 'layout';
  let nested = false;
  let preText = false;
  let plainText = false;
  const visit = (n: DomNode, inPre: boolean): void => {
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
    if (name === 'table') nested = true;
    for (const c of n.children) visit(c, inPre || name === 'pre');
  };
  for (const c of table.children) visit(c, false);
  return preText && !plainText && !nested ? 'code' : 'data';
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
