// Superscripts and subscripts set against their word: PDFium ends a line of its text where the
// baseline or the size changes, so "Lovelace¹" came out as "Lovelace 1" and a formula's "a²" as
// "a 2". Glued to the word they touch (pdf/superscripts.ts), as the open-source library's text reads
// ("Zejiang Shen1" in its expected outputs); a smaller word after a space of the content stays apart.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { onePagePdf } from '../../../support/pdf-writer';

after(async () => { await shutdownPagePool(); });

const texts = async (content: string[]) =>
  (await partition({ data: onePagePdf(content.join('\n'), ['<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>']), filename: 'paper.pdf' }, { strategy: 'fast' })).elements.map((e) => e.text);

/** One line of runs, each `[size, rise, text]`, drawn one after another in a single text object. */
const line = (y: number, runs: [number, number, string][]) =>
  `BT 72 ${y} Td ${runs.map(([size, rise, t]) => `/F1 ${size} Tf ${rise} Ts (${t}) Tj`).join(' ')} ET`;

describe('scripts set against their word', () => {
  it('a superscript mark after a name and an exponent join the word they touch', async () => {
    const out = await texts([
      line(700, [[10, 0, 'Ada Lovelace'], [7, 4, '1'], [10, 0, ', Charles Babbage'], [7, 4, '2'], [10, 0, ' and Mary Somerville']]),
      line(660, [[10, 0, 'a'], [7, 4, '2'], [10, 0, ' + b'], [7, 4, '2'], [10, 0, ' = c'], [7, 4, '2']]),
      line(620, [[10, 0, 'Water is H'], [7, -2, '2'], [10, 0, 'O in every textbook of chemistry.']]),
    ]);
    assert.deepEqual(out, ['Ada Lovelace1, Charles Babbage2 and Mary Somerville', 'a2 + b2 = c2', 'Water is H2O in every textbook of chemistry.']);
  });

  it('a smaller word after a space of the content stays a word of its own', async () => {
    const out = await texts([line(700, [[10, 0, 'Results are shown in the table '], [7, 0, 'SMALL PRINT'], [10, 0, ' below it.']])]);
    assert.deepEqual(out, ['Results are shown in the table SMALL PRINT below it.']);
  });
});
