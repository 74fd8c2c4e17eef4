// Figures drawn as vector art (issue 29): a chart's bars, axes and labels are one Image element whose
// text is the labels, not a run of one-word titles; a caption and the body stay text. Not figures: a
// table with shaded rows, a coloured box behind a paragraph, paragraphs set among drawings.
// In `fast` (no pictures in the output) the labels stay text.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { onePagePdf } from '../../../support/pdf-writer';

after(async () => { await shutdownPagePool(); });

const FONTS = ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>'];
const text = (x: number, y: number, t: string, size = 10, font = 'F1') => `BT /${font} ${size} Tf ${x} ${y} Td (${t}) Tj ET`;
const PARAGRAPH = [
  'The museum counted its visitors at the door in every year of the survey, on foot and by bus.',
  'Numbers rose each year after the new wing opened, and the gardens drew more people than before.',
];

/**
 * A bar chart (PDF units, origin bottom left): axes at (100, 400), four bars (filled, or filled and
 * outlined), tick and category labels.
 */
function barChart(outlined = false): string[] {
  const ops = ['0 0 0 RG 1 w 100 400 m 400 400 l S 100 400 m 100 600 l S'];
  const heights = [60, 110, 150, 180];
  heights.forEach((h, i) => ops.push(`0.2 0.4 0.7 rg ${130 + i * 70} 400 40 ${h} re ${outlined ? 'B' : 'f'}`));
  ['2019', '2020', '2021', '2022'].forEach((t, i) => ops.push(text(138 + i * 70, 386, t, 8)));
  [0, 50, 100, 150].forEach((v, i) => ops.push(text(80, 397 + i * 50, String(v), 8)));
  ops.push('0 0 0 rg');
  return ops;
}

function page(middle: string[]): Uint8Array {
  const ops = [text(72, 720, PARAGRAPH[0]!), text(72, 706, PARAGRAPH[1]!), ...middle];
  ops.push(text(72, 300, PARAGRAPH[0]!), text(72, 286, PARAGRAPH[1]!));
  return onePagePdf(ops.join('\n'), FONTS);
}

const summary = (els: { type: string; text: string }[]) => els.map((e) => `${e.type}: ${e.text}`).join('\n');

it('a bar chart drawn in vectors is one Image whose text is its labels; its caption and the body stay text', async () => {
  const data = page([...barChart(), text(150, 360, 'Figure 1: Visitors per year.')]);
  const { elements } = await partition({ data, filename: 'report.pdf' }, { strategy: 'hi_res' });
  const images = elements.filter((e) => e.type === 'Image');
  assert.equal(images.length, 1, summary(elements));
  for (const label of ['2019', '2022', '150']) assert.ok(images[0]!.text.split(' ').includes(label), images[0]!.text);
  assert.ok(!elements.some((e) => e.type !== 'Image' && /^(2019|2020|0|50|100|150)$/.test(e.text)), summary(elements));
  assert.equal(elements.find((e) => e.text.startsWith('Figure 1'))?.type, 'FigureCaption');
  assert.equal(elements.filter((e) => e.type === 'NarrativeText').length, 2, summary(elements));
  // the figure sits between the paragraphs above and below it
  const at = (t: string) => elements.findIndex((e) => e.text.startsWith(t));
  assert.ok(at(PARAGRAPH[1]!) < elements.indexOf(images[0]!) && elements.indexOf(images[0]!) < at('Figure 1'));
});

it('a line plot (two stroked polylines on their axes, a legend inside the plot, an axis title below) is one Image', async () => {
  const ops = ['0 0 0 RG 1 w 100 400 m 400 400 l S 100 400 m 100 600 l S', '0.2 0.4 0.8 RG 2 w 100 420 m 160 470 l 220 520 l 280 540 l 340 560 l 400 570 l S',
    '0.8 0.4 0.2 RG 2 w 100 410 m 160 430 l 220 460 l 280 470 l 340 500 l 400 510 l S', '0 0 0 RG 1 w'];
  [0, 25, 50, 75].forEach((v, i) => ops.push(text(80, 397 + i * 60, String(v), 8)));
  ['1k', '10k', '59k'].forEach((t, i) => ops.push(text(95 + i * 150, 388, t, 8)));
  ops.push(text(220, 374, 'training pages', 8), text(320, 440, 'detector', 8), text(320, 428, 'text layer', 8));
  const { elements } = await partition({ data: page([...ops, text(150, 340, 'Figure 2: Accuracy against training pages.')]), filename: 'paper.pdf' }, { strategy: 'hi_res' });
  const images = elements.filter((e) => e.type === 'Image');
  assert.equal(images.length, 1, summary(elements));
  for (const label of ['75', 'detector', 'layer', '59k', 'training']) assert.ok(images[0]!.text.split(' ').includes(label), images[0]!.text);
  assert.equal(elements.find((e) => e.text.startsWith('Figure 2'))?.type, 'FigureCaption');
});

it('bars drawn filled and outlined make a figure too', async () => {
  const { elements } = await partition({ data: page(barChart(true)), filename: 'report.pdf' }, { strategy: 'hi_res' });
  assert.deepEqual(elements.filter((e) => e.type === 'Image').map((e) => e.text), ['150 100 50 0 2019 2020 2021 2022']);
});

for (const [fill, what] of [['1 1 1', 'white'], ['0.9 0.9 0.9', 'grey']]) it(`a form's ${what} boxes to fill in, with their labels, stay text`, async () => {
  const ops = [`0 0 0 RG 0.5 w ${fill} rg`];
  // boxes set close, each with its label just before it
  ['Name', 'Street', 'Town', 'Born on'].forEach((label, i) => {
    ops.push(`200 ${600 - i * 22} 200 18 re B`, text(150, 605 - i * 22, label));
  });
  ops.push('0 0 0 rg');
  const { elements } = await partition({ data: page(ops), filename: 'form.pdf' }, { strategy: 'hi_res' });
  assert.ok(!elements.some((e) => e.type === 'Image'), summary(elements));
  assert.ok(elements.some((e) => e.text.includes('Born on')), summary(elements));
});

/** A raster picture (an inline grey bitmap) scaled to 300 x 200 at (100, 400). */
const PICTURE = 'q 300 0 0 200 100 400 cm BI /W 2 /H 2 /CS /G /BPC 8 /F /AHx ID 80408040> EI Q';

it('a raster plot with its labels set in text on it is one Image with those labels; text beside it stays text', async () => {
  const ops = [PICTURE];
  [0, 50, 100].forEach((v, i) => ops.push(text(110, 405 + i * 85, String(v), 8)));
  ['Mon', 'Wed', 'Fri'].forEach((t, i) => ops.push(text(140 + i * 110, 410, t, 8)));
  ops.push(text(300, 560, 'peak', 8), text(100, 612, 'Weekly load', 8));
  const { elements } = await partition({ data: page([...ops, text(150, 380, 'Figure 4: Load over the week.')]), filename: 'report.pdf' }, { strategy: 'hi_res' });
  const images = elements.filter((e) => e.type === 'Image');
  assert.equal(images.length, 1, summary(elements));
  assert.deepEqual(images[0]!.text.split(' ').sort(), ['0', '100', '50', 'Fri', 'Mon', 'Wed', 'peak'], summary(elements));
  assert.equal(elements.find((e) => e.text.startsWith('Figure 4'))?.type, 'FigureCaption');
  assert.ok(elements.some((e) => e.type !== 'Image' && e.text === 'Weekly load'), summary(elements));
});

it('a raster picture without labels is still an Image without text', async () => {
  const { elements } = await partition({ data: page([PICTURE]), filename: 'report.pdf' }, { strategy: 'hi_res' });
  assert.deepEqual(elements.filter((e) => e.type === 'Image').map((e) => e.text), ['']);
});

it('in fast the chart labels stay text (no pictures in that output)', async () => {
  const { elements } = await partition({ data: page(barChart()), filename: 'report.pdf' }, { strategy: 'fast' });
  assert.ok(!elements.some((e) => e.type === 'Image'));
  assert.ok(elements.some((e) => e.text.includes('2019')), summary(elements));
});

it('a table with shaded rows (header and every other row) stays a table', async () => {
  const ops = ['0.85 0.85 0.85 rg 72 580 360 20 re f 72 540 360 20 re f 0.95 0.95 0.95 rg 72 520 360 20 re f 0 0 0 rg 0 0 0 RG 0.5 w'];
  for (const y of [600, 580, 560, 540, 520]) ops.push(`72 ${y} m 432 ${y} l S`);
  for (const x of [72, 192, 312, 432]) ops.push(`${x} 520 m ${x} 600 l S`);
  ops.push(text(78, 586, 'Region', 10, 'F2'), text(198, 586, 'Visitors', 10, 'F2'), text(318, 586, 'Change', 10, 'F2'));
  [['North', '1200', '+4%'], ['South', '950', '-2%'], ['East', '780', '+1%']].forEach((row, r) => row.forEach((c, k) => ops.push(text(78 + k * 120, 566 - r * 20, c))));
  const { elements } = await partition({ data: page(ops), filename: 'report.pdf' }, { strategy: 'hi_res' });
  assert.ok(!elements.some((e) => e.type === 'Image'), summary(elements));
  assert.match(elements.find((e) => e.type === 'Table')?.text ?? '', /^Region Visitors Change North 1200/);
});

it('paragraphs set among drawings, and a coloured box behind a paragraph, stay paragraphs', async () => {
  const ops = ['1 0.8 0.1 rg 60 380 480 260 re f 0 0 0 rg'];
  // drawings around the text (a wavy line above, slanted strokes down both sides, a curve below) with
  // short paragraphs of running text among them
  ops.push('0 0 0 RG 2 w 80 640 m 200 660 380 620 500 640 c S 80 640 m 90 440 l S 500 640 m 490 440 l S 90 440 m 200 420 380 460 490 440 c S');
  const lines = ['Keep the wound clean and dry for the first', 'days after the surgery, and change the', 'dressing when the nurse tells you to.'];
  for (const [k, y] of [610, 530, 450].entries()) lines.forEach((l, i) => ops.push(text(180, y - i * 12, `${l}${i === 2 ? ` (${k + 1})` : ''}`)));
  const { elements } = await partition({ data: page(ops), filename: 'leaflet.pdf' }, { strategy: 'hi_res' });
  assert.ok(!elements.some((e) => e.type === 'Image' && e.text), summary(elements));
  assert.equal(elements.filter((e) => e.text.startsWith('Keep the wound clean')).length, 3, summary(elements));
});
