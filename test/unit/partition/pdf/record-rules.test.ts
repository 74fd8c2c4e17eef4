// Tables whose records are rules apart and hold running text (a parameter or glossary table: a short
// key, a value, a description wrapped over lines), with narrow gutters as browsers and word
// processors pad cells: alignment alone read the records as prose (tables/row-rules.ts
// findRuleBandTables). Prose between rules, in one column or two, stays text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { HRule, RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';

const SIZE = 10, CHAR = 5, SPACE = 3, LEAD = 13;
const word = (t: string, x: number, y: number): Word => ({ t, x0: x, x1: x + CHAR * t.length, y0: y, y1: y + SIZE, size: SIZE, bold: false, italic: false });
/** A cell's text from x, wrapped at `width` points, lines LEAD apart from y. */
function cell(text: string, x: number, y: number, width = 1000): Word[] {
  const out: Word[] = [];
  let cx = x, cy = y;
  for (const t of text.split(' ')) {
    if (cx > x && cx + CHAR * t.length > x + width) { cx = x; cy += LEAD; }
    out.push(word(t, cx, cy));
    cx += CHAR * t.length + SPACE;
  }
  return out;
}
const lines = (text: string, width: number) => Math.ceil(cell(text, 0, 0, width).at(-1)!.y0 / LEAD) + 1;

const COLS = [60, 150, 200];
const RIGHT = 500;
const RECORDS = [
  ['max_connections', '100', 'The largest number of client connections the server accepts at the same time; further clients wait in the queue until one is closed.'],
  ['timeout_ms', '30000', 'How long a request may run before it is cancelled and an error is returned to the client.'],
  ['log_level', 'info', 'One of debug, info, warn or error.'],
];

/** A header line, a rule under it and one under each record; the gutters 6 points wide. */
function page(records: string[][], header?: string[]): RawPage {
  const words: Word[] = [];
  const h: HRule[] = [];
  let y = 100;
  if (header) header.forEach((t, c) => words.push(...cell(t, COLS[c]!, y)));
  y += LEAD + 2;
  h.push({ y: y - 3, x0: 57, x1: RIGHT + 3 });
  for (const r of records) {
    let n = 1;
    r.forEach((t, c) => {
      const width = (COLS[c + 1] ?? RIGHT) - COLS[c]! - 6;
      words.push(...cell(t, COLS[c]!, y, width));
      n = Math.max(n, lines(t, width));
    });
    y += n * LEAD + 4;
    h.push({ y: y - 3, x0: 57, x1: RIGHT + 3 });
  }
  return { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h, v: [] } };
}
const rowsOf = (html: string): string[][] =>
  [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1]!));

describe('records between rules that hold running text', () => {
  it('are one Table: the header, then one row per record with its wrapped description whole', () => {
    const els = layoutPage(page(RECORDS, ['Parameter', 'Default', 'Description']), { tables: true });
    const tables = els.filter((e) => e.type === 'Table');
    assert.equal(tables.length, 1, JSON.stringify(els.map((e) => [e.type, e.text])));
    assert.deepEqual(rowsOf(String(tables[0]!.metadata.text_as_html)), [['Parameter', 'Default', 'Description'], ...RECORDS]);
    assert.equal(els.length, 1, 'no text left beside the table');
  });

  it('without a header line too', () => {
    const tables = layoutPage(page(RECORDS), { tables: true }).filter((e) => e.type === 'Table');
    assert.deepEqual(rowsOf(String(tables[0]!.metadata.text_as_html)), RECORDS);
  });

  it('booktabs (rules above and below the header and below the body): the body splits into its records', () => {
    const words: Word[] = [];
    ['Parameter', 'Default', 'Description'].forEach((t, c) => words.push(...cell(t, COLS[c]!, 100)));
    const h: HRule[] = [{ y: 97, x0: 57, x1: RIGHT + 3 }, { y: 100 + LEAD, x0: 57, x1: RIGHT + 3 }];
    let y = 100 + LEAD + 4;
    for (const r of RECORDS) {
      let n = 1;
      r.forEach((t, c) => {
        const width = (COLS[c + 1] ?? RIGHT) - COLS[c]! - 6;
        words.push(...cell(t, COLS[c]!, y, width));
        n = Math.max(n, lines(t, width));
      });
      y += n * LEAD + 5; // cell padding between records
    }
    h.push({ y, x0: 57, x1: RIGHT + 3 });
    const p: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h, v: [] } };
    const tables = layoutPage(p, { tables: true }).filter((e) => e.type === 'Table');
    assert.deepEqual(rowsOf(String(tables[0]!.metadata.text_as_html)), [['Parameter', 'Default', 'Description'], ...RECORDS]);
  });

  it('paragraphs between rules stay text, in one column or in two', () => {
    const prose = [
      'The first paragraph is set between two rules and runs over several lines of the page like any other text does.',
      'A second paragraph follows under the next rule; it too is plain running text without any column of short cells.',
      'The third and last paragraph closes the section and leaves the page to whatever comes after it in the document.',
    ];
    const one = layoutPage(page(prose.map((p) => [p])), { tables: true });
    assert.ok(!one.some((e) => e.type === 'Table'), JSON.stringify(one.map((e) => e.type)));
    // a page of two columns of prose with rules across both: no column of short cells, no table
    const words: Word[] = [];
    const h: HRule[] = [{ y: 97, x0: 57, x1: 503 }];
    let y = 100;
    for (const p of prose) {
      words.push(...cell(`${p} ${p}`, 60, y, 200), ...cell(`${p} ${p}`, 290, y, 210));
      y += lines(`${p} ${p}`, 200) * LEAD + 4;
      h.push({ y: y - 3, x0: 57, x1: 503 });
    }
    const two: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h, v: [] } };
    assert.ok(!layoutPage(two, { tables: true }).some((e) => e.type === 'Table'));
  });
});

describe('record rules: bad input stays bounded', () => {
  it('a page of thousands of stacked rules and records is read in bounded time', () => {
    const words: Word[] = [];
    const h: HRule[] = [];
    for (let i = 0; i < 3000; i++) {
      const y = 20 + i * 0.25;
      words.push(word(`k${i}`, 60 + (i % 7) * 60, y), word('value', 120 + (i % 5) * 70, y));
      h.push({ y: y + 0.1, x0: 57 + (i % 3), x1: 503 - (i % 4) });
    }
    const p: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h, v: [] } };
    const started = Date.now();
    layoutPage(p, { tables: true });
    assert.ok(Date.now() - started < 30_000, `${Date.now() - started} ms`);
  });
});

describe('short booktabs tables in a paper\'s column', () => {
  // a header and two rows between a top rule, a rule under the header and a bottom rule, in the right
  // column of a two-column page; under its caption another table with rules of the same extent
  const prose = 'When training the final model we use the passages of the collection that best match the gold context as the positive passages and the rest as negatives.';
  const row = (y: number, cells: [string, number][]) => cells.flatMap(([t, x]) => cell(t, x, y));
  function paperPage(): RawPage {
    const words: Word[] = [];
    words.push(...cell(`${prose} ${prose} ${prose} ${prose}`, 60, 60, 215), ...cell(`${prose} ${prose}`, 310, 225, 215));
    const h: HRule[] = [63, 82, 115, 160, 179, 212].map((y) => ({ y, x0: 308, x1: 525 }));
    // the header's words a little under an em apart: one segment, as a paper sets them
    words.push(...row(68, [['Top-1', 366], ['Top-5', 400], ['Top-20', 434], ['Top-100', 473]]));
    words.push(...row(88, [['Gold', 312], ['44.9', 370], ['66.8', 407], ['78.1', 446], ['85.0', 491]]));
    words.push(...row(101, [['Dist. Sup.', 312], ['43.9', 370], ['65.3', 407], ['77.1', 446], ['84.4', 491]]));
    words.push(...cell('Table 5: Retrieval accuracy on the development set, trained on passages that match the gold context.', 310, 125, 215));
    words.push(...row(165, [['Loss', 312], ['Top-1', 366], ['Top-5', 402], ['Top-20', 440], ['Top-100', 485]]));
    words.push(...row(185, [['NLL', 312], ['44.9', 370], ['66.8', 407], ['78.1', 446], ['85.0', 491]]));
    words.push(...row(198, [['Triplet', 312], ['41.6', 370], ['65.0', 407], ['77.2', 446], ['84.5', 491]]));
    return { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h, v: [] } };
  }

  it('are tables of their own, the caption between them text, the other column prose', () => {
    const els = layoutPage(paperPage(), { tables: true });
    const tables = els.filter((e) => e.type === 'Table').map((t) => rowsOf(String(t.metadata.text_as_html)));
    assert.deepEqual(tables[0], [['', 'Top-1', 'Top-5', 'Top-20', 'Top-100'], ['Gold', '44.9', '66.8', '78.1', '85.0'], ['Dist. Sup.', '43.9', '65.3', '77.1', '84.4']], JSON.stringify(els.map((e) => [e.type, e.text])));
    assert.deepEqual(tables[1]?.[2], ['Triplet', '41.6', '65.0', '77.2', '84.5']);
    assert.equal(tables.length, 2);
    assert.ok(els.some((e) => e.type === 'FigureCaption' && e.text.startsWith('Table 5:')));
    assert.ok(els.filter((e) => e.type === 'NarrativeText').every((e) => e.text.startsWith('When training') && !/Top-|44\.9/.test(e.text)));
  });
});

describe('rows grouped between rules', () => {
  it('booktabs groups with a label centred beside them (\\multirow) or on their first row: each line a row (figures do not wrap)', () => {
    const at = (y: number, ...cells: string[]) => cells.flatMap((t, c) => (t ? cell(t, [60, 150, 300, 360][c]!, y) : []));
    const words = [
      at(100, 'Family', 'Method', 'Set X', 'Set Y'),
      at(117, '', 'Ridge', '0.71', '0.65'), at(130, 'Linear', 'Lasso', '0.69', '0.66'), at(143, '', 'Elastic net', '0.72', '0.67'),
      // the second group: two rows, its label set halfway between them
      at(160, '', 'Random forest', '0.81', '0.77'), at(166.5, 'Trees'), at(173, '', 'Boosting', '0.84', '0.79'),
      // the third: its label on its first row
      at(190, 'Kernels', 'RBF SVM', '0.78', '0.74'), at(203, '', 'Gaussian process', '0.77', '0.75'),
    ].flat();
    const h: HRule[] = [97, 113, 157, 187, 217].map((y) => ({ y, x0: 57, x1: 400 }));
    const p: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h, v: [] } };
    const tables = layoutPage(p, { tables: true }).filter((e) => e.type === 'Table');
    assert.equal(tables.length, 1);
    assert.match(String(tables[0]!.metadata.text_as_html), /<tr><td rowspan="2">Trees<\/td><td>Random forest<\/td>.*?<\/tr><tr><td>Boosting<\/td>/);
    assert.match(String(tables[0]!.metadata.text_as_html), /<tr><td rowspan="3">Linear<\/td><td>Ridge<\/td>/);
    assert.deepEqual(rowsOf(String(tables[0]!.metadata.text_as_html)), [
      ['Family', 'Method', 'Set X', 'Set Y'],
      // (the label on the middle line of its group's three rows spans them, from the first)
      ['Ridge', '0.71', '0.65'], ['Lasso', '0.69', '0.66'], ['Elastic net', '0.72', '0.67'],
      // (the label set between the group's rows spans both)
      ['Random forest', '0.81', '0.77'], ['Boosting', '0.84', '0.79'],
      ['Kernels', 'RBF SVM', '0.78', '0.74'], ['', 'Gaussian process', '0.77', '0.75'],
    ]);
  });

  it('a ruled frame around rows set without rules: each line a row, though a cell lacks a line (a value left blank)', () => {
    const xs = [55, 140, 230, 320, 400];
    const at = (y: number, ...cells: string[]) => cells.flatMap((t, c) => (t ? cell(t, xs[c]! + 5, y) : []));
    const words = [
      at(100, 'Run', 'Chunks', 'Mean', 'Tables'),
      at(117, 'Base 128', '64,058', '800.73', 'N/A'), at(130, 'Base 256', '32,051', '400.64', ''), at(143, 'Base 512', '16,046', '200.58', 'N/A'),
      at(160, 'Chipper', '20,843', '260.57', '96.20'),
    ].flat();
    const h: HRule[] = [97, 113, 157, 173].map((y) => ({ y, x0: xs[0]!, x1: xs[4]! }));
    const v = xs.map((x) => ({ x, y0: 97, y1: 173 }));
    const p: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h, v } };
    const tables = layoutPage(p, { tables: true }).filter((e) => e.type === 'Table');
    assert.equal(tables.length, 1);
    assert.deepEqual(rowsOf(String(tables[0]!.metadata.text_as_html)), [
      ['Run', 'Chunks', 'Mean', 'Tables'],
      ['Base 128', '64,058', '800.73', 'N/A'], ['Base 256', '32,051', '400.64', ''], ['Base 512', '16,046', '200.58', 'N/A'],
      ['Chipper', '20,843', '260.57', '96.20'],
    ]);
  });
});
