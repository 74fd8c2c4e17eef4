// DOCX run content: symbols inserted from a symbol font (w:sym) as the character the glyph shows, in
// its place; ruby (a reading set above East Asian text) as its base text alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition } from './helpers';
import { docxFile, wPara } from '../../../support/word-docs';
import { symbolChar } from '../../../../lambdas/engine/partition/formats/symbol-fonts';

const sym = (font: string, char: string): string => `<w:r><w:sym w:font="${font}" w:char="${char}"/></w:r>`;
const run = (t: string): string => `<w:r><w:t xml:space="preserve">${t}</w:t></w:r>`;

test('docx w:sym: Symbol and Wingdings characters read as the Unicode they show, at their place', async () => {
  const body =
    wPara('', { after: run('The angle ') + sym('Symbol', 'F061') + run(' is 30') + sym('Symbol', 'F0B0') + run(' with a tolerance of ') + sym('Symbol', 'F0B1') + run('2 mm.') }) +
    wPara('', { after: sym('Wingdings', 'F0FC') + run(' Approved ') + sym('Wingdings', 'F0A8') + run(' Rejected') }) +
    wPara('', { after: sym('MS Gothic', '2610') + run(' Not started') });
  const els = await partition('docx', docxFile(body));
  assert.deepEqual(els.map((e) => `${e.type}: ${e.text}`), [
    'NarrativeText: The angle α is 30° with a tolerance of ±2 mm.',
    'NarrativeText: ✓ Approved □ Rejected',
    // a check box opening a line marks a list item, as a typed one does, and stays as its answer
    'ListItem: ☐ Not started',
  ]);
});

test('symbol fonts: bytes with or without the private-use offset; unknown glyphs give nothing', () => {
  assert.equal(symbolChar('Symbol', 0xb4), '×');
  assert.equal(symbolChar('symbol', 0xf0ae), '→');
  assert.equal(symbolChar('Symbol', 0xf0e6), undefined);
  assert.equal(symbolChar('Some Dingbats', 0xf041), undefined);
  assert.equal(symbolChar(undefined, 0x2713), '✓');
});

test('docx ruby: the text is the base, not the reading set above it', async () => {
  const ruby = (reading: string, base: string): string =>
    `<w:r><w:ruby><w:rubyPr><w:rubyAlign w:val="distributeSpace"/></w:rubyPr><w:rt><w:r><w:t>${reading}</w:t></w:r></w:rt><w:rubyBase><w:r><w:t>${base}</w:t></w:r></w:rubyBase></w:ruby></w:r>`;
  const els = await partition('docx', docxFile(wPara('', { after: ruby('とうきょう', '東京') + run('に行きます。') })));
  assert.deepEqual(els.map((e) => e.text), ['東京に行きます。']);
});
