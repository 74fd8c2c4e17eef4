// LaTeX's T1-encoded text in the bitmap (Type 3) fonts pdfTeX embeds where the scalable ones are
// missing (issue 29): their glyphs have neither Unicode mappings nor standard names, so PDFium reports
// each as its code, and the ligatures at 0x1B-0x1F came out as control characters ("\u001crst",
// "o\u001ecer", "\u001doods"), the en dash of a nested list's items as U+0015. They are read with the
// T1 encoding; codes 0x0B-0x0F inside a word with the older OT1's ligatures; a line break PDFium
// generates is still a break, a glyph at 0x0A or 0x0D is not.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { partitionDocument } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { onePagePdf } from '../../../support/pdf-writer';

after(() => shutdownPagePool());

/** A Type 3 font whose every glyph (codes 0-127) is a box named /gNN, a name PDFium cannot map. */
function bitmapFontPdf(lines: string[]): Uint8Array {
  const names = Array.from({ length: 128 }, (_, c) => `/g${c}`).join(' ');
  const procs = Array.from({ length: 128 }, (_, c) => `/g${c} 5 0 R`).join(' ');
  // each glyph 0.5 em wide; the space (code 32) draws nothing
  const glyph = '500 0 0 0 450 600 d1 0 0 450 600 re f';
  const content = lines.map((t, i) => `BT /F1 10 Tf 72 ${700 - 14 * i} Td <${Buffer.from(t, 'latin1').toString('hex')}> Tj ET`).join('\n');
  return onePagePdf(
    content,
    [`<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 600] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << ${procs} >> /Encoding << /Type /Encoding /Differences [0 ${names}] >> /FirstChar 0 /LastChar 127 /Widths [${Array(128).fill(500).join(' ')}] /Resources << >> >>`],
    [`<< /Length ${glyph.length} >>\nstream\n${glyph}\nendstream`],
  );
}

test('pdf: the ligatures and dashes of a T1-encoded bitmap font read as text, not control characters', async () => {
  const data = bitmapFontPdf([
    'The \x1crst o\x1ecer checked the \x1doods and the e\x1bect on sta\x1b.',
    '\x15 a nested item of the list',
    'an old OT1 \x0cle with \x0dat \x0eles',
  ]);
  const { elements } = await partitionDocument({ data, filename: 'tex.pdf' }, { strategy: 'fast' });
  const text = elements.map((e) => e.text).join('\n');
  assert.match(text, /The first officer checked the floods and the effect on staff\./, text);
  assert.match(text, /a nested item of the list/, text);
  assert.match(text, /an old OT1 file with flat ffiles/, text);
  for (const e of elements) assert.doesNotMatch(e.text, /[\u0000-\u001f]/, JSON.stringify(e.text));
});

test('pdf: a CR or LF written into a string of an ordinary font still parts its words', async () => {
  const data = onePagePdf('BT /F1 10 Tf 72 700 Td (First part\\rSecond part of the line) Tj ET\nBT /F1 10 Tf 72 680 Td (Another line\\nwith a newline inside) Tj ET', ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>']);
  const { elements } = await partitionDocument({ data, filename: 'cr.pdf' }, { strategy: 'fast' });
  const text = elements.map((e) => e.text).join(' ');
  assert.match(text, /First part Second part of the line/, text);
  assert.match(text, /Another line with a newline inside/, text);
});
