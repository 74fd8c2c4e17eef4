// HTML tables. A data table is read as the library reads one: its cells row by row (text) and its grid
// with the cells' spans (text_as_html), rows in the order a browser draws them (readTable).
// Tables that hold no data (tableKind): a page laid out with <table> and marked so (newsletters and e-mails place
// their columns, boxes and headings in cells) and code listings set beside a gutter of line numbers (Pygments'
// "highlighttable", Rouge's and Hugo's line-number tables). Read as one Table, a layout table's headings,
// paragraphs and nested data tables would run together in one cell's text, and a listing's numbers would
// be read as code; read as blocks, they are what a reader sees.
import { escapeHtml, isTag, normalizeSpace, type DomElement, type DomNode } from './common';
import { mathmlToLatex } from './mathml';
import { inlineMath } from './math-latex';
import { dropped, shownText } from './html-dom';

/** A table's text (its cells' texts, row by row) and its HTML grid; undefined when it holds no text. */
export function readTable(table: DomElement): { text: string; html: string } | undefined {
  const rows: string[][] = [];
  const rowSpans: string[][] = [];
  const newRow = (): { cells: string[]; spans: string[] } => {
    const row: string[] = [];
    const spans: string[] = [];
    rows.push(row);
    rowSpans.push(spans);
    return { cells: row, spans };
  };
  const addCell = (cell: DomElement, row: { cells: string[]; spans: string[] }): void => {
    row.cells.push(cellText(cell));
    let span = '';
    for (const a of ['colspan', 'rowspan']) {
      const v = Number(cell.attribs[a]);
      if (Number.isInteger(v) && v > 1 && v < 1000) span += ` ${a}="${v}"`;
    }
    row.spans.push(span);
  };
  // A browser's parser puts cells met outside a <tr> into a row of their own, and shows rows and
  // cells wrapped in other markup (an old page's <form> around its rows) as the table's: so are they here.
  // (Both callers have already skipped dropped children.)
  const isWrapper = (name: string): boolean => name !== 'table' && name !== 'caption' && name !== 'colgroup';
  const addCells = (el: DomElement, row: { cells: string[]; spans: string[] }): void => {
    for (const c of el.children) {
      if (!isTag(c)) continue;
      const name = c.name.toLowerCase();
      if (dropped(c, name)) continue;
      if (name === 'td' || name === 'th') addCell(c, row);
      else if (name !== 'tr' && isWrapper(name)) addCells(c, row);
    }
  };
  const collect = (el: DomElement): void => {
    let loose: { cells: string[]; spans: string[] } | undefined;
    for (const c of footLast(el.children)) {
      if (!isTag(c)) continue;
      const name = c.name.toLowerCase();
      if (dropped(c, name)) continue;
      if (name === 'td' || name === 'th') {
        addCell(c, (loose ??= newRow()));
        continue;
      }
      loose = undefined;
      if (name === 'tr') addCells(c, newRow());
      else if (isWrapper(name)) collect(c);
    }
  };
  collect(table);
  const text = rows.flat().filter(Boolean).join(' ');
  if (!text) return undefined;
  let html = '<table>';
  rows.forEach((row, r) => {
    html += '<tr>';
    row.forEach((cell, c) => (html += `<td${rowSpans[r]![c]}>${escapeHtml(cell)}</td>`));
    html += '</tr>';
  });
  html += '</table>';
  return { text, html };
}

/** A table's parts in the order a browser draws them: a <tfoot> (written before the body, as HTML 4 asked) at the bottom. */
export function footLast(children: DomNode[]): DomNode[] {
  const isFoot = (n: DomNode): boolean => isTag(n) && n.name.toLowerCase() === 'tfoot';
  return children.some(isFoot) ? [...children.filter((n) => !isFoot(n)), ...children.filter(isFoot)] : children;
}

function cellText(cell: DomElement): string {
  let s = '';
  const rec = (n: DomNode): void => {
    if (n.type === 'text') s += shownText(n.data);
    else if (isTag(n)) {
      const name = n.name.toLowerCase();
      if (dropped(n, name)) return;
      // a formula in a cell is LaTeX between $ as in a paragraph (display or not: the cell holds it)
      if (name === 'math') { s += ` ${inlineMath(mathmlToLatex(n))} `; return; }
      if (name === 'br' || name === 'p' || name === 'div' || name === 'li' || name === 'tr') s += ' ';
      for (const c of n.children) rec(c);
      if (name === 'td' || name === 'th' || name === 'p' || name === 'div') s += ' ';
    }
  };
  for (const c of cell.children) rec(c);
  return normalizeSpace(s);
}

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
