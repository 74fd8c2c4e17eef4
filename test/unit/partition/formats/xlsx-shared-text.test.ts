// A small xlsx whose cells all repeat one long shared string (issue 28: a 248 KB workbook, one 60 MB
// string in 100,000 cells, used a job's whole time budget): the cell text is counted against
// MAX_WORKBOOK_TEXT_CHARS and refused with a 413 at the cap; each shared string is folded once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strToU8, zipSync } from 'fflate';
import { readXlsx } from '../../../../lambdas/engine/partition/formats/xlsx-reader';
import { MAX_WORKBOOK_TEXT_CHARS } from '../../../../lambdas/engine/partition/limits';
import { PayloadTooLarge } from '../../../../lambdas/errors';

function sharedStringWorkbook(text: string, cells: number): Uint8Array {
  const row = (r: number) => `<row r="${r}">${Array.from({ length: 10 }, (_, c) => `<c r="${String.fromCharCode(65 + c)}${r}" t="s"><v>0</v></c>`).join('')}</row>`;
  const rows = Array.from({ length: Math.ceil(cells / 10) }, (_, i) => row(i + 1)).join('');
  return zipSync({
    'xl/workbook.xml': strToU8('<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    'xl/_rels/workbook.xml.rels': strToU8('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
    'xl/sharedStrings.xml': strToU8(`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>${text}</t></si></sst>`),
    'xl/worksheets/sheet1.xml': strToU8(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`),
  }, { level: 9 });
}

test('one long shared string repeated past the text cap is a 413 naming the cap', () => {
  const long = 'word '.repeat(400_000); // 2 MB of text
  const cells = Math.ceil(MAX_WORKBOOK_TEXT_CHARS / long.trim().length) + 10;
  const data = sharedStringWorkbook(long, cells);
  assert.ok(data.length < 200_000, `the workbook is small (${data.length} bytes)`);
  assert.throws(() => readXlsx(data), (err: unknown) => err instanceof PayloadTooLarge && /text of the workbook's cells exceeds the limit/.test((err as Error).message));
});

test('below the cap every cell gets the folded shared string', () => {
  const sheets = readXlsx(sharedStringWorkbook('  a   shared\n string ', 30));
  assert.equal(sheets[0]!.cells.length, 30);
  assert.ok(sheets[0]!.cells.every((c) => c.v === 'a shared string'));
});

test('a sheet formatted down to its last row (an empty element for each of a million rows) is read, not refused', () => {
  // Excel writes <row r="N" s="1" customFormat="1"/> for every formatted row: past a million
  // elements the tree's cap refused the workbook with a 413, though the sheet is streamed
  const rows = ['<row r="1"><c r="A1" t="inlineStr"><is><t>Year</t></is></c><c r="B1" t="inlineStr"><is><t>Count</t></is></c></row>', '<row r="2"><c r="A2"><v>2020</v></c><c r="B2"><v>5</v></c></row>'];
  for (let r = 3; r <= 1_048_576; r++) rows.push(`<row r="${r}" spans="1:20" s="1" customFormat="1"/>`);
  const data = zipSync({
    'xl/workbook.xml': strToU8('<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    'xl/_rels/workbook.xml.rels': strToU8('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
    'xl/worksheets/sheet1.xml': strToU8(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:T1048576"/><sheetData>${rows.join('')}</sheetData></worksheet>`),
  }, { level: 6 });
  const [sheet] = readXlsx(data);
  assert.deepEqual(sheet!.cells.map((c) => c.v), ['Year', 'Count', '2020', '5']);
});
