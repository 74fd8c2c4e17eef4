// A table of figures set across the top of a page in two columns, the columns' running text right
// under it: each line of that text is two short segments (a half of each column), which read as rows,
// so the table's run of rows went on into the prose and, its cells then wordy, was no table at all
// (its rows came out as runs of figures). A line of running text after rows of short cells ends the table.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
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

for (const [what, xs] of Object.entries(X)) it(`a table of figures across a page in two columns ends where the columns' running text starts (${what})`, () => {
  const words = [
    ...text('Table 1: Counts of regions per kind and the agreement of two annotators.', 60, 50),
    ...ROWS.flatMap((r, i) => r.flatMap((t, k) => small(t, xs[k]!, 70 + 12 * i))),
    ...[LEFT, RIGHT].flatMap((col, c) => col.flatMap((t, i) => text(t, c ? 320 : 60, 150 + 12.5 * i, c ? 552 : 292))),
  ];
  const els = layoutPage(page(words), { tables: true });
  const tables = els.filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1, JSON.stringify(els.map((e) => [e.type, e.text])));
  assert.equal(tables[0]!.text, ROWS.flat().join(' '));
  const prose = els.filter((e) => e.type === 'NarrativeText').map((e) => e.text);
  assert.deepEqual(prose, [LEFT.join(' '), RIGHT.join(' ')]);
});
