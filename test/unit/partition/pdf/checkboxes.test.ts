// Questionnaires and forms (issue 29): a symbol font's box glyph without a Unicode name opens each
// answer. It is read as a list marker: every answer its own ListItem, an answer that wraps onto a
// second line one item (the box's larger font does not split it), and no control code in the text.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { partitionDocument } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { checkboxPdf, DOT_GLYPH, markedRowsPdf } from '../../../support/checkbox-pdf';

after(() => shutdownPagePool());

test('pdf: answers opened by an unnamed symbol glyph (a checkbox) are list items, one each', async () => {
  const data = checkboxPdf([
    ['1. Does your office keep records of the cases it takes?', 'Yes, on paper', ['Yes, electronically, in a system shared by every office of the', 'region and its partners'], 'No'],
    ['2. Who may read them?', 'Staff only', 'Anyone who asks'],
  ]);
  const { elements } = await partitionDocument({ data, filename: 'form.pdf' }, { strategy: 'fast' });
  const items = elements.filter((e) => e.type === 'ListItem').map((e) => e.text);
  for (const answer of ['Yes, on paper', 'No', 'Staff only', 'Anyone who asks']) assert.ok(items.some((t) => t.endsWith(answer)), `${answer}: ${JSON.stringify(items)}`);
  assert.ok(items.some((t) => /Yes, electronically, in a system shared by every office of the region and its partners$/.test(t)), `the wrapped answer is one item: ${JSON.stringify(items)}`);
  for (const e of elements) assert.doesNotMatch(e.text, /[\u0080-\u009f]/, 'no C1 control code in the text');
});

test('pdf: an unnamed symbol glyph that is a small dot is a bullet, not a box to tick', async () => {
  // pdfTeX's itemize draws its bullet from the math symbol font without a Unicode name: the items
  // read as "\u25a1 Upland stations ...", a box to tick kept in the text
  const data = checkboxPdf([['The results of the survey:', 'Upland stations recede faster', 'Seasons differ more than stations']], DOT_GLYPH);
  const { elements } = await partitionDocument({ data, filename: 'list.pdf' }, { strategy: 'fast' });
  const items = elements.filter((e) => e.type === 'ListItem').map((e) => e.text);
  assert.deepEqual(items, ['Upland stations recede faster', 'Seasons differ more than stations']);
});

test('pdf: marks drawn in a picture font against a label are words of their own, the label whole', async () => {
  const data = markedRowsPdf([
    { marks: 'yy', label: 'Persons with disabilities' },
    { marks: 'n', label: 'Children and young people' },
  ]);
  const { elements } = await partitionDocument({ data, filename: 'rows.pdf' }, { strategy: 'fast' });
  const text = elements.map((e) => e.text).join('\n');
  assert.match(text, /(^|\s)y y Persons with disabilities/, text);
  assert.match(text, /(^|\s)n Children and young people/, text);
});
