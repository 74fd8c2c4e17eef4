// An unruled table whose header row is set off its columns (centred over values set flush left, as
// browsers and word processors set a <th> over its <td>s): the header's cells sit in the gutters of
// the body's columns. They belong to the column below them, not to columns of their own (the table
// came out with twice its columns, every other one empty).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';

const CHAR = 5;
const word = (t: string, x: number, y: number): Word => ({ t, x0: x, x1: x + CHAR * t.length, y0: y, y1: y + 10, size: 10, bold: false, italic: false });
/** Words of a cell text starting at x (one space between words). */
const cell = (text: string, x: number, y: number): Word[] => {
  const out: Word[] = [];
  for (const t of text.split(' ')) { out.push(word(t, x, y)); x += CHAR * (t.length + 1); }
  return out;
};
const COL = 90, LEFT = 60;
const HEAD = ['Region', 'Q1', 'Q2', 'Q3', 'Q4'];
const BODY = [['North', '1,200', '1,350', '1,410', '1,500'], ['South', '980', '1,020', '1,100', '1,180'], ['East', '760', '800', '845', '900'], ['West', '1,050', '1,110', '1,150', '1,230']];

function page(header: 'centred' | 'left'): RawPage {
  const words: Word[] = [];
  HEAD.forEach((t, c) => {
    const x = header === 'centred' ? LEFT + COL * c + (COL - CHAR * t.length) / 2 : LEFT + COL * c + 3;
    words.push(...cell(t, x, 100));
  });
  BODY.forEach((r, i) => r.forEach((t, c) => words.push(...cell(t, LEFT + COL * c + 3, 118 + 18 * i))));
  return { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h: [], v: [] } };
}
const rowsOf = (html: string): string[][] =>
  [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1]!));

describe('a header row set off its columns', () => {
  for (const header of ['centred', 'left'] as const) {
    it(`keeps the table's five columns (header ${header})`, () => {
      const tables = layoutPage(page(header), { tables: true }).filter((e) => e.type === 'Table');
      assert.equal(tables.length, 1);
      assert.deepEqual(rowsOf(String(tables[0]!.metadata.text_as_html)), [HEAD, ...BODY]);
    });
  }

  it('a column only one row fills keeps its own cells apart (a note beside one value)', () => {
    const p = page('left');
    // a sixth column with text on one body row only: it must not be folded into the fifth
    p.lines = wordsToLines([...p.lines.flatMap((l) => l.segs.flatMap((s) => s.words)), ...cell('revised', LEFT + COL * 5 + 3, 118)]);
    const tables = layoutPage(p, { tables: true }).filter((e) => e.type === 'Table');
    const rows = rowsOf(String(tables[0]!.metadata.text_as_html));
    assert.deepEqual(rows[1], ['North', '1,200', '1,350', '1,410', '1,500', 'revised']);
  });
});

describe('a header set a word space apart over its columns', () => {
  // "Type #N IB Top-5 Top-20" as set in a paper: the header's words a word space apart (one segment
  // over every column), and a row label that runs close to the next column ("G.+BM25(1) 127+128"):
  // at segment level the columns all merge into one; the gutters at word level are the columns
  it('is a table of its word-level columns', () => {
    const x = [310, 364, 405, 426, 459];
    const words: Word[] = [];
    let hx = 310;
    for (const t of ['Type', '#N', 'IB', 'Top-5', 'Top-20']) { words.push(word(t, hx, 100)); hx += CHAR * t.length + 3; }
    // the header's words sit over their columns: move them there, a word space apart at most
    const head = words.splice(0);
    head.forEach((w, k) => { const wd = w.x1 - w.x0; w.x0 = Math.max(x[k]!, k ? head[k - 1]!.x1 + 3 : x[k]!); w.x1 = w.x0 + wd; });
    words.push(...head);
    const rows = [['Random', '7', 'x', '47.0', '64.3'], ['BM25', '7', 'x', '50.0', '63.3'], ['Gold', '31', 'v', '52.1', '70.8'], ['G.+BM25(1)', '127+128', 'v', '65.8', '78.0']];
    rows.forEach((r, i) => r.forEach((t, c) => words.push(word(t, c === 1 && i === 3 ? 310 + CHAR * 10 + 3 : x[c]!, 118 + 14 * i))));
    const p: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h: [], v: [] } };
    const tables = layoutPage(p, { tables: true }).filter((e) => e.type === 'Table');
    assert.equal(tables.length, 1, JSON.stringify(layoutPage(p, { tables: true }).map((e) => [e.type, e.text])));
    const got = rowsOf(String(tables[0]!.metadata.text_as_html));
    assert.deepEqual(got.slice(1), rows);
  });
});

describe('a header over groups of columns', () => {
  it('one of whose labels is a run of several words is the table\'s first row, each label spanning its group', () => {
    const words: Word[] = [];
    // "Share" centred over Q1-Q2, "Quarterly sales in thousands (units)" over Q3-Q4 (word spaces of 3 points)
    const centred = (t: string, c: number) => {
      let x = LEFT + COL * (c + 1) - (CHAR * t.replace(/ /g, '').length + 3 * (t.split(' ').length - 1)) / 2;
      return t.split(' ').map((w) => { const out = word(w, x, 82); x = out.x1 + 3; return out; });
    };
    words.push(...centred('Share', 1), ...centred('Quarterly sales in thousands (units)', 3));
    HEAD.forEach((t, c) => words.push(...cell(t, LEFT + COL * c + 3, 100)));
    BODY.forEach((r, i) => r.forEach((t, c) => words.push(...cell(t, LEFT + COL * c + 3, 118 + 18 * i))));
    const p: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h: [], v: [] } };
    const els = layoutPage(p, { tables: true });
    const tables = els.filter((e) => e.type === 'Table');
    assert.equal(tables.length, 1, JSON.stringify(els.map((e) => [e.type, e.text])));
    const html = String(tables[0]!.metadata.text_as_html);
    // the group over Q3-Q4 spans them; "Share", centred in the gutter between Q1 and Q2 over values
    // set flush left, meets neither column's text and takes the column it is nearest to
    assert.match(html, /^<table><tr><td><\/td><td><\/td><td>Share<\/td><td colspan="2">Quarterly sales in thousands \(units\)<\/td><\/tr><tr><td>Region<\/td>/, html);
  });
});

describe('a header cell spanning two header rows', () => {
  it('set halfway between them, it joins the first of them (no row of its own)', () => {
    const words: Word[] = [];
    words.push(...cell('Sales', LEFT + COL + 3, 82), ...cell('Costs', LEFT + 3 * COL + 3, 82));
    words.push(...cell('Region', LEFT + 3, 88));
    HEAD.slice(1).forEach((t, c) => words.push(...cell(t, LEFT + COL * (c + 1) + 3, 94)));
    BODY.forEach((r, i) => r.forEach((t, c) => words.push(...cell(t, LEFT + COL * c + 3, 112 + 18 * i))));
    const p: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h: [], v: [] } };
    const tables = layoutPage(p, { tables: true }).filter((e) => e.type === 'Table');
    assert.equal(tables.length, 1);
    // (spanning both rows: the second has no cell of its own under it)
    const rows = rowsOf(String(tables[0]!.metadata.text_as_html).replace(/ colspan="\d+"/g, '').replace(/<td rowspan="2">/g, '<td>'));
    assert.deepEqual(rows[0]!.filter(Boolean), ['Region', 'Sales', 'Costs'], JSON.stringify(rows));
    assert.match(String(tables[0]!.metadata.text_as_html), /<td rowspan="2">Region<\/td>/);
    assert.deepEqual(rows[1], ['Q1', 'Q2', 'Q3', 'Q4']);
  });
});
