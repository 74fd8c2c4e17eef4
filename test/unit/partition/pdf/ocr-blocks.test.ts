// Blocks and list depths on an OCR'd page, where sizes are read from the glyphs' boxes (about two thirds
// of the font's size, and noisy) and units are pixels of a 200 dpi rendering: a heading set half again
// as large as the paragraph under it is a heading of its own, and a nested list's half-inch indent
// (six of those sizes) nests its items.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const body = typeset({ size: 23, char: 13, space: 8 });
const heading = typeset({ size: 35, char: 20, space: 12 });
const page = (lines: Word[]): RawPage => ({ page: 1, width: 1654, height: 2339, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 });

it('a short line half again as large as the long line under it is a heading of its own', () => {
  const els = layoutPage(page([
    heading('Survey results', 160, 116),
    body('Counts by pond and season, with the merged headers grouping the seasons.', 160, 173),
    body('Each count is made from the bank at the same hour of the morning.', 160, 212),
  ].flat()), { tables: true, ocr: true });
  assert.deepEqual(els.map((e) => [e.type, e.text.split(' ').slice(0, 2).join(' ')]), [['Title', 'Survey results'], ['NarrativeText', 'Counts by']], JSON.stringify(els.map((e) => e.text)));
});

it('items set in by half an inch under a numbered item are nested under it', () => {
  const els = layoutPage(page([
    body('Ducks feed on the surface or dive for their food in the ponds.', 200, 524),
    body('1. Mallard', 237, 588),
    [...body('-', 335, 632), ...body('The male has a green head.', 400, 632)],
    [...body('-', 335, 676), ...body('The female is brown.', 400, 676)],
    body('2. Teal', 235, 720),
  ].flat()), { tables: true, ocr: true });
  assert.deepEqual(els.filter((e) => e.type === 'ListItem').map((e) => e.metadata.category_depth), [0, 1, 1, 0], JSON.stringify(els.map((e) => [e.type, e.text])));
});
