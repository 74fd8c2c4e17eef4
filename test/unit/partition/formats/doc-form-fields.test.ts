// Legacy .doc form check boxes (FORMCHECKBOX fields) show as ☒/☐ where they stand, as DOCX shows them:
// the field keeps its state in an FFData in the Data stream, which its 0x01 character locates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition } from './helpers';
import { checkBoxData, dataAt, word97Doc } from '../../../support/word97';

test('doc: form check boxes read as checked or clear, their state or their default', async () => {
  const boxes = [checkBoxData(1), checkBoxData(25, 0), checkBoxData(25, 1)];
  const offsets = boxes.map((_, k) => boxes.slice(0, k).reduce((n, b) => n + b.length, 0));
  const field = '\x13 FORMCHECKBOX \x01\x15';
  const data = word97Doc([
    { text: `${field} The applicant has read the privacy notice of the agency.`, chars: { range: [15, 16], sprms: [dataAt(offsets[0]!)] } },
    { text: `Renewal: ${field} yes, the permit is renewed for another year.`, chars: { range: [24, 25], sprms: [dataAt(offsets[1]!)] } },
    { text: `Signed: ${field} on behalf of the company by its director.`, chars: { range: [23, 24], sprms: [dataAt(offsets[2]!)] } },
  ], [], [], { data: Buffer.concat(boxes) });
  const els = await partition('doc', data);
  assert.deepEqual(els.map((e) => e.text), [
    'The applicant has read the privacy notice of the agency.',
    'Renewal: ☐ yes, the permit is renewed for another year.',
    'Signed: ☒ on behalf of the company by its director.',
  ]);
  // -- a box opening its line makes the line a list item (the mark taken off), as DOCX types it --
  assert.equal(els[0]!.type, 'ListItem');
});
