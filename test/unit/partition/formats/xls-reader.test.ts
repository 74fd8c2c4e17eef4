// The legacy workbook reader (xls-reader.ts) on the corpus, on hand-built BIFF8/BIFF5 streams (every
// cell record, the SST split across CONTINUE records, dates and formats, code pages) and on hostile
// ones: sheet, defined-name and cell keys such as __proto__ must stay data (no prototype is touched),
// and short, lying or endless records end in a 422 or a 413, quickly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PayloadTooLarge, UnprocessableDocument } from '../../../../lambdas/errors';
import { readXls } from '../../../../lambdas/engine/partition/formats/xls-reader';
import { MAX_WORKBOOK_SHEETS, MAX_WORKBOOK_TEXT_CHARS } from '../../../../lambdas/engine/partition/limits';
import { CORPUS, partition } from './helpers';
import {
  EOF, RT, biffStream, bof, cellHead, f64, longStr, oleFile, record, shortStr, sst, u16, u32, u8, xlsWorkbook, type BiffSheet,
} from '../../../support/workbooks';

const values = (data: Uint8Array, sheet = 0): string[] => readXls(data)[sheet]!.cells.map((c) => c.v);
const grid = (data: Uint8Array, sheet = 0): string[] => readXls(data)[sheet]!.cells.map((c) => `${c.r},${c.c}=${c.v}`);
const unprocessable = (pattern: RegExp) => (err: unknown): boolean => err instanceof UnprocessableDocument && pattern.test(err.message);

test('corpus: tests-example.xls and docling legacy_sample.xls read as the SheetJS reader read them', () => {
  const example = readXls(new Uint8Array(readFileSync(path.join(CORPUS, 'docs', 'tests-example.xls'))));
  assert.deepEqual(example.map((s) => [s.name, s.cells.length]), [['Example Test', 38], ['Format Abbr.', 32], ['Readme', 10]]);
  const first = example[0]!.cells.map((c) => c.v);
  assert.deepEqual(first.slice(0, 6), ['MC', 'What is 2+2?', '4', 'correct', '3', 'incorrect']);
  assert.deepEqual(first.slice(-7), ['λ', 'Λ', 'α', 'γ', 'Γ', 'φ', 'Φ']);
  const ducks = readXls(new Uint8Array(readFileSync(path.join(CORPUS, 'docling', 'docs', 'legacy_sample.xls'))));
  assert.deepEqual(ducks.map((s) => s.name), ['Duck Observations']);
  assert.deepEqual(ducks[0]!.cells.slice(0, 5), [
    { r: 1, c: 1, v: 'Number of freshwater ducks per year' }, { r: 3, c: 1, v: 'Year' }, { r: 3, c: 2, v: 'Freshwater Ducks' },
    { r: 4, c: 1, v: '2019' }, { r: 4, c: 2, v: '120' },
  ]);
});

test('cell records: NUMBER, RK, MULRK, BOOLERR, LABEL, FORMULA results (a string one from STRING + CONTINUE)', () => {
  const rk = (v: number): number => ((v << 2) | 2) >>> 0; // a 30-bit integer RK
  const formula = (r: number, c: number, result: Buffer): Buffer => record(RT.FORMULA, Buffer.concat([cellHead(r, c), result, u16(0), u32(0), u16(0)]));
  const special = (type: number, value = 0): Buffer => Buffer.from([type, 0, value, 0, 0, 0, 0xff, 0xff]);
  const longText = 'formula result '.repeat(20).trim();
  const records = [
    record(RT.NUMBER, Buffer.concat([cellHead(0, 0), f64(21.6)])),
    record(RT.RK, Buffer.concat([cellHead(0, 1), u32(rk(-337))])),
    record(RT.RK, Buffer.concat([cellHead(0, 2), u32(rk(12345) | 1)])), // 123.45: an integer over 100
    record(RT.RK, Buffer.concat([cellHead(0, 3), u32(Buffer.from(f64(0.5)).readUInt32LE(4))])), // the high 30 bits of a double
    record(RT.MULRK, Buffer.concat([u16(1), u16(2), u16(0), u32(rk(7)), u16(0), u32(rk(8)), u16(0), u32(rk(9)), u16(4)])),
    record(RT.BOOLERR, Buffer.concat([cellHead(2, 0), u8(1), u8(0)])),
    record(RT.BOOLERR, Buffer.concat([cellHead(2, 1), u8(0x07), u8(1)])),
    record(RT.LABEL, Buffer.concat([cellHead(2, 2), longStr('a LABEL, Ωmega')])),
    formula(3, 0, f64(42)),
    formula(3, 1, special(1, 1)),
    formula(3, 2, special(2, 0x2a)),
    formula(3, 3, special(3)), // an empty string: no cell
    formula(3, 4, special(0)),
    // the string result: 30 characters in the STRING record, the rest in a CONTINUE (flags byte first)
    record(RT.STRING, Buffer.concat([u16(longText.length), u8(0), Buffer.from(longText.slice(0, 30), 'latin1')])),
    record(RT.CONTINUE, Buffer.concat([u8(1), Buffer.from(longText.slice(30), 'utf16le')])),
  ];
  const data = oleFile(biffStream([{ name: 'Cells', records }]));
  assert.deepEqual(grid(data), [
    '0,0=21.6', '0,1=-337', '0,2=123.45', '0,3=0.5', '1,2=7', '1,3=8', '1,4=9',
    '2,0=True', '2,1=#DIV/0!', '2,2=a LABEL, Ωmega', '3,0=42', '3,1=True', '3,2=#N/A', `3,4=${longText}`,
  ]);
});

test('SST over many CONTINUE records: width switching, rich-text runs and extended data skipped across the breaks', () => {
  const strings = [
    { text: 'plain Latin-1 text that is long enough to be split several times', runs: 3 },
    { text: 'starts narrow then ΛΑΜΒΔΑ then narrow again, and on', ext: 23 },
    { text: '', runs: 1 },
    { text: 'ünïcödé café' },
    { text: '日本語のテキスト'.repeat(5), runs: 2, ext: 9 },
  ];
  for (const maxRecord of [16, 17, 29, 8224]) {
    const stream = biffStream([{ name: 'S', records: strings.map((_, i) => record(RT.LABELSST, Buffer.concat([cellHead(i, 0), u32(i)]))) }], [sst(strings, maxRecord)]);
    assert.deepEqual(values(oleFile(stream)), strings.map((s) => s.text).filter(Boolean), `records of ${maxRecord} bytes`);
  }
});

test('dates through XF and FORMAT (built-in and custom, 1900 and 1904 systems); other formats keep the raw number', () => {
  const when = new Date(Date.UTC(2024, 0, 2, 13, 45));
  for (const date1904 of [false, true]) {
    const data = xlsWorkbook({ D: [[when, { v: 45293, z: 'yyyy-mm-dd' }, { v: 0.216, z: '0.0%' }, { v: 1234.5, z: '#,##0.00 "CHF"' }]] }, { date1904 });
    const expectCustom = date1904 ? '2028-01-03 00:00:00' : '2024-01-02 00:00:00';
    assert.deepEqual(values(data), ['2024-01-02 13:45:00', expectCustom, '0.216', '1234.5']);
  }
});

test('BIFF5 (Excel 5.0/95): byte strings in the CODEPAGE, sheet names included', () => {
  const cp1251 = (s: string): Buffer => Buffer.from(s.split('').map((ch) => (ch >= 'А' && ch <= 'я' ? ch.charCodeAt(0) - 0x410 + 0xc0 : ch.charCodeAt(0))));
  const bof5 = (dt: number): Buffer => record(RT.BOF, Buffer.concat([u16(0x0500), u16(dt), u16(0), u16(0)]));
  const sheetName = cp1251('Лист');
  const boundsheet = (offset: number): Buffer => record(RT.BOUNDSHEET, Buffer.concat([u32(offset), u8(0), u8(0), u8(sheetName.length), sheetName]));
  const text = cp1251('Привет');
  const globals = Buffer.concat([bof5(0x0005), record(RT.CODEPAGE, u16(1251)), record(RT.FORMAT, Buffer.concat([u16(164), u8(10), Buffer.from('yyyy-mm-dd')])),
    record(RT.XF, Buffer.concat([u16(0), u16(0), Buffer.alloc(12)])), record(RT.XF, Buffer.concat([u16(0), u16(164), Buffer.alloc(12)]))]);
  const offset = globals.length + boundsheet(0).length + EOF.length;
  const body = Buffer.concat([bof5(0x0010), record(RT.LABEL, Buffer.concat([cellHead(0, 0), u16(text.length), text])),
    record(RT.NUMBER, Buffer.concat([cellHead(0, 1, 1), f64(45293)])), EOF]);
  const sheets = readXls(oleFile(Buffer.concat([globals, boundsheet(offset), EOF, body]), 'Book'));
  assert.deepEqual(sheets, [{ name: 'Лист', cells: [{ r: 0, c: 0, v: 'Привет' }, { r: 0, c: 1, v: '2024-01-02 00:00:00' }] }]);
});

test('chart and VBA sheets keep their place in the sheet order but give no cells', async () => {
  const num = (v: number): Buffer => record(RT.NUMBER, Buffer.concat([cellHead(0, 0), f64(v)]));
  const data = oleFile(biffStream([
    { name: 'Data', records: [num(1)] },
    { name: 'Chart1', records: [num(2)], type: 2, dt: 0x0020 },
    { name: 'More', records: [num(3)] },
  ]));
  assert.deepEqual(readXls(data).map((s) => [s.name, s.cells.length]), [['Data', 1], ['Chart1', 0], ['More', 1]]);
  const els = await partition('xls', data);
  assert.deepEqual(els.map((e) => [e.text, e.metadata.page_number, e.metadata.page_name]), [['1', 1, 'Data'], ['3', 3, 'More']]);
});

test('hostile keys: __proto__ / constructor sheets, defined names and cells stay data, no prototype changes', async () => {
  const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort();
  const arrayProtoBefore = Object.getOwnPropertyNames(Array.prototype).sort();
  const keys = ['__proto__', 'constructor', 'prototype', 'polluted', 'hasOwnProperty', 'toString'];
  // defined names (NAME/Lbl records) with the same keys, each referring to a cell of the __proto__ sheet
  const name = (key: string): Buffer => {
    const rgce = Buffer.concat([u8(0x3a), u16(0), u16(0), u16(0)]); // PtgRef3d
    return record(RT.NAME, Buffer.concat([u16(0), u8(0), u8(key.length), u16(rgce.length), u16(0), u16(1), Buffer.alloc(4), u8(0), Buffer.from(key, 'latin1'), rgce]));
  };
  const strings = [...keys, 'yes'];
  const sheet = (sheetName: string): BiffSheet => ({
    name: sheetName,
    records: [
      // cells whose values are the keys (header row) and 'yes' under each; plus a LABEL and a string formula result
      ...keys.map((_, c) => record(RT.LABELSST, Buffer.concat([cellHead(0, c), u32(c)]))),
      ...keys.map((_, c) => record(RT.LABELSST, Buffer.concat([cellHead(1, c), u32(keys.length)]))),
      record(RT.LABEL, Buffer.concat([cellHead(2, 0), longStr('__proto__')])),
    ],
  });
  const data = oleFile(biffStream(keys.map(sheet), [...keys.map(name), sst(strings)]));
  const sheets = readXls(data);
  assert.deepEqual(sheets.map((s) => s.name), keys);
  for (const s of sheets) {
    assert.equal(Object.getPrototypeOf(s), Object.prototype);
    assert.ok(Array.isArray(s.cells));
    assert.deepEqual(s.cells.map((c) => c.v), [...keys, ...keys.map(() => 'yes'), '__proto__']);
  }
  const els = await partition('xls', data);
  const protoSheet = els.filter((e) => e.metadata.page_name === '__proto__');
  assert.equal(protoSheet.length, 2);
  assert.equal(protoSheet[0]!.text, `${keys.join(' ')} ${keys.map(() => 'yes').join(' ')}`);
  assert.equal(protoSheet[0]!.metadata.page_number, 1);
  const plain: Record<string, unknown> = {};
  assert.equal(plain['polluted'], undefined);
  assert.equal(({} as Record<string, unknown>)['yes'], undefined);
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), protoBefore);
  assert.deepEqual(Object.getOwnPropertyNames(Array.prototype).sort(), arrayProtoBefore);
  assert.equal(typeof Object.prototype.toString, 'function');
  assert.equal(typeof Object.prototype.hasOwnProperty, 'function');
});

test('truncated and short records are a 422, never a crash', () => {
  const good = biffStream([{ name: 'S', records: [record(RT.NUMBER, Buffer.concat([cellHead(0, 0), f64(1)]))] }], [sst(['a string'])]);
  // cut in the middle of the globals, and in the middle of the sheet's records
  assert.throws(() => readXls(oleFile(good.subarray(0, 30))), unprocessable(/runs past the end|incomplete/));
  assert.throws(() => readXls(oleFile(good.subarray(0, good.length - 10))), unprocessable(/runs past the end/));
  // records shorter than their fields
  const short = (rec: Buffer): Uint8Array => oleFile(biffStream([{ name: 'S', records: [rec] }]));
  for (const type of [RT.NUMBER, RT.RK, RT.LABELSST, RT.LABEL, RT.BOOLERR, RT.FORMULA]) {
    assert.throws(() => readXls(short(record(type, cellHead(0, 0)))), unprocessable(/ends inside a value/), `record 0x${type.toString(16)}`);
  }
  // a label claiming more characters than it holds
  assert.throws(() => readXls(short(record(RT.LABEL, Buffer.concat([cellHead(0, 0), u16(500), u8(0), Buffer.from('abc')])))), unprocessable(/runs past its record/));
  // a UTF-16 string split inside a character
  const odd = Buffer.concat([u32(1), u32(1), u16(3), u8(1), Buffer.from('ab', 'utf16le'), Buffer.from([0x41])]);
  const oddStream = biffStream([{ name: 'S', records: [] }], [record(RT.SST, odd), record(RT.CONTINUE, Buffer.from([1, 0x42, 0]))]);
  assert.throws(() => readXls(oleFile(oddStream)), unprocessable(/runs past its record/));
});

test('not a workbook: no OLE signature, no Workbook stream, encrypted, BIFF2-4, no BOF', () => {
  assert.throws(() => readXls(new TextEncoder().encode('<html><table><tr><td>1</td></tr></table></html>')), unprocessable(/signature missing/));
  assert.throws(() => readXls(oleFile(Buffer.from('not a workbook'), 'WordDocument')), unprocessable(/Workbook stream is missing/));
  assert.throws(() => readXls(oleFile(biffStream([{ name: 'S', records: [] }], [record(RT.FILEPASS, Buffer.alloc(6))]))), unprocessable(/encrypted/));
  assert.throws(() => readXls(oleFile(Buffer.concat([record(0x0409, Buffer.alloc(6)), EOF]))), unprocessable(/BIFF2-4/));
  assert.throws(() => readXls(oleFile(Buffer.concat([record(RT.NUMBER, Buffer.alloc(14)), EOF]))), unprocessable(/does not start with a BOF/));
  const junk = new Uint8Array(64 * 1024).map((_, i) => (i * 7919 + 13) % 256);
  junk.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  assert.throws(() => readXls(junk), UnprocessableDocument);
});

test('lying counts and floods stay bounded: a huge SST count, 60,000 CONTINUE records, sheets at one offset, unclosed BOFs', () => {
  const started = Date.now();
  // an SST declaring four billion strings but holding two
  const liar = Buffer.concat([u32(0xffffffff), u32(0xffffffff), longStr('one'), longStr('two')]);
  const sheet = { name: 'S', records: [record(RT.LABELSST, Buffer.concat([cellHead(0, 0), u32(1)])), record(RT.LABELSST, Buffer.concat([cellHead(0, 1), u32(0x7fffffff)]))] };
  assert.deepEqual(values(oleFile(biffStream([sheet], [record(RT.SST, liar)]))), ['two']);
  // one 60,000-character string split every two characters: 30,000 CONTINUE records, read in one pass
  const long = 'xy'.repeat(30_000);
  const flood = biffStream([{ name: 'S', records: [record(RT.LABELSST, Buffer.concat([cellHead(0, 0), u32(0)]))] }], [sst([long], 3)]);
  assert.equal(values(oleFile(flood))[0]!.length, long.length);
  // 60,000 empty CONTINUE records after a complete SST
  const empties = biffStream([sheet], [sst(['one', 'two']), ...Array.from({ length: 60_000 }, () => record(RT.CONTINUE))]);
  assert.deepEqual(values(oleFile(empties)), ['two']);
  // three BOUNDSHEETs pointing at the same substream: its cells are read once (by the last of them)
  const bsAt = (n: string, offset: number): Buffer => record(RT.BOUNDSHEET, Buffer.concat([u32(offset), u8(0), u8(0), shortStr(n)]));
  const at = bof(0x0005).length + 3 * bsAt('A', 0).length + EOF.length;
  const same = Buffer.concat([bof(0x0005), bsAt('A', at), bsAt('B', at), bsAt('C', at), EOF, bof(0x0010), record(RT.NUMBER, Buffer.concat([cellHead(0, 0), f64(5)])), EOF]);
  assert.deepEqual(readXls(oleFile(same)).map((s) => [s.name, s.cells.length]), [['A', 0], ['B', 0], ['C', 1]]);
  // BOFs that never close
  const unclosed = Buffer.concat([biffStream([{ name: 'S', records: [] }]), ...Array.from({ length: 1000 }, () => record(RT.BOF, Buffer.concat([u16(0x0600), u16(0x10)])))]);
  assert.deepEqual(readXls(oleFile(unclosed)).map((s) => s.name), ['S']);
  assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
});

test(`${MAX_WORKBOOK_SHEETS.toLocaleString('en-US')} sheets are read, one more is a 413`, () => {
  const sheets = (n: number): BiffSheet[] => Array.from({ length: n }, (_, i) => ({ name: `S${i}`, records: [] }));
  assert.equal(readXls(oleFile(biffStream(sheets(MAX_WORKBOOK_SHEETS)))).length, MAX_WORKBOOK_SHEETS);
  assert.throws(() => readXls(oleFile(biffStream(sheets(MAX_WORKBOOK_SHEETS + 1)))), (err: unknown) => err instanceof PayloadTooLarge && /sheet count/.test((err as Error).message));
});

test('a long shared string repeated by many cells stops at the workbook text cap (413), before the memory does', () => {
  const long = 'x'.repeat(65_535);
  const cells = Math.ceil(MAX_WORKBOOK_TEXT_CHARS / long.length) + 1;
  const records = Array.from({ length: cells }, (_, i) => record(RT.LABELSST, Buffer.concat([cellHead(i, 0), u32(0)])));
  const data = oleFile(biffStream([{ name: 'S', records }], [sst([long])]));
  assert.throws(() => readXls(data), (err: unknown) => err instanceof PayloadTooLarge && /text of the workbook's cells exceeds the limit of 134,217,728 characters/.test((err as Error).message));
});
