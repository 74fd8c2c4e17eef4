// Notes under a booktabs table ("a Six-layer student. b Four-layer student with data augmentation."),
// set in a smaller type right under its bottom rule in a narrow page column. Justified to the
// column's width, the note's words stand apart like cells, so alignment read its first line as a last
// row of the table (and its last line, alone, as a heading). Lines in a smaller type than the rows,
// under a rule spanning the rows with another higher up, are the table's notes: text after it.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { HRule, RawPage } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const text = typeset({ size: 10, char: 4.6, space: 2.5 });
const cell = typeset({ size: 8.5, char: 4, space: 2 });
const note = typeset({ size: 7.5, char: 3.4, space: 1.8 });
const ROWS = [['Model', 'Params', 'Latency', 'GLUE'], ['Teacher', '335.0', '412.6', '84.3'], ['DistilBERT', '66.4', '78.1', '77.0'],
  ['TinyBERT', '14.5', '19.7', '79.4'], ['MobileBERT', '25.3', '31.0', '81.0'], ['Ours', '12.1', '16.2', '80.2']];
const X = [60, 140, 185, 235];
const NOTE = ['a Six-layer student. b Four-layer student with', 'data augmentation.'];

function page(): RawPage {
  const words = [
    ...text('Table 3: Size, latency and accuracy of the', 54, 100), ...text('compressed models.', 54, 112),
    ...ROWS.flatMap((r, i) => r.flatMap((t, k) => cell(t, X[k]!, 130 + (i ? 4 : 0) + 12 * i))),
    // the note's first line justified to the column's edge: its spaces over a segment gap
    ...note(NOTE[0]!, 54, 208, 286), ...note(NOTE[1]!, 54, 217),
    ...text('Our small model is the fastest of the compressed models.', 54, 240),
  ];
  const h: HRule[] = [{ y: 127, x0: 56, x1: 266 }, { y: 140, x0: 56, x1: 266 }, { y: 204, x0: 56, x1: 266 }];
  return { page: 1, width: 595, height: 842, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h, v: [], tol: 1 } } as RawPage;
}

it("a table's notes in a smaller type under its bottom rule are text after the table, not a row of it", () => {
  const els = layoutPage(page(), { tables: true });
  const dump = JSON.stringify(els.map((e) => [e.type, e.text]));
  const tables = els.filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1, dump);
  assert.equal(tables[0]!.text, ROWS.flat().join(' '), dump);
  assert.ok(els.some((e) => e.type !== 'Table' && e.text === NOTE.join(' ')), dump);
});
