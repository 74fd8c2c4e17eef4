// Legacy Word (.doc, OLE/Word 97-2003) partitioner. The body is read from the binary structures
// (doc-styles.ts: paragraphs by their marks, styles and lists, tables by cell and row marks with their
// merged cells) when they hold the same text as word-extractor (MIT) reads; otherwise from the reader's
// text, one paragraph per line, table rows as lines of tab-closed cells, styles matched to it by text.
// Header and footer text become Header/Footer elements; a text box follows the paragraph its shape is
// anchored in, or joins its table cell (its story read from the structures as the body is, when they
// hold its text), else the body.
// Files word-extractor cannot read are converted to DOCX with LibreOffice when it is installed.
import WordExtractor from 'word-extractor';
import { appendAll, makeElement, type Element } from '../../elements';
import { rowsFromGrid, spansFromEdges, tableText, tableToHtml, type EdgeCell, type TableRows } from '../table-html';
import type { FormatPartitioner } from '../types';
import { UnprocessableDocument } from '../../../errors';
import { partitionDocx } from './docx';
import { docParagraphs, docTableRows, paragraphDepth, type DocParagraph, type DocTableRow } from './doc-styles';
import { convertWithSoffice, findSoffice } from './ppt';
import {
  isBulletedText, isEmailAddress, isPossibleNarrativeText, isPossibleNumberedList, isPossibleTitle, isUsCityStateZip,
  stripBullet,
} from '../classify';

const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export function paragraphElement(text: string, languages?: string[]): Element {
  if (isBulletedText(text) && stripBullet(text)) return makeElement('ListItem', stripBullet(text));
  if (isPossibleNumberedList(text)) return makeElement('ListItem', text);
  if (isUsCityStateZip(text)) return makeElement('Address', text);
  if (isEmailAddress(text)) return makeElement('EmailAddress', text);
  if (isPossibleNarrativeText(text, { languages })) return makeElement('NarrativeText', text);
  if (isPossibleTitle(text, { languages })) return makeElement('Title', text);
  return makeElement('UncategorizedText', text);
}

/**
 * The reader's text with Word's hyphen marks as DOCX gives them: it keeps a non-breaking hyphen (0x1E)
 * as that control character and writes an optional hyphen (0x1F, inside a word) as "undefined".
 */
function readerText(text: string): string {
  return text.replace(/\x1e/g, '-').replace(/(?<=\p{L})undefined(?=\p{L})/gu, '');
}

/**
 * Header or footer text as the reader gives it, every story of the kind one after another (blank
 * lines between): its lines with a table row's cells (each closed by a tab) spaced as DOCX spaces
 * them, blank lines dropped, and stories that only repeat one another (a section's first-page header
 * and its odd-page one alike, or each section's the same) kept once.
 */
function headerFooterText(text: string): string {
  const stories = text.split(/\n[ \t]*\n/)
    .map((s) => s.split('\n').map((l) => l.replace(/[ \t]+/g, ' ').trim()).filter(Boolean).join('\n'))
    .filter(Boolean);
  for (let period = 1; period <= stories.length / 2; period++) {
    if (stories.length % period === 0 && stories.every((s, k) => s === stories[k % period])) return stories.slice(0, period).join('\n');
  }
  return stories.join('\n');
}

/** Letters and digits only, lowercased: the reader and the binary structures agree on these. */
const matchKey = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * The reader's paragraphs typed by the styles of the binary structures (doc-styles.ts), matched in
 * order by their text: a heading style gives a Title with its depth, a list a ListItem with its level;
 * a paragraph not found nearby (or a file whose structures could not be read) is typed by the text
 * heuristics, as before.
 */
class StyledParagraphs {
  private next = 0;
  private readonly keys: string[];
  constructor(private readonly paras: DocParagraph[]) {
    this.keys = paras.map((p) => (p.inTable ? '' : matchKey(p.stored ?? p.text)));
  }

  element(text: string, languages?: string[]): Element {
    const key = matchKey(text);
    const at = key ? this.find(key) : -1;
    if (at < 0) return paragraphElement(text, languages);
    this.next = at + 1;
    return styledElement(this.paras[at]!, text, languages);
  }

  private find(key: string): number {
    return findAhead(this.keys, this.next, key);
  }
}

/** A paragraph typed by its style: a heading a Title with its depth, a list paragraph a ListItem. */
function styledElement(p: DocParagraph, text: string, languages?: string[]): Element {
  if (p.headingDepth !== undefined) return makeElement('Title', text, { category_depth: p.headingDepth });
  if (p.listLevel !== undefined) return makeElement('ListItem', stripBullet(text) || text, { category_depth: p.listLevel });
  // -- a body paragraph: typed by its text, as the library types an unstyled paragraph --
  return paragraphElement(text, languages);
}

/**
 * The body as the binary structures divide it: paragraphs by their marks (a line break inside one
 * kept), tables by their cell and row marks, so a cell of several paragraphs or a nested table stays
 * in its cell. Used when the structures hold the reader's text. `depth` is the table depth of the
 * paragraphs read as paragraphs (0: the body; 1: a one-cell table's content).
 */
function structuredBody(paras: DocParagraph[], languages?: string[], depth = 0): Element[] {
  const out: Element[] = [];
  const paragraph = (p: DocParagraph) => {
    const text = p.text.replace(/[ \t]*\n[ \t]*/g, '\n').replace(/[ \t]+/g, ' ').trim();
    if (text) out.push(styledElement(p, text, languages));
  };
  for (let i = 0; i < paras.length; ) {
    if (paragraphDepth(paras[i]!) <= depth) {
      paragraph(paras[i++]!);
      continue;
    }
    let end = i;
    while (end < paras.length && paragraphDepth(paras[end]!) > depth) end++;
    const run = paras.slice(i, end);
    i = end;
    const found = docTableRows(run, depth + 1);
    const grid = found.map((r) => r.cells);
    // -- a table of one cell is a frame around its content (a box, a note), as DOCX reads it: its
    // -- paragraphs and tables are read as if they stood in the body --
    if (found.length === 1 && found[0]!.defs?.length === 1) appendAll(out, structuredBody(run, languages, depth + 1));
    else if (!found.length) run.forEach(paragraph);
    else if (grid.some((r) => r.some(Boolean))) {
      const defs = found.map((r) => r.defs);
      const rows = (defs.every(Boolean) && spansFromEdges(grid, defs as EdgeCell[][])) || rowsFromGrid(grid);
      out.push(makeElement('Table', tableText(rows), { text_as_html: tableToHtml(rows) }));
    }
  }
  return out;
}

/**
 * The body's paragraphs with each text box's paragraphs after the paragraph its shape is anchored in,
 * as DOCX places them; a box anchored in a table cell is read into the cell, as DOCX reads it (its
 * text after the anchoring paragraph's). Boxes of no anchor found follow the body.
 */
export function boxesAtAnchors(body: DocParagraph[], boxes: DocParagraph[]): DocParagraph[] {
  const byShape = new Map<number, DocParagraph[]>();
  const unplaced: DocParagraph[] = [];
  for (const p of boxes) {
    if (p.box === undefined) unplaced.push(p);
    else if (byShape.has(p.box)) byShape.get(p.box)!.push(p);
    else byShape.set(p.box, [p]);
  }
  const take = (id: number): DocParagraph[] => {
    const found = byShape.get(id) ?? [];
    byShape.delete(id);
    return found;
  };
  const out: DocParagraph[] = [];
  for (const p of body) {
    const anchored = (p.shapes ?? []).flatMap(take);
    if (anchored.length && paragraphDepth(p) > 0) out.push({ ...p, text: [p.text, ...anchored.map((b) => b.text)].join('\n') });
    else {
      out.push(p);
      appendAll(out, anchored);
    }
  }
  for (const rest of byShape.values()) appendAll(out, rest);
  appendAll(out, unplaced);
  return out;
}

/**
 * The reader's table rows given their merged cells: each row matched in order, by its cells' text, to
 * a row of the binary structures whose end mark defines its cells (spansFromEdges); a table whose
 * rows are not all found so keeps its cells as they come.
 */
class TableRowDefs {
  private next = 0;
  private readonly keys: string[];
  constructor(private readonly rows: DocTableRow[]) {
    this.keys = rows.map((r) => matchKey(r.cells.join(' ')));
  }

  table(grid: string[][]): TableRows {
    const defs: EdgeCell[][] = [];
    for (const cells of grid) {
      const key = matchKey(cells.join(' '));
      const at = findAhead(this.keys, this.next, key);
      const found = at >= 0 ? this.rows[at]!.defs : undefined;
      if (!found || found.length !== cells.length) return rowsFromGrid(grid);
      this.next = at + 1;
      defs.push(found);
    }
    return spansFromEdges(grid, defs) ?? rowsFromGrid(grid);
  }
}

/** How far ahead of the last matched paragraph a reader paragraph is looked for. */
const SEARCH_AHEAD = 64;

/** Where `key` stands in `keys` from `from` on, within SEARCH_AHEAD; -1 when not there. */
function findAhead(keys: string[], from: number, key: string): number {
  for (let i = from; i < Math.min(keys.length, from + SEARCH_AHEAD); i++) if (keys[i] === key) return i;
  return -1;
}

/** A line of table cells: two or more cells, each closed by a tab (the last cell's mark ends the line). */
function tableRowCells(line: string): string[] | undefined {
  if (!line.endsWith('\t')) return undefined;
  const cells = line.slice(0, -1).split('\t').map((c) => c.trim());
  return cells.length >= 2 ? cells : undefined;
}

export type DocBlock = { kind: 'text'; text: string } | { kind: 'table'; grid: string[][] };

/**
 * The body text split into paragraphs and tables: two or more consecutive lines of cells are a
 * table (a single tab-closed line is a paragraph that ends in a tab).
 */
export function docBodyBlocks(body: string): DocBlock[] {
  const out: DocBlock[] = [];
  const lines = body.split(/\r?\n/);
  for (let i = 0; i < lines.length; ) {
    const grid: string[][] = [];
    let j = i;
    for (let cells = tableRowCells(lines[j] ?? ''); cells && j < lines.length; cells = tableRowCells(lines[++j] ?? '')) grid.push(cells);
    if (grid.length >= 2) {
      if (grid.some((r) => r.some(Boolean))) out.push({ kind: 'table', grid });
      i = j;
      continue;
    }
    const text = (lines[i] ?? '').replace(/\t+/g, ' ').trim();
    if (text) out.push({ kind: 'text', text });
    i++;
  }
  return out;
}

export const partitionDoc: FormatPartitioner = async (data, ctx) => {
  if (data.length < 512 || OLE_SIGNATURE.some((b, i) => data[i] !== b)) {
    throw new UnprocessableDocument('doc: not a Word 97-2003 document (OLE compound file signature missing)');
  }
  let doc;
  try {
    doc = await new WordExtractor().extract(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  } catch (err) {
    // word-extractor reads Word 97+ only; LibreOffice (when installed) also reads older variants
    if (findSoffice()) return partitionDocx(await convertWithSoffice(data, 'doc', 'docx'), ctx);
    throw new UnprocessableDocument(`doc: cannot read the document (${(err as Error).message})`);
  }
  const out: Element[] = [];
  // the text as written: the reader's default turns curly quotes, dashes and wide spaces into ASCII
  const raw = { filterUnicode: false };
  const headers = headerFooterText(readerText(doc.getHeaders({ ...raw, includeFooters: false })));
  if (headers) out.push(makeElement('Header', headers, { header_footer_type: 'primary' }));
  const paragraphs = docParagraphs(data);
  const body = readerText(doc.getBody(raw));
  const textboxes = readerText(doc.getTextboxes({ ...raw, includeHeadersAndFooters: false }));
  // -- (compared as stored: the reader does not show a symbol font's characters) --
  const storedText = (ps: DocParagraph[]) => ps.map((p) => p.stored ?? p.text).join(' ');
  const structured = paragraphs.length > 0 && matchKey(body) === matchKey(storedText(paragraphs));
  // -- the text boxes' story, read the same way when its structures hold its text: each box after the
  // -- paragraph its shape is anchored in, as DOCX places it --
  const boxes = structured ? docParagraphs(data, 'textboxes') : [];
  const boxesStructured = boxes.length > 0 && matchKey(textboxes) === matchKey(storedText(boxes));
  if (structured) appendAll(out, structuredBody(boxesStructured ? boxesAtAnchors(paragraphs, boxes) : paragraphs, ctx.options.languages));
  const styled = new StyledParagraphs(paragraphs);
  const tables = new TableRowDefs(docTableRows(paragraphs));
  for (const block of docBodyBlocks(structured ? (boxesStructured ? '' : textboxes) : `${body}\n${textboxes}`)) {
    if (block.kind === 'text') out.push(styled.element(block.text, ctx.options.languages));
    else {
      const rows = tables.table(block.grid);
      out.push(makeElement('Table', tableText(rows), { text_as_html: tableToHtml(rows) }));
    }
  }
  const footers = headerFooterText(readerText(doc.getFooters(raw)));
  if (footers) out.push(makeElement('Footer', footers, { header_footer_type: 'primary' }));
  return out;
};
