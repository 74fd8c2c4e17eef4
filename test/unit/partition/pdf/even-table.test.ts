// A table of figures set evenly (issue 29): every cell one word, the columns equally wide, so each row
// is words apart by the same gap, as a line whose spaces a justifier stretched. Such a line is joined
// back into one segment (justified.ts) only when the lines around it do not line up with its words: a
// table's rows do, prose does not.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { tablePdf } from '../../../support/table-pdf';

after(async () => { await shutdownPagePool(); });

const ROWS = [
  ['0.71', '0.64', '0.67', '0.52'],
  ['0.88', '0.83', '0.85', '0.61'],
  ['0.93', '0.91', '0.92', '0.74'],
  ['0.42', '0.39', '0.40', '0.33'],
  ['0.66', '0.58', '0.62', '0.47'],
];

for (const [name, above] of [
  ['under a paragraph', { x: 100, y: 640, t: 'The scores of each run on the four measures are listed below.' }],
  // a line as wide as the table right above its first row: it must not join that row's cells
  ['right under a line as wide as the table', { x: 102, y: 612, t: 'Each run scored on four tests:' }],
] as const) it(`rows of evenly spaced one-word cells stay a table, not stretched lines (${name})`, async () => {
  const data = tablePdf([{
    tables: [{ rows: ROWS, x: 100, top: 600, rowHeight: 14, rules: false, colWidths: [34, 34, 34, 34] }],
    options: { size: 9, text: [above] },
  }]);
  const r = await partition({ data, filename: 'even.pdf' }, { strategy: 'fast' });
  const dump = r.elements.map((e) => `${e.type}: ${e.text}`).join('\n');
  const tables = r.elements.filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1, dump);
  assert.equal(tables[0]!.text, ROWS.flat().join(' '), dump);
});
