// Workbooks with several tables per sheet: each table its own Table (cut at empty rows, and at empty
// columns between side-by-side tables), a spacer column does not tear a table apart, headings above
// tables are Titles, and no cell's text is lost. Workbooks are generated with SheetJS (xlsx, xls, ods).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as XLSX from 'xlsx';
import { strToU8, zipSync } from 'fflate';
import { partition, types } from './helpers';
import { MAX_SHEET_GRID_CELLS } from '../../../../lambdas/engine/partition/limits';

type Aoa = (string | number | null)[][];

function workbook(sheets: Record<string, Aoa>, bookType: 'xlsx' | 'biff8' | 'ods' = 'xlsx'): Uint8Array {
  const wb = XLSX.utils.book_new();
  for (const [name, aoa] of Object.entries(sheets)) XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(aoa), name);
  return new Uint8Array(XLSX.write(wb, { type: 'buffer', bookType }) as Buffer);
}

const rowsOf = (html: string): string[][] =>
  (html.match(/<tr>.*?<\/tr>/g) ?? []).map((tr) => [...tr.matchAll(/<td>(.*?)<\/td>/g)].map((m) => m[1]!));

/** Every non-empty cell value of the sheets, each once. */
const allCells = (sheets: Record<string, Aoa>): string[] =>
  Object.values(sheets).flatMap((aoa) => aoa.flat().filter((v) => v !== null && v !== '').map(String));

// A financial statement: blank spacer columns inside the table (C and F), a heading and a note
const statement: Aoa = [
  ['Revenue and results'],
  [],
  ['In millions of CHF', 'Sales', null, 'Profit', 'Margin', null, 'Depreciation'],
  ['Zone NA', 12553, null, 2713, 21.6, null, -337],
  ['Zone EUR', 9467, null, 1570, 16.6, null, -414],
  ['Total', 22020, null, 4283, 19.4, null, -751],
  [],
  ['(a) Inter-segment sales are not significant.'],
];

// Two tables side by side (different heights), each with its own caption, a third one below
const sideBySide: Aoa = [
  ['Regions', null, null, 'Products'],
  ['Region', 'Sales', null, 'Product', 'Units'],
  ['North', 10, null, 'Bolts', 100],
  ['South', 20, null, 'Nuts', 250],
  [null, null, null, 'Screws', 75],
  [],
  ['Quarter', 'Q1', 'Q2'],
  [],
  ['Team', 'Wins', 'Losses'],
  ['Hawks', 3, 1],
];

for (const bookType of ['xlsx', 'biff8', 'ods'] as const) {
  const kind = bookType === 'biff8' ? 'xls' : bookType;

  test(`${kind}: spacer columns stay inside one table; heading and note are text`, async () => {
    const els = await partition(kind, workbook({ Statement: statement }, bookType));
    assert.deepEqual(types(els), ['Title', 'Table', 'NarrativeText']);
    assert.deepEqual(rowsOf(els[1]!.metadata.text_as_html!), [
      ['In millions of CHF', 'Sales', '', 'Profit', 'Margin', '', 'Depreciation'],
      ['Zone NA', '12553', '', '2713', '21.6', '', '-337'],
      ['Zone EUR', '9467', '', '1570', '16.6', '', '-414'],
      ['Total', '22020', '', '4283', '19.4', '', '-751'],
    ]);
    assert.equal(els[1]!.text, 'In millions of CHF Sales Profit Margin Depreciation Zone NA 12553 2713 21.6 -337 Zone EUR 9467 1570 16.6 -414 Total 22020 4283 19.4 -751');
  });

  test(`${kind}: side-by-side tables are separate Tables with their captions; a one-row heading island is a Title`, async () => {
    const els = await partition(kind, workbook({ Several: sideBySide }, bookType));
    assert.deepEqual(els.map((e) => [e.type, e.type === 'Table' ? rowsOf(e.metadata.text_as_html!) : e.text]), [
      ['Title', 'Regions'],
      ['Table', [['Region', 'Sales'], ['North', '10'], ['South', '20']]],
      ['Title', 'Products'],
      ['Table', [['Product', 'Units'], ['Bolts', '100'], ['Nuts', '250'], ['Screws', '75']]],
      ['Title', 'Quarter Q1 Q2'],
      ['Table', [['Team', 'Wins', 'Losses'], ['Hawks', '3', '1']]],
    ]);
    assert.ok(els.every((e) => e.metadata.page_name === 'Several' && e.metadata.page_number === 1));
  });

  test(`${kind}: no cell's text is lost across sheets and tables`, async () => {
    const sheets = { Statement: statement, Several: sideBySide };
    const els = await partition(kind, workbook(sheets, bookType));
    const words = els.map((e) => e.text).join(' ');
    for (const v of allCells(sheets)) assert.ok(words.includes(v), `missing ${v}`);
  });
}

test('xlsx: the sheet grid cap still refuses a sheet whose two cells span a huge box', async () => {
  // written by hand: SheetJS would walk the whole declared range to write it
  const data = zipSync({
    'xl/workbook.xml': strToU8('<workbook xmlns:r="r"><sheets><sheet name="Huge" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    'xl/_rels/workbook.xml.rels': strToU8('<Relationships><Relationship Id="rId1" Type="x" Target="worksheets/sheet1.xml"/></Relationships>'),
    'xl/worksheets/sheet1.xml': strToU8('<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>top</t></is></c></row>' +
      '<row r="1000000"><c r="XFD1000000" t="inlineStr"><is><t>far</t></is></c></row></sheetData></worksheet>'),
  });
  await assert.rejects(partition('xlsx', data), (err: Error) => err.message.includes(MAX_SHEET_GRID_CELLS.toLocaleString('en-US')));
});

test('ods: repeated rows/columns expanded where they hold text, covered cells and annotations skipped, values as numbers', async () => {
  const NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
  const c = (t: string, attrs = ''): string => `<table:table-cell${attrs}><text:p>${t}</text:p></table:table-cell>`;
  const content = `<office:document-content ${NS}><office:body><office:spreadsheet><table:table table:name="Data">` +
    `<table:table-row>${c('Item')}${c('Amount', ' table:number-columns-spanned="2"')}<table:covered-table-cell><text:p>hidden</text:p></table:covered-table-cell></table:table-row>` +
    `<table:table-row table:number-rows-repeated="2">${c('Same')}${c('1,234.50', ' office:value-type="float" office:value="1234.5"')}${c('x', ' table:number-columns-repeated="1"')}</table:table-row>` +
    `<table:table-row>${c('Note<office:annotation><text:p>a comment</text:p></office:annotation>')}<table:table-cell table:number-columns-repeated="2"/>${c('yes', ' office:value-type="boolean" office:boolean-value="true"')}</table:table-row>` +
    '<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>' +
    '</table:table></office:spreadsheet></office:body></office:document-content>';
  const data = zipSync({ mimetype: strToU8('application/vnd.oasis.opendocument.spreadsheet'), 'content.xml': strToU8(content) });
  const els = await partition('ods', data);
  assert.deepEqual(types(els), ['Table']);
  assert.deepEqual(rowsOf(els[0]!.metadata.text_as_html!), [
    ['Item', 'Amount', '', ''], ['Same', '1234.5', 'x', ''], ['Same', '1234.5', 'x', ''], ['Note', '', '', 'True'],
  ]);
  assert.deepEqual([els[0]!.metadata.page_name, els[0]!.metadata.page_number], ['Data', 1]);
});
