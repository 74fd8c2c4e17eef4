// A line in the body's type that leads into a list after its colon ("The feeder accepts the following
// media:"), as word processors' manuals and reports set one before a list: it is text, as a layout
// model labels it, not a heading (it is no bolder nor larger than the paragraphs around it).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const words = typeset({ size: 11 });
const page = (ws: Word[]) => layoutPage({ page: 1, width: 612, height: 792, lines: wordsToLines(ws), links: [], images: [], chars: 0, unmapped: 0 }, { tables: true, tableHtml: true });
const item = (t: string, y: number) => [...words('•', 90, y), ...words(t, 108, y)];

it('a lead-in line closed by a colon is text, its list items list items', () => {
  const els = page([
    ...words('Clean the rollers every five thousand sheets or when paper jams become frequent in the feeder.', 72, 100),
    ...words('Observe the following general rules at all times:', 72, 130),
    ...item('Wear insulated gloves near the terminal block.', 150), ...item('Keep the enclosure closed during operation.', 166),
  ]);
  const types = els.map((e) => [e.type, e.text]);
  assert.deepEqual(types[1], ['NarrativeText', 'Observe the following general rules at all times:'], JSON.stringify(types));
  assert.deepEqual(els.map((e) => e.type), ['NarrativeText', 'NarrativeText', 'ListItem', 'ListItem'], JSON.stringify(types));
});
