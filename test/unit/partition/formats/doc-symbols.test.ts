// Legacy .doc symbols from a symbol font (Insert Symbol) read as the Unicode character they show, as
// DOCX reads w:sym: Word stores a placeholder "(" with the font and code in the run's properties
// (sprmCSymbol); other writers store the font's private-use code in a run set in that font.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition } from './helpers';
import { charFont, symbol, word97Doc } from '../../../support/word97';

const FONTS = ['Times New Roman', 'Symbol', 'Wingdings'];

test('doc: symbols inserted from Symbol and Wingdings read as the characters they show', async () => {
  const data = word97Doc([
    { text: 'The tolerance is (0.5 mm at 20 degrees.', chars: { range: [17, 18], sprms: [symbol(1, 0xf0b1)] } },
    { text: '( Approved by the quality manager', chars: { range: [0, 1], sprms: [symbol(2, 0xf0fc)] } },
  ], [], [], { fonts: FONTS });
  const els = await partition('doc', data);
  assert.deepEqual(els.map((e) => e.text), ['The tolerance is ±0.5 mm at 20 degrees.', '✓ Approved by the quality manager']);
});

test('doc: a private-use symbol code in a run set in a symbol font reads as its character', async () => {
  const data = word97Doc([
    { text: 'The reading was 21\uf0b0C on the second day of testing.', chars: { range: [18, 19], sprms: [charFont(1)] } },
    { text: 'An unknown glyph \uf0e6 of a symbol font shows nothing here.', chars: { range: [17, 18], sprms: [charFont(1)] } },
  ], [], [], { fonts: FONTS });
  const els = await partition('doc', data);
  assert.deepEqual(els.map((e) => e.text), ['The reading was 21°C on the second day of testing.', 'An unknown glyph of a symbol font shows nothing here.']);
});
