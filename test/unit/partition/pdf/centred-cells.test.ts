// An unruled table whose cells are centred vertically (a browser's default for <td>, a word processor's
// "centre vertically"), one cell of a record wrapped over two lines ("97.1 ±" / "0.2"): the record's
// one-line cells stand midway between the wrapped cell's lines. They are one record, not two rows with
// the one-line cells spanning both; a label centred beside two full rows (a rowspan) stays one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import type { HRule } from '../../../../lambdas/engine/partition/pdf/tables/paths';

const CHAR = 5, COL = 90, LEFT = 60;
const word = (t: string, x: number, y: number): Word => ({ t, x0: x, x1: x + CHAR * t.length, y0: y, y1: y + 10, size: 10, bold: false, italic: false });
const cell = (text: string, x: number, y: number): Word[] => {
  const out: Word[] = [];
  for (const t of text.split(' ')) { out.push(word(t, x, y)); x += CHAR * (t.length + 1); }
  return out;
};
const rowsOf = (html: string): string[][] =>
  [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1]!));
const tableOf = (words: Word[], h: HRule[] = []) => {
  const p: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h, v: [] } };
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

describe('a booktabs table (rules above and under the header, and at the bottom) whose first cells wrap', () => {
  // as a browser prints it (9 pt text, cells padded a point): each first cell's lines 5.2 points above
  // and below its record's other cells, which are centred beside them
  const at = (text: string, x0: number, x1: number, y0: number): Word[] => {
    const parts = text.split(' '), space = 2.25, per = (x1 - x0 - space * (parts.length - 1)) / parts.join('').length;
    let x = x0;
    return parts.map((t) => { const w = { ...word(t, x, y0), x1: x + per * t.length, y1: y0 + 9.2, size: 9 }; x = w.x1 + space; return w; });
  };
  const head = ['Model', 'Accuracy (%)', 'Params (M)', 'Latency (ms)'];
  const records = [[['Baseline', 'CNN'], '88.3 ± 0.4', '12.1', '3.2'], [['Transformer', '(small)'], '90.7 ± 0.3', '25.4', '4.8'], [['Transformer', '(large)'], '92.2 ± 0.2', '87.0', '9.1'], [['Ours'], '93.5 ± 0.2', '14.9', '3.9'], [['Ours +', 'distillation'], '93.1 ± 0.3', '7.2', '2.4']] as const;
  it('keeps each record, its other cells centred beside the first cell\'s two lines, one row', () => {
    const words: Word[] = [];
    const heads: [number, number][] = [[177.3, 208.7], [236.2, 302.1], [314.2, 373.3], [385.3, 450.8]];
    head.forEach((t, c) => words.push(...at(t, heads[c]![0], heads[c]![1], 167.6)));
    const cols: [number, number][] = [[245.4, 293.0], [333.8, 353.8], [410.9, 425.2]];
    let y = 181.1;
    for (const [first, ...rest] of records) {
      first.forEach((t, k) => words.push(...at(t, 161.9, 161.9 + 4.5 * t.length, y + 10.5 * k)));
      const mid = y + (10.5 * (first.length - 1)) / 2;
      rest.forEach((t, c) => words.push(...at(t, cols[c]![0], cols[c]![1], mid)));
      y += 10.5 * (first.length - 1) + 12.3;
    }
    const rule = (ry: number): HRule => ({ y: ry, x0: 156, x1: 457 });
    const rows = rowsOf(tableOf(words, [rule(165.4), rule(178.9), rule(y - 0.5)]));
    assert.deepEqual(rows, [head, ...records.map(([first, ...rest]) => [first.join(' '), ...rest])]);
  });
});
