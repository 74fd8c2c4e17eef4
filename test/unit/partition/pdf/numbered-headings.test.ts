// Numbered section headings in PDFs (issue 29): "1. Overview" set larger than the body is a section
// title with its depth, not a list item; a numbered list in the body's size stays a list.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { reportPdf } from '../../../support/report-pdf';

after(async () => { await shutdownPagePool(); });

it('numbered headings set larger are titles under the document title; numbered body lines are list items', async () => {
  const data = reportPdf([
    ['Annual Report of the Offices', 22, true],
    ['1. Overview', 15, true],
    ['The offices handled more requests than in the first year of their work.', 10, false],
    ['2. Priorities', 15, true],
    ['1. Open a third office in the north.', 10, false],
    ['2. Move all the forms online.', 10, false],
  ]);
  const { elements } = await partition({ data, filename: 'report.pdf' }, { strategy: 'fast' });
  const type = (t: string) => elements.find((e) => e.text === t)?.type;
  assert.equal(type('1. Overview'), 'Title');
  assert.equal(type('2. Priorities'), 'Title');
  assert.equal(type('1. Open a third office in the north.'), 'ListItem');
  assert.equal(type('2. Move all the forms online.'), 'ListItem');
  const top = elements.find((e) => e.text === 'Annual Report of the Offices')!;
  const overview = elements.find((e) => e.text === '1. Overview')!;
  assert.equal(overview.metadata.parent_id, top.element_id, 'a section under the document title');
});
