// Word and character order of right-to-left text (pdf/bidi.ts), on positions made up here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type GlyphBox, isRtlLine, logicalOrder, rtlWordPieces } from '../../../../lambdas/engine/partition/pdf/bidi';

const words = (ts: string[]) => ts.map((t) => ({ t }));
const read = (visual: string[], rtl: boolean) => logicalOrder(words(visual), rtl).map((w) => w.t).join(' ');

/** Glyphs of a word in PDFium's order, each with its left edge and width (top 700, bottom 688). */
const word = (glyphs: [string, number, number][]) => {
  const units: number[] = [], boxes: GlyphBox[] = [];
  for (const [t, x, w] of glyphs) for (const ch of t) { units.push(ch.charCodeAt(0)); boxes.push([x, 700, x + w, 688]); }
  return { units, boxes, text: (order: number[][]) => order.map((p) => p.map((i) => String.fromCharCode(units[i]!)).join('')) };
};

describe('logicalOrder', () => {
  it('reads an RTL line right to left, Latin runs and the number after them left to right', () => {
    assert.equal(read(['בשימוש', 'עדיין', '2008', 'בשנת', 'יצאה', 'Python', '3', 'גרסה'], true), 'גרסה Python 3 יצאה בשנת 2008 עדיין בשימוש');
    assert.equal(read(['2024', '-', '2020', 'בשנים'], true), 'בשנים 2020 - 2024');
    assert.equal(read(['pandas', 'and', 'numpy', 'הספריות'], true), 'הספריות pandas and numpy');
  });

  it('reads a run of RTL words right to left inside a left-to-right line', () => {
    assert.equal(read(['The', 'words', 'עולם', 'שלום', 'mean', 'hello'], false), 'The words שלום עולם mean hello');
    assert.equal(read(['a', 'b', 'c'], false), 'a b c');
  });

  it('takes the direction of a line from its letters, and of a mixed line from the page', () => {
    assert.equal(isRtlLine(['שלום', 'עולם', 'R']), true);
    assert.equal(isRtlLine(['The', 'word', 'שלום', 'means', 'peace']), false);
    assert.equal(isRtlLine(['הספריות', 'pandas', 'and', 'numpy', 'נפוצות'], true), true);
    assert.equal(isRtlLine(['הספריות', 'pandas', 'and', 'numpy', 'נפוצות'], false), false);
  });
});

describe('rtlWordPieces', () => {
  it('puts a comma drawn on its own to the left of a number after the number', () => {
    // PDFium's order: the comma, then 2023 (drawn left to right); the comma stands left of the number.
    const w = word([['\u060c', 100, 3], ['2', 103, 5], ['0', 108, 5], ['2', 113, 5], ['3', 118, 5]]);
    assert.deepEqual(w.text(rtlWordPieces(w.units, w.boxes)), ['2023\u060c']);
  });

  it('keeps the characters of one glyph and a mark after the letter it sits on', () => {
    // "أيضًا" as PDFium gives it: the tanween (U+064B) before the dad it sits on.
    const w = word([['\u0623', 130, 3], ['\u064a', 127, 3], ['\u064b', 118, 2], ['\u0636', 117, 10], ['\u0627', 114, 3]]);
    assert.deepEqual(w.text(rtlWordPieces(w.units, w.boxes)), ['\u0623\u064a\u0636\u064b\u0627']);
    // a lam-alef glyph mapped to lam, alef comes out alef, lam
    const lig = word([['\u0643', 130, 5], ['\u0627\u0644', 120, 10], ['\u062a', 115, 5]]);
    assert.deepEqual(lig.text(rtlWordPieces(lig.units, lig.boxes)), ['\u0643\u0644\u0627\u062a']);
  });

  it('splits where a Latin word touches an RTL one, and where the word jumps to another line', () => {
    const w = word([['P', 100, 5], ['y', 105, 5], ['\u0645', 95, 5], ['\u0646', 90, 5]]);
    assert.deepEqual(w.text(rtlWordPieces(w.units, w.boxes)), ['Py', '\u0645\u0646']);
    const j = word([['\u0645', 100, 5], ['\u0646', 95, 5]]);
    j.boxes[1] = [400, 680, 405, 668];
    assert.deepEqual(j.text(rtlWordPieces(j.units, j.boxes)), ['\u0645', '\u0646']);
  });

  it('stays linear on a huge word of letters, marks, digits and Latin', () => {
    const units: number[] = [], boxes: GlyphBox[] = [];
    const cycle = [0x0628, 0x064b, 0x0031, 0x0061, 0x060c, 0x0025, 0x05d0];
    for (let i = 0; i < 200_000; i++) { units.push(cycle[i % cycle.length]!); boxes.push([1e6 - i * ((i * 7) % 3), 700, 1e6 - i + 1, 688]); }
    const started = Date.now();
    const pieces = rtlWordPieces(units, boxes);
    assert.equal(pieces.reduce((n, p) => n + p.length, 0), units.length);
    assert.ok(Date.now() - started < 20_000, `${Date.now() - started} ms`); // a guard against quadratic work, not a speed test
  });
});
