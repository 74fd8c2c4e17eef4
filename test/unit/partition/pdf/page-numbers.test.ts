// Page numbers set below the text, above the bottom margin (issue 29): LaTeX and most word processors
// put the folio a few lines under the last line of the body, higher than the page's bottom strip; the
// lowest thing on a page that reads as a page number is a PageNumber, wherever that strip ends. A lone
// number inside the body stays text.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { onePagePdf } from '../../../support/pdf-writer';

after(async () => { await shutdownPagePool(); });

const HELVETICA = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const body = [
  'The committee met four times during the year and reviewed every request it received from the offices.',
  'Most requests concerned the new forms, which the offices now publish online in three languages.',
  'The next report will cover the second year of the programme and the results of the survey.',
];

/** Body lines from the top, then `folio` centred at `folioY` (PDF units from the bottom of a Letter page). */
function pageWith(folio: string, folioY: number, middle?: string): Uint8Array {
  const ops: string[] = [];
  let y = 720;
  for (const t of body) { ops.push(`BT /F1 10 Tf 72 ${y} Td (${t}) Tj ET`); y -= 14; }
  if (middle) { y -= 20; ops.push(`BT /F1 10 Tf 300 ${y} Td (${middle}) Tj ET`); y -= 34; }
  for (const t of body) { ops.push(`BT /F1 10 Tf 72 ${y} Td (${t}) Tj ET`); y -= 14; }
  ops.push(`BT /F1 10 Tf 303 ${folioY} Td (${folio}) Tj ET`);
  return onePagePdf(ops.join('\n'), [HELVETICA]);
}

it('a page number a few lines under the body, above the bottom strip, is a PageNumber', async () => {
  for (const folio of ['7', '- 7 -', 'Page 7']) {
    const { elements } = await partition({ data: pageWith(folio, 92), filename: 'report.pdf' }, { strategy: 'fast' });
    const last = elements.at(-1)!;
    assert.equal(last.text, folio);
    assert.equal(last.type, 'PageNumber', `${folio}: ${elements.map((e) => `${e.type} ${e.text}`).join(' | ')}`);
  }
});

it('a row of numbers at the bottom (a table\'s or a chart\'s labels) is not a row of page numbers', async () => {
  const ops = body.map((t, i) => `BT /F1 10 Tf 72 ${720 - i * 14} Td (${t}) Tj ET`);
  for (let k = 0; k < 5; k++) ops.push(`BT /F1 10 Tf ${100 + k * 90} 92 Td (${k * 25}) Tj ET`);
  const { elements } = await partition({ data: onePagePdf(ops.join('\n'), [HELVETICA]), filename: 'report.pdf' }, { strategy: 'fast' });
  assert.ok(!elements.some((e) => e.type === 'PageNumber'), elements.map((e) => `${e.type} ${e.text}`).join(' | '));
});

it('a lone number between paragraphs of the body stays text', async () => {
  const { elements } = await partition({ data: pageWith('7', 92, '42'), filename: 'report.pdf' }, { strategy: 'fast' });
  const middle = elements.find((e) => e.text === '42');
  assert.ok(middle, elements.map((e) => e.text).join(' | '));
  assert.notEqual(middle.type, 'PageNumber');
  assert.equal(elements.at(-1)!.type, 'PageNumber');
});
