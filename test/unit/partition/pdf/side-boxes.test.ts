// A box drawn around text with a paragraph beside it (issue 29): an infobox floated beside the text of
// a web page printed to PDF, a sidebar or a callout of a report. Lines are grouped by height across the
// page, so each of the box's rows ran into the paragraph's line at its height: the box's labels and
// values read as two columns of that paragraph (a Title of the labels, a paragraph of the values). A
// rectangle standing free (its sides end at its corners, no rule meets it) with text beside it is laid
// out on its own (pdf/boxes.ts); a table's ruled cells are not such boxes.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { onePagePdf } from '../../../support/pdf-writer';

after(async () => { await shutdownPagePool(); });

const FONTS = ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>'];
const text = (x: number, y: number, t: string, font = 'F1') => `BT /${font} 10 Tf ${x} ${y} Td (${t}) Tj ET`;
const PARAGRAPH = [
  'The town lies on the lower reach of the river, where the old',
  'bridge crossed it before the railway came. Its market grew',
  'with the trade of the valley, and the guild houses along',
  'the square still stand. The council meets in the hall that',
  'the merchants built after the great fire, and the library',
  'keeps the records of every year since the charter.',
];
const BOX = [['Country', 'Examplia'], ['Region', 'Lower Valley'], ['Founded', '1204'], ['Population', '48,210'], ['Area', '36.4 km2']];
const elements = async (content: string[]) =>
  (await partition({ data: onePagePdf(content.join('\n'), FONTS), filename: 'town.pdf' }, { strategy: 'hi_res' })).elements.map((e) => [e.type, e.text] as const);
const paragraph = PARAGRAPH.map((t, i) => text(72, 700 - 14 * i, t));
const rows = BOX.flatMap(([k, v], i) => [text(370, 700 - 14 * i, k!, 'F2'), text(450, 700 - 14 * i, v!)]);

describe('a box drawn beside a paragraph', () => {
  it('is laid out on its own: its rows a table, the paragraph whole', async () => {
    const out = await elements([...paragraph, ...rows, '0.5 w 360 632 180 82 re S']);
    assert.ok(out.some(([t, x]) => t === 'NarrativeText' && x === PARAGRAPH.join(' ')), JSON.stringify(out));
    assert.ok(out.some(([t, x]) => t === 'Table' && x === BOX.flat().join(' ')), JSON.stringify(out));
  });

  it('a rectangle whose sides run on (a table\'s cell) is no box of its own', async () => {
    // the same rows in a grid: the box's top and bottom rules continue to the left, under the paragraph
    const out = await elements([...paragraph, ...rows, '0.5 w 360 632 180 82 re S', '0.5 w 60 714 m 360 714 l S', '0.5 w 60 632 m 360 632 l S']);
    assert.ok(!out.some(([t, x]) => t === 'Table' && x === BOX.flat().join(' ')), JSON.stringify(out));
  });
});
