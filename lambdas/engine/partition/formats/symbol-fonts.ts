// Characters of the symbol fonts Office documents draw with (Symbol, Wingdings): Word's Insert Symbol
// stores a character code of the font (w:sym w:char="F0B0", the byte 0xB0 moved to the private use
// area), not the Unicode character it shows. These tables give what the glyph is in Unicode: Symbol's
// Greek letters and mathematical signs, and the Wingdings marks documents use (check marks, boxes,
// bullets, arrows). Codes without a Unicode meaning (bracket pieces) are left out.

/** Symbol font, bytes 0x20-0xFE (Adobe Symbol encoding; 0xA0 is the euro sign in Windows' Symbol). */
const SYMBOL: Record<number, string> = {};
const fill = (table: Record<number, string>, from: number, chars: string): void => {
  let code = from;
  for (const ch of chars) {
    if (ch !== '\u0000') table[code] = ch;
    code++;
  }
};
fill(SYMBOL, 0x20, ' !∀#∃%&∋()∗+,−./0123456789:;<=>?≅');
fill(SYMBOL, 0x41, 'ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ[∴]⊥_\u0000');
fill(SYMBOL, 0x61, 'αβχδεφγηιϕκλμνοπθρστυϖωξψζ{|}∼');
fill(SYMBOL, 0xa0, '€ϒ′≤⁄∞ƒ♣♦♥♠↔←↑→↓°±″≥×∝∂•÷≠≡≈…⏐⎯↵');
fill(SYMBOL, 0xc0, 'ℵℑℜ℘⊗⊕∅∩∪⊃⊇⊄⊂⊆∈∉∠∇®©™∏√⋅¬∧∨⇔⇐⇑⇒⇓');
fill(SYMBOL, 0xe0, '◊〈®©™∑');
fill(SYMBOL, 0xf1, '〉∫');

/** Wingdings: the marks of forms, checklists and bullet lists. */
const WINGDINGS: Record<number, string> = {
  0x28: '☎', 0x2a: '✉', 0x46: '☞', 0x4a: '☺', 0x4b: '😐', 0x4c: '☹',
  0x6c: '●', 0x6d: '❍', 0x6e: '■', 0x6f: '□', 0x70: '◻', 0x71: '❑', 0x72: '❒', 0x73: '⬧', 0x74: '⧫',
  0x75: '◆', 0x76: '❖', 0x77: '⬥', 0x78: '⌧', 0x9e: '·', 0x9f: '•', 0xa1: '○', 0xa7: '▪', 0xa8: '□',
  0xd8: '➢', 0xe8: '➔', 0xf0: '⇨', 0xfb: '✗', 0xfc: '✓', 0xfd: '☒', 0xfe: '☑',
};

const TABLES: [RegExp, Record<number, string>][] = [
  [/^symbol$/i, SYMBOL],
  [/^wingdings$/i, WINGDINGS],
];

/**
 * The text a symbol-font character shows: `code` is the character code stored with the font (a byte,
 * or the byte at U+F0xx). A code outside the private use area is a Unicode character already (a
 * checkbox in "MS Gothic" stores U+2610). Undefined when the glyph has no known Unicode equivalent.
 */
export function symbolChar(font: string | undefined, code: number): string | undefined {
  if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff) return undefined;
  const inPrivateArea = code >= 0xf000 && code <= 0xf0ff;
  const byte = inPrivateArea ? code - 0xf000 : code;
  const table = TABLES.find(([name]) => name.test((font ?? '').trim()))?.[1];
  if (table && byte <= 0xff) return table[byte];
  if (inPrivateArea || (code >= 0xe000 && code <= 0xf8ff) || code < 0x20) return undefined;
  return String.fromCodePoint(code);
}
