// Glyphs a font's ToUnicode map leaves out (or maps to a space) open a gap inside a line: PDFium reports
// such a glyph as a space as wide as the glyph, or drops it. One lost letter at a word's end
// made a gap wide enough to split a line into two segments, which the layout then read as two columns
// (extract.ts reachFollowingSpaces). The test PDFs map one glyph to a space, or to NUL in a right-to-left
// line where PDFium's bidi pass also reorders a number's characters (test/support/cjk-pdf.ts
// `ligatures`); a table cell's trailing space must not join it to the next cell.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { PdfDocument } from '../../../../lambdas/engine/partition/pdf/pdfium';
import { extractPage } from '../../../../lambdas/engine/partition/pdf/extract';
import { cjkPdf, type PageSpec, type Run } from '../../../support/cjk-pdf';
import { onePagePdf } from '../../../support/pdf-writer';

after(async () => { await shutdownPagePool(); });

const SIZE = 12;
/** U+E001 draws a full-width glyph the ToUnicode map gives no usable character. */
const LOST = '\ue001';
/** Advance of a text in the test font: ASCII half an em, a space a quarter, anything else one em. */
const width = (t: string) => [...t].reduce((w, ch) => w + (ch === ' ' ? 0.25 : ch < '\u0080' ? 0.5 : 1) * SIZE, 0);
const mirror = (w: string) => [...w].reverse().join('');
/** An RTL line drawn left to right from its words in visual order, ending at `right`. */
const rtlLine = (visualWords: string[], right: number, y: number): Run => {
  const text = visualWords.map((w) => (/[\u0590-\u08ff]/u.test(w) ? mirror(w) : w)).join(' ');
  return { text, x: right - width(text), y, size: SIZE };
};

async function segments(pages: PageSpec[], mapTo: string): Promise<string[][]> {
  const doc = await PdfDocument.open(cjkPdf(pages, { ligatures: { [LOST]: mapTo } }));
  try {
    return extractPage(doc, 0, { images: false, links: false }).lines.map((l) => l.segs.map((s) => s.text));
  } finally { doc.close(); }
}
const texts = async (pages: PageSpec[], mapTo: string) =>
  (await partition({ data: cjkPdf(pages, { ligatures: { [LOST]: mapTo } }), filename: 'lost.pdf' }, { strategy: 'fast' })).elements.map((e) => e.text);

/** A paragraph whose short last line holds the lost glyph (no justified line to stretch it back). */
const paragraph = (last: string): Run[] => [
  { text: 'The first line of a paragraph set in a font that has lost', x: 72, y: 760, size: SIZE },
  { text: 'a few of its glyphs, and its last line here is short', x: 72, y: 746, size: SIZE },
  { text: last, x: 72, y: 732, size: SIZE },
];

describe('glyphs without a character inside a line', () => {
  it('a glyph reported as a space as wide as itself does not split its line', async () => {
    const last = `but lea${LOST} a hole before the space.`;
    assert.deepEqual(await segments([{ runs: paragraph(last) }], ' '), [
      ['The first line of a paragraph set in a font that has lost'],
      ['a few of its glyphs, and its last line here is short'],
      ['but lea a hole before the space.'],
    ]);
    assert.deepEqual(await texts([{ runs: paragraph(last) }], ' '), [
      'The first line of a paragraph set in a font that has lost a few of its glyphs, and its last line here is short but lea a hole before the space.',
    ]);
  });

  it('so does one in a line of its own (a heading)', async () => {
    assert.deepEqual(await segments([{ runs: [{ text: `A heading whose wor${LOST} lost a glyph`, x: 72, y: 760, size: SIZE }] }], ' '), [
      ['A heading whose wor lost a glyph'],
    ]);
  });

  it('a right-to-left line with a lost glyph and a number in brackets stays one line, in logical order', async () => {
    // logical order: "בשנים (2024 - 2026) המטר" — the last letter of the first word is lost
    const runs = [rtlLine(['המטר', '2026(', '-', ')2024', `${mirror('בשנים')}${LOST}`].map((w) => (w.includes(LOST) ? mirror(w) : w)), 500, 760)];
    const lines = await segments([{ runs }], '\u0000');
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.length, 1, JSON.stringify(lines));
    assert.match(lines[0]![0]!, /^בשנים .*2024.*2026.* המטר$/u);
  });

  it('a table cell\'s trailing space does not join it to the next cell', async () => {
    const row = (y: number, a: string, b: string): Run[] => [
      { text: `${a} `, x: 72, y, size: SIZE },
      { text: b, x: 72 + width(`${a} `) + 1.6 * SIZE, y, size: SIZE },
    ];
    const lines = await segments([{ runs: [...row(760, 'Name', 'Value'), ...row(746, 'Size', 'Large')] }], '\u0000');
    assert.deepEqual(lines, [['Name', 'Value'], ['Size', 'Large']]);
  });

  it('nor does the space PDFium puts between two right-to-left cells, which no glyph draws', async () => {
    // each cell its own run, a name at the right and figures left of it 16 points (1.3 ems) apart, as a
    // browser prints a right-to-left table: PDFium reports a space between them, not flagged as
    // generated, hugging the figure; the name was stretched over the gap and the two cells read as one
    const cell = (logical: string, right: number, y: number): Run => ({ ...rtlLine([logical], right, y), text: /[\u0590-\u08ff]/u.test(logical) ? mirror(logical) : logical });
    const name = width('בריכה');
    const lines = await segments([{ runs: [cell('בריכה', 500, 760), cell('12', 500 - name - 16, 760), cell('30', 500 - name - 58, 760)] }], '\u0000');
    assert.deepEqual(lines, [['30', '12', 'בריכה']]);
  });
});

describe('a glyph without any character (code 0, no Unicode mapping)', () => {
  // An author line with a mail symbol drawn from a symbol font as code 0: FPDFText_GetText leaves the
  // glyph out, and every later character took the box of the one before it.
  const content = [
    'BT /F1 12 Tf 72 700 Td (Written by the first author \\() Tj ET',
    'BT /F2 12 Tf 240 700 Td <00> Tj ET',
    'BT /F1 12 Tf 252 700 Td (\\), and the second one) Tj ET',
    'BT /F1 12 Tf 72 686 Td (Department of Physics, University of Somewhere) Tj ET',
  ].join('\n');
  const pdf = () => onePagePdf(content, ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>', '<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats >>']);

  it('leaves the characters after it on their own glyphs', async () => {
    const doc = await PdfDocument.open(pdf());
    try {
      const lines = extractPage(doc, 0, { images: false, links: false }).lines.map((l) => l.segs.map((s) => s.text));
      assert.deepEqual(lines, [['Written by the first author (', '), and the second one'], ['Department of Physics, University of Somewhere']]);
    } finally { doc.close(); }
    const out = await partition({ data: pdf(), filename: 'symbol.pdf' }, { strategy: 'fast' });
    assert.ok(out.elements.some((e) => e.text.includes('Department of Physics, University of Somewhere')), JSON.stringify(out.elements.map((e) => e.text)));
  });
});
