// Legacy .doc structure: table rows (cells closed by Word's cell mark, a tab in the reader's text)
// become one Table; a paragraph that merely ends in a tab stays a paragraph.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { docBodyBlocks } from '../../../../lambdas/engine/partition/formats/doc';
import { docParagraphs } from '../../../../lambdas/engine/partition/formats/doc-styles';
import CFB from 'cfb';
import { CORPUS, partition } from './helpers';

test('doc: consecutive lines of tab-closed cells are one table; a lone tab-ended line is text', () => {
  const body = 'Prices are listed below.\n\tFruit\tPrice\t\nApple\tRed\t3\t\nPear\tGreen\t4\t\n\nName:\t\nThe end of the list.';
  assert.deepEqual(docBodyBlocks(body), [
    { kind: 'text', text: 'Prices are listed below.' },
    { kind: 'table', grid: [['', 'Fruit', 'Price'], ['Apple', 'Red', '3'], ['Pear', 'Green', '4']] },
    { kind: 'text', text: 'Name:' },
    { kind: 'text', text: 'The end of the list.' },
  ]);
});

test('docling legacy_sample.doc: its table is one Table with the cells row by row', async () => {
  const dir = path.join(CORPUS, 'docling');
  const els = await partition('doc', new Uint8Array(readFileSync(path.join(dir, 'docs', 'legacy_sample.doc'))));
  const exp = JSON.parse(readFileSync(path.join(dir, 'expected', 'legacy_sample.doc.json'), 'utf8')) as { type: string; text: string }[];
  const tables = els.filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1);
  assert.equal(tables[0]!.text, exp.find((e) => e.type === 'Table')!.text);
  assert.match(tables[0]!.metadata.text_as_html!, /^<table><tr><td><\/td><td>Food<\/td>/);
  assert.ok(!els.some((e) => e.type !== 'Table' && /Blueberry/.test(e.text)), 'no row left as a paragraph');
});

test('doc: heading styles give Titles with their depth and list paragraphs ListItems, from the binary structures', async () => {
  const dir = path.join(CORPUS, 'docling');
  const data = new Uint8Array(readFileSync(path.join(dir, 'docs', 'legacy_sample.doc')));
  const exp = JSON.parse(readFileSync(path.join(dir, 'expected', 'legacy_sample.doc.json'), 'utf8')) as { type: string; text: string }[];
  const els = await partition('doc', data);
  // -- every expected heading and list item comes out so typed (the reader's text matched to the styles),
  // -- its text as written (curly apostrophes kept) --
  for (const kind of ['ListItem', 'Title'] as const) {
    const want = exp.filter((e) => e.type === kind).map((e) => e.text);
    const got = new Set(els.filter((e) => e.type === kind).map((e) => e.text));
    assert.ok(want.length > 0);
    for (const w of want) assert.ok(got.has(w), `${kind} ${JSON.stringify(w)}: ${JSON.stringify([...got])}`);
  }
  assert.ok(els.filter((e) => e.type === 'ListItem').every((e) => e.metadata.category_depth === 0));
  assert.ok(els.some((e) => e.type === 'Title' && e.metadata.category_depth === 0));
  // -- the table's cells are paragraphs in a table, never matched as body text --
  const paras = docParagraphs(data);
  assert.ok(paras.some((p) => p.inTable && p.text === 'Food'));
});

test('doc: a damaged file gives no styled paragraphs (the text heuristics type it), never an error', () => {
  const data = new Uint8Array(readFileSync(path.join(CORPUS, 'docling', 'docs', 'legacy_sample.doc')));
  for (const cut of [600, 4096, Math.floor(data.length / 2)]) assert.ok(Array.isArray(docParagraphs(data.subarray(0, cut))));
  const junk = data.slice();
  for (let i = 0x200; i < junk.length; i += 7) junk[i] = (i * 31) & 0xff;
  assert.ok(Array.isArray(docParagraphs(junk)));
});

/**
 * The docling legacy_sample.doc with merges set in its rows' cell definitions (sprmTDefTable's TC80
 * tcgrf, as Word 97 writes a merge): the header row's third cell continues a horizontal merge, the
 * second column's "50" starts a vertical merge the row under it continues.
 */
function docWithMerges(): Uint8Array {
  const data = readFileSync(path.join(CORPUS, 'docling', 'docs', 'legacy_sample.doc'));
  const cfb = CFB.read(data, { type: 'buffer' });
  const entry = CFB.find(cfb, 'WordDocument')!;
  const word = Buffer.from(entry.content as Uint8Array);
  // -- each row's sprmTDefTable: three cells, right edges 3187, 6374, 9562 twips, then a TC80 (20 bytes) a cell --
  const edges = Buffer.alloc(6);
  [3187, 6374, 9562].forEach((x, k) => edges.writeInt16LE(x, k * 2));
  const rows: number[] = [];
  for (let at = word.indexOf(edges); at >= 0; at = word.indexOf(edges, at + 1)) rows.push(at + 6);
  assert.equal(rows.length, 4, 'one definition a row');
  const tcgrf = (row: number, cell: number, bits: number) => word.writeUInt16LE(word.readUInt16LE(rows[row]! + cell * 20) | bits, rows[row]! + cell * 20);
  tcgrf(0, 2, 2); // horzMerge 2: merged with the cell before it
  tcgrf(1, 2, 3 << 5); // vertMerge 3: first of a vertical merge
  tcgrf(2, 2, 1 << 5); // vertMerge 1: merged with the cell above
  CFB.utils.cfb_add(cfb, 'WordDocument', word);
  entry.content = word;
  return new Uint8Array(CFB.write(cfb, { type: 'buffer' }) as Buffer);
}

test('doc: merged cells (sprmTDefTable) give colspan and rowspan, the merged text once', async () => {
  const els = await partition('doc', docWithMerges());
  const table = els.find((e) => e.type === 'Table')!;
  assert.equal(
    table.metadata.text_as_html,
    '<table><tr><td></td><td colspan="2">Food Calories per portion</td></tr>' +
      '<tr><td>Leaves</td><td>Ash, Elm, Maple</td><td rowspan="2">50 150</td></tr>' +
      '<tr><td>Berries</td><td>Blueberry, Strawberry, Cranberry</td></tr>' +
      '<tr><td>Grain</td><td>Corn, Buckwheat, Barley</td><td>200</td></tr></table>',
  );
  assert.equal(table.text, 'Food Calories per portion Leaves Ash, Elm, Maple 50 150 Berries Blueberry, Strawberry, Cranberry Grain Corn, Buckwheat, Barley 200');
});
