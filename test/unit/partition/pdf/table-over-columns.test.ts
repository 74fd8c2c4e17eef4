// A table of figures set across the top of a page in two columns, the columns' running text right
// under it: each line of that text is two short segments (a half of each column), which read as rows,
// so the table's run of rows went on into the prose and, its cells then wordy, was no table at all
// (its rows came out as runs of figures). A line of running text after rows of short cells ends the table.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import { findTables } from '../../../../lambdas/engine/partition/pdf/tables/unruled';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const small = typeset({ size: 8, char: 4, space: 2 });
const text = typeset({ size: 10, char: 5, space: 2.5 });
const page = (ws: Word[]): RawPage => ({ page: 1, width: 612, height: 792, lines: wordsToLines(ws), links: [], images: [], chars: 0, unmapped: 0, rules: { h: [], v: [] } });

// a column of the table over the page's gutter, or the gutter clear down the page (the table then
// stands in the page's head, above the columns)
const X = { 'a column of the table over the gutter': [110, 175, 225, 270, 300, 360, 410, 460], 'the gutter clear': [110, 175, 225, 270, 325, 370, 420, 470] };
const ROWS = [
  ['Kind', 'Count', 'Train', 'Test', 'Val', 'Mean', 'Low', 'High'],
  ['Caption', '22524', '2.04', '1.77', '2.32', '84.1', '40.6', '94.9'],
  ['Footnote', '6318', '0.60', '0.31', '0.58', '83.9', '62.8', '85.4'],
  ['Formula', '25027', '2.25', '1.90', '2.96', '83.5', '84.7', '86.6'],
  ['List item', '185660', '17.19', '13.34', '15.82', '87.8', '74.3', '97.0'],
  ['Page footer', '70878', '6.51', '5.58', '6.00', '93.4', '88.9', '100'],
];
const LEFT = ['Every page was annotated by one of a pool of', 'trained annotators, and a sample of pages was', 'annotated twice so that agreement could be', 'measured on the pages that both of them read.'];
const RIGHT = ['Forms were the hardest kind to annotate, since', 'their fields are often set without any visible', 'structure, and their agreement is lower than', 'for the other kinds of document in the set.'];

const cases = [...Object.entries(X).map(([what, xs]) => ({ what, xs, leftTop: 150, rightTop: 150, right: 0 })),
  // a browser balances its columns: the right one may start a line higher, its first line alone;
  // its last columns right-aligned a little apart, their labels on one segment ("Mean Low High")
  { what: 'the right column a line higher, the last columns set close', xs: X['a column of the table over the gutter'], leftTop: 154.5, rightTop: 142, right: 3 }];
const width = (t: string) => 4 * t.length + 2 * (t.split(' ').length - 1);
for (const { what, xs, leftTop, rightTop, right } of cases) it(`a table of figures across a page in two columns ends where the columns' running text starts (${what})`, () => {
  // the last `right` columns' right edges 22 points apart
  const x = (k: number, t: string) => (k >= xs.length - right ? 400 + 22 * (k - xs.length + right) - width(t) : xs[k]!);
  const words = [
    ...text('Table 1: Counts of regions per kind and the agreement of two annotators.', 60, 50),
    ...ROWS.flatMap((r, i) => r.flatMap((t, k) => small(t, x(k, t), 70 + 12 * i))),
    ...[LEFT, RIGHT].flatMap((col, c) => col.flatMap((t, i) => text(t, c ? 320 : 60, (c ? rightTop : leftTop) + 12.5 * i, c ? 552 : 292))),
  ];
  const els = layoutPage(page(words), { tables: true });
  const tables = els.filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1, JSON.stringify(els.map((e) => [e.type, e.text])));
  assert.equal(tables[0]!.text, ROWS.flat().join(' '));
  const prose = els.filter((e) => e.type === 'NarrativeText').map((e) => e.text);
  assert.deepEqual(prose, [LEFT.join(' '), RIGHT.join(' ')]);
});

it('the run of a table\'s rows ends at a line of running text over its columns, its header\'s labels set on one segment', () => {
  // the page read as one column (the table's cells over the gutter); its last labels close-set, one
  // segment across their columns ("Val Mean Low High"), the right column's first line alone under it
  const x = (k: number, t: string) => (k >= 4 ? 320 + 22 * (k - 4) - width(t) : X['the gutter clear'][k]!);
  const words = [
    ...ROWS.flatMap((r, i) => r.flatMap((t, k) => small(t, x(k, t), 70 + 12 * i))),
    ...text(RIGHT[0]!, 320, 142, 552),
    ...LEFT.flatMap((t, i) => text(t, 60, 154.5 + 12.5 * i, 292)),
    ...RIGHT.slice(1).flatMap((t, i) => text(t, 320, 154.5 + 12.5 * i, 552)),
  ];
  const lines = wordsToLines(words);
  assert.ok(lines[0]!.segs.some((s) => s.text === 'Val Mean Low High'), JSON.stringify(lines[0]!.segs.map((s) => s.text)));
  assert.deepEqual(findTables(lines, 10).map((t) => [t.start, t.end]), [[0, ROWS.length - 1]]);
});
