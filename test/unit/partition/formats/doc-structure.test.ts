// Legacy .doc structure: table rows (cells closed by Word's cell mark, a tab in the reader's text)
// become one Table; a paragraph that merely ends in a tab stays a paragraph.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { docBodyBlocks } from '../../../../lambdas/engine/partition/formats/doc';
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
