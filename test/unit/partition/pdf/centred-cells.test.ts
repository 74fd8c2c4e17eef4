// An unruled table whose cells are centred vertically (a browser's default for <td>, a word processor's
// "centre vertically"), one cell of a record wrapped over two lines ("97.1 ±" / "0.2"): the record's
// one-line cells stand midway between the wrapped cell's lines. They are one record, not two rows with
// the one-line cells spanning both; a label centred beside two full rows (a rowspan) stays one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';

const CHAR = 5, COL = 90, LEFT = 60;
const word = (t: string, x: number, y: number): Word => ({ t, x0: x, x1: x + CHAR * t.length, y0: y, y1: y + 10, size: 10, bold: false, italic: false });
const cell = (text: string, x: number, y: number): Word[] => {
  const out: Word[] = [];
  for (const t of text.split(' ')) { out.push(word(t, x, y)); x += CHAR * (t.length + 1); }
  return out;
};
const rowsOf = (html: string): string[][] =>
  [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1]!));
const tableOf = (words: Word[]) => {
  const p: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h: [], v: [] } };
  const els = layoutPage(p, { tables: true });
  const tables = els.filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1, JSON.stringify(els.map((e) => [e.type, e.text])));
  return String(tables[0]!.metadata.text_as_html);
};

/** Lines 11.5 points apart inside a cell, records 13 apart (their cells' padding of a point or so, as a browser sets them). */
const LINE = 11.5, RECORD = 13;

describe('a record whose one-line cells are centred beside a wrapped cell', () => {
  const head = ['Variant', 'Receipts', 'Delta', 'Forms', 'Delta'];
  // each cell: its lines (one or two)
  const records = [
    [['Full'], ['97.1 ±', '0.2'], ['–'], ['85.0 ±', '0.4'], ['–']],
    [['No layout', 'attention'], ['93.4 ±', '0.3'], ['−3.7'], ['78.2 ±', '0.6'], ['−6.8']],
    [['No window'], ['96.0 ±', '0.2'], ['−1.1'], ['82.9 ±', '0.5'], ['−2.1']],
    [['No early stop'], ['96.8 ±', '0.4'], ['−0.3'], ['84.1 ±', '0.7'], ['−0.9']],
  ];
  it('is one row, each wrapped cell read whole', () => {
    const words: Word[] = [];
    head.forEach((t, c) => words.push(...cell(t, LEFT + COL * c, 100)));
    let y = 100 + RECORD + 3;
    for (const r of records) {
      const lines = Math.max(...r.map((c) => c.length));
      r.forEach((texts, c) => texts.forEach((t, k) => {
        // centred: a one-line cell of a two-line record midway between its lines
        const dy = texts.length < lines ? (LINE * (lines - 1)) / 2 : LINE * k;
        words.push(...cell(t, LEFT + COL * c, y + dy));
      }));
      y += LINE * (lines - 1) + RECORD;
    }
    const rows = rowsOf(tableOf(words));
    assert.deepEqual(rows, [head, ...records.map((r) => r.map((texts) => texts.join(' ')))]);
  });

  it('a label centred beside two rows of their own still spans them', () => {
    const words: Word[] = [];
    ['Data set', 'Split', 'Documents', 'Forms'].forEach((t, c) => words.push(...cell(t, LEFT + COL * c, 100)));
    // rows a record apart, text only (no figure under a figure to tell them apart)
    const groups = [['Receipts', [['training', 'scanned', 'printed'], ['testing', 'photographed', 'handwritten']]], ['Invoices', [['training', 'printed', 'typed'], ['testing', 'scanned', 'mixed']]]] as const;
    const PITCH = 13;
    let y = 100 + RECORD + 3;
    for (const [label, rows] of groups) {
      words.push(...cell(label, LEFT, y + PITCH / 2));
      for (const r of rows) { r.forEach((t, c) => words.push(...cell(t, LEFT + COL * (c + 1), y))); y += PITCH; }
    }
    const html = tableOf(words);
    assert.match(html, /<td rowspan="2">Receipts<\/td><td>training<\/td>/, html);
    assert.match(html, /<tr><td>testing<\/td><td>photographed<\/td><td>handwritten<\/td><\/tr>/, html);
  });
});
