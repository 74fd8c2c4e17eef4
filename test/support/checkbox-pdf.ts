// A one-page questionnaire PDF written by hand: each answer opens with a box drawn by a Type3 font
// glyph that has no Unicode name (code 0x84, as symbol fonts of forms draw checkboxes; PDFium reports
// the bare code), in a larger font than the answer's text, and some answers wrap onto a second line.
import { onePagePdf } from './pdf-writer';

/** A box to tick, most of an em tall. */
export const BOX_GLYPH = '1000 0 0 0 1000 1000 d1 50 50 900 900 re S';
/** A list's bullet: a dot a third of an em across, about the middle of the x-height (as TeX's math symbol font draws it). */
export const DOT_GLYPH = '1000 0 150 200 450 500 d1 150 200 300 300 re f';

/**
 * items: [question, ...answers]; an answer given as two strings wraps onto a second line. `glyph`: the
 * Type3 glyph procedure drawn before each answer.
 */
export function checkboxPdf(items: [string, ...(string | [string, string])[]][], glyph = BOX_GLYPH): Uint8Array {
  let y = 700;
  const ops: string[] = [];
  for (const [q, ...answers] of items) {
    ops.push(`BT /F1 10 Tf 72 ${y} Td (${q}) Tj ET`);
    y -= 16;
    for (const a of answers) {
      const [first, second] = Array.isArray(a) ? a : [a];
      ops.push(`BT /F2 13 Tf 90 ${y} Td <84> Tj ET`);
      ops.push(`BT /F1 9 Tf 108 ${y} Td (${first}) Tj ET`);
      if (second) {
        y -= 11;
        ops.push(`BT /F1 9 Tf 108 ${y} Td (${second}) Tj ET`);
      }
      y -= 14;
    }
    y -= 8;
  }
  const box = glyph;
  return onePagePdf(
    ops.join('\n'),
    [
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      '<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /box 7 0 R >> /Encoding << /Type /Encoding /Differences [132 /box] >> /FirstChar 132 /LastChar 132 /Widths [1000] /Resources << >> >>',
    ],
    [`<< /Length ${box.length} >>\nstream\n${box}\nendstream`],
  );
}

/**
 * A page of labelled rows, each opened by marks drawn in a picture font (/Wingdings: PDFium reports
 * each glyph as the letter of its code) set right against the label's first letter, no gap between.
 */
export function markedRowsPdf(rows: { marks: string; label: string }[]): Uint8Array {
  let y = 700;
  const ops: string[] = [];
  for (const { marks, label } of rows) {
    ops.push(`BT /F2 9 Tf 72 ${y} Td (${marks}) Tj /F1 9 Tf (${label}) Tj ET`);
    y -= 14;
  }
  return onePagePdf(
    ops.join('\n'),
    [
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      `<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+Wingdings /FirstChar 32 /LastChar 126 /Widths [${Array(95).fill(600).join(' ')}] /FontDescriptor 7 0 R >>`,
    ],
    ['<< /Type /FontDescriptor /FontName /ABCDEF+Wingdings /Flags 4 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 900 /Descent -200 /CapHeight 700 /StemV 80 >>'],
  );
}
