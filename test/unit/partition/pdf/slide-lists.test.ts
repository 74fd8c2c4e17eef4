// Slides as a LaTeX beamer deck draws them (issue 29). Its list bullets are small lit balls, a shading
// painted inside a form XObject (no path, no glyph), and a numbered list puts each number inside such
// a ball: the items read as one paragraph ("412 gauges in service ... Two new sites on the coast").
// And a slide's two columns hold a paragraph beside a table whose rows stand at the heights of the
// paragraph's lines: the table took the paragraph's lines as its first column, though its rule ends
// well short of them. The deck's page is written here by hand.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { writePdf } from '../../../support/pdf-writer';
import { typeset } from '../../../support/page-words';

after(async () => { await shutdownPagePool(); });

const BULLETED = ['412 gauges in service, 9 under repair', 'Two new sites on the coast', 'Data loss below half a percent'];
const NUMBERED = ['Network status', 'Calibration results', 'Budget for next year'];

/** A page of two lists, each item opened by a shaded ball (the numbered ones with the number in it). */
function slidePdf(): Uint8Array {
  const ops: string[] = ['BT /F1 18 Tf 72 720 Td (Network review) Tj ET'];
  let y = 680;
  for (const t of BULLETED) {
    ops.push(`q 1 0 0 1 74 ${y} cm /Ball Do Q`, `BT /F1 11 Tf 86 ${y} Td (${t}) Tj ET`);
    y -= 16;
  }
  y -= 20;
  NUMBERED.forEach((t, i) => {
    ops.push(`q 1.4 0 0 1.4 72 ${y - 2} cm /Ball Do Q`, `BT /F1 7 Tf 74.6 ${y} Td (${i + 1}) Tj ET`, `BT /F1 11 Tf 86 ${y} Td (${t}) Tj ET`);
    y -= 16;
  });
  const content = ops.join('\n');
  const ball = '0 0 6 6 re W n /Sh1 sh';
  return writePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /XObject << /Ball 6 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Type /XObject /Subtype /Form /BBox [0 0 6 6] /Resources << /Shading << /Sh1 7 0 R >> >> /Length ${ball.length} >>\nstream\n${ball}\nendstream`,
    '<< /ShadingType 3 /ColorSpace /DeviceRGB /Coords [2 4 0 3 3 3] /Function << /FunctionType 2 /Domain [0 1] /C0 [1 1 1] /C1 [0.2 0.2 0.7] /N 1 >> >>',
  ]);
}

describe('slide lists with shaded balls for bullets', () => {
  it('each item, bulleted or numbered in its ball, is a list item of its own', async () => {
    const r = await partition({ data: slidePdf(), filename: 'slide.pdf' }, { strategy: 'hi_res' });
    const items = r.elements.filter((e) => e.type === 'ListItem').map((e) => e.text);
    assert.deepEqual(items, [...BULLETED, ...NUMBERED.map((t, i) => `${i + 1} ${t}`)], JSON.stringify(r.elements.map((e) => [e.type, e.text])));
  });
});

describe('a paragraph beside a table on a slide', () => {
  it("stays text: the table's rule ends short of it", () => {
    const words = typeset({ size: 11, char: 5, space: 3.3 });
    const lines = wordsToLines([
      ...words('Region', 191, 101), ...words('Error (mm)', 237, 101),
      ...words('Pooled estimates cut the error of', 7, 115), ...words('Fjords', 191, 115), ...words('20.6', 270, 115),
      ...words('seasonal totals in every region.', 7, 129), ...words('Plateau', 191, 129), ...words('18.2', 270, 129),
      ...words('Delta', 191, 142), ...words('24.9', 270, 142),
    ]);
    const page = { page: 4, width: 363, height: 272, lines, links: [], images: [], chars: 0, unmapped: 0, rules: { h: [{ y: 113.5, x0: 186, x1: 294 }], v: [] } };
    const els = layoutPage(page, { tables: true });
    const table = els.find((e) => e.type === 'Table');
    assert.equal(table?.text, 'Region Error (mm) Fjords 20.6 Plateau 18.2 Delta 24.9', JSON.stringify(els.map((e) => [e.type, e.text])));
    assert.ok(els.some((e) => e.text === 'Pooled estimates cut the error of seasonal totals in every region.'));
  });
});
