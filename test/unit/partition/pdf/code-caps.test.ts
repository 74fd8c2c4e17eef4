// A code listing in capitals (instrument commands, SQL keywords, a configuration's keys) reads like
// a heading to the text classifier, a short line of capitals: a block of two or more lines in a
// monospaced face, set in the body's size and weight, is the listing's text, not a Title.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { codeListingPdf } from '../../../support/code-listing-pdf';

after(async () => { await shutdownPagePool(); });

it('a listing of commands in capitals is no heading', async () => {
  const r = await partition({ data: codeListingPdf(['CAL COND 1413', 'SAVE'], ['Send the two commands above to store the calibration in the instrument.']), filename: 'manual.pdf' }, { strategy: 'fast' });
  const listing = r.elements.find((e) => e.text.startsWith('CAL COND'));
  assert.ok(listing, JSON.stringify(r.elements.map((e) => [e.type, e.text])));
  assert.equal(listing.text, 'CAL COND 1413 SAVE');
  assert.notEqual(listing.type, 'Title');
});
