// A display formula whose pieces line up like cells (a fraction's numerator and denominator, a sum's
// limits, exponents set apart from their base) was read as an unruled table. On most of its lines
// words of several sizes sit above or below each other (scripts) and it holds a relation or an
// operator: one Formula element (the library's type for it), in its place in the text. A table with
// a footnote mark on one row stays a table.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { joinFormulaPieces } from '../../../../lambdas/engine/partition/pdf/formulas';
import type { Segment } from '../../../../lambdas/engine/partition/pdf/page-text';
import { onePagePdf } from '../../../support/pdf-writer';

after(async () => { await shutdownPagePool(); });

/** Text at `x` with its baseline `y` points below the page's top. */
const at = (x: number, y: number, size: number, text: string) => `BT /F1 ${size} Tf ${x} ${792 - y} Td (${text}) Tj ET`;
const times = ['<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>'];
const paragraph = (y: number, lines: string[]) => lines.map((l, i) => at(72, y + i * 13.6, 10.9, l));

const run = async (content: string[]) =>
  (await partition({ data: onePagePdf(content.join('\n'), times), filename: 'paper.pdf' }, { strategy: 'hi_res' })).elements.map((e) => [e.type, e.text]);

describe('a display formula set in pieces', () => {
  it('is one Formula between its paragraphs, not a table', async () => {
    const out = await run([
      ...paragraph(150, ['The similarity between a question and a passage is', 'measured by the loss below, over the positive and', 'the negative passages of each training instance:']),
      at(120, 205, 10.9, 'L\\(q, p1, p2, ..., pn\\)'), at(262, 205, 10.9, '\\(2\\)'),
      at(150, 222, 10.9, 'e'), at(170, 219, 8, 'sim\\(q,p+\\)'), at(215, 224, 6, 'i'),
      at(82, 232, 10.9, '=  - log'), at(133, 240, 8, 'sim\\(q,p+\\)'), at(186, 236, 10.9, 'Sn'), at(219, 240, 8, 'sim\\(q,p-\\) .'),
      at(128, 250, 10.9, 'e'), at(163, 250, 6, 'i +'), at(197, 250, 10.9, 'j=1 e'), at(249, 252, 6, 'i,j'),
      ...paragraph(275, ['Positive and negative passages are taken from the', 'retrieval results of the question in the training data.']),
    ]);
    assert.deepEqual(out.map(([t]) => t), ['NarrativeText', 'Formula', 'NarrativeText'], JSON.stringify(out));
    assert.match(out[1]![1]!, /^L\(q, p1, p2, \.\.\., pn\) \(2\) .*= - log.*i,j$/);
  });

  it('a table with a footnote mark on one of its rows stays a table', async () => {
    const row = (y: number, cells: string[]) => cells.map((c, k) => at(100 + 90 * k, y, 10, c));
    const out = await run([
      ...paragraph(150, ['Results of the three methods on the development set', 'are given in the table below, with their cost.']),
      ...row(200, ['Method', 'Accuracy', 'Cost']),
      ...row(214, ['Baseline', '61.2', '1.0']),
      ...row(228, ['Ours', '74.5', '1.4']), at(300, 225, 6, 'a'),
      ...row(242, ['Oracle', '80.0', '3.2']),
      ...row(256, ['Random', '33.3', '0.1']),
    ]);
    assert.ok(out.some(([t, x]) => t === 'Table' && x!.startsWith('Method Accuracy Cost Baseline 61.2 1.0')), JSON.stringify(out));
    assert.ok(!out.some(([t]) => t === 'Formula'));
  });
});

describe('a display formula set in pieces that do not line up as cells', () => {
  it('is one Formula; a page number below stays a page number', async () => {
    // T_mix = 2 / (1/T_r + 1/T_w): the "2" above the bar, the denominator's fractions below it
    const out = await run([
      ...paragraph(150, ['The mixed figure is close to the harmonic mean of the', 'read and the write figures, as the model predicts:']),
      at(200, 186, 10, '2'),
      at(150, 195, 10, 'T'), at(156, 197, 7, 'mix'), at(170, 195, 10, '='),
      at(190, 204, 10, '1'), at(222, 204, 10, '1'), at(206, 209, 10, '+'),
      at(188, 215, 10, 'T'), at(194, 217, 7, 'r'), at(220, 215, 10, 'T'), at(226, 217, 7, 'w'),
      ...paragraph(245, ['Gamma has the highest read figure but the lowest write', 'figure, so its mixed figure is the lowest of the three.']),
      at(300, 760, 10, '7'),
    ]);
    assert.deepEqual(out.map(([t]) => t), ['NarrativeText', 'Formula', 'NarrativeText', 'PageNumber'], JSON.stringify(out));
    assert.match(out[1]![1]!, /^2 Tmix = 1 \+ 1 Tr Tw$/);
  });

  it('a block set in mathematical italic letters is a Formula by itself', () => {
    const seg = (text: string): Segment => ({ text, words: [], size: 10, x0: 100, x1: 200, y0: 200, y1: 210 });
    const block = (text: string): { lines: Segment[]; formula?: boolean; x0: number; x1: number; y0: number; y1: number } => ({ lines: [seg(text)], x0: 100, x1: 200, y0: 200, y1: 210 });
    const text = (b: { lines: Segment[] }) => b.lines.map((l) => l.text).join(' ');
    const [math, prose] = joinFormulaPieces([block('\u{1D460}(\u{1D45E}, \u{1D45D}) = \u{1D706}BM25(\u{1D45E}, \u{1D45D})'), block('where the weight is set per question')], text, 10);
    assert.equal(math!.formula, true);
    assert.equal(prose!.formula, undefined);
  });

  it('a display equation on a line of its own, plain letters on one baseline, is a Formula with its number; a sentence or a list item with one is not', async () => {
    const out = await run([
      ...paragraph(150, ['The total of the two readings is given by the sum below,', 'which holds for every station of the network:']),
      at(160, 190, 10.9, 'a2 + 8 = 12'), at(310, 190, 10.9, '\\(1\\)'),
      ...paragraph(215, ['Here the value of a is two, as the table of readings', 'shows for each of the seasons of the campaign.']),
      at(72, 260, 10.9, 'Total = 100 readings per season of sampling work.'),
      at(72, 285, 10.9, 'A = adjustments'),
      at(72, 310, 10.9, '- x = y + 1'),
      at(300, 760, 10, '7'),
    ]);
    assert.deepEqual(out.map(([t]) => t), ['NarrativeText', 'Formula', 'NarrativeText', 'NarrativeText', 'Title', 'ListItem', 'PageNumber'], JSON.stringify(out));
    assert.equal(out[1]![1], 'a2 + 8 = 12 (1)', 'its number at the right margin joins it');
  });

  it('TeX\'s math extension font reads its big operators and delimiters, not the letters of their slots', async () => {
    const fonts = [...times, '<< /Type /Font /Subtype /Type1 /BaseFont /CMEX10 >>'];
    const ex = (x: number, y: number, text: string) => `BT /F2 10.9 Tf ${x} ${792 - y} Td (${text}) Tj ET`;
    const content = [
      ...paragraph(150, ['The total error of the fit is the sum of the squared', 'differences between each reading and its estimate:']),
      at(150, 190, 10.9, 'E ='), ex(172, 190, 'X'), at(185, 190, 10.9, 'y - z'),
      ...paragraph(215, ['summed over all the stations of the network in the', 'two seasons of the campaign.']),
    ];
    const els = (await partition({ data: onePagePdf(content.join('\n'), fonts), filename: 'paper.pdf' }, { strategy: 'hi_res' })).elements;
    const formula = els.find((e) => e.type === 'Formula');
    assert.equal(formula?.text, 'E = ∑ y - z', JSON.stringify(els.map((e) => [e.type, e.text])));
  });
});
