// A code listing in a PDF keeps its tokens together (issue 29): syntax highlighters and LaTeX's
// listings package draw each token on its own at a column of a fixed grid a little wider than the
// monospaced font's advance, so PDFium generates a space wherever a few characters' worth of that
// difference adds up ("console .log (add (3 , 5) ) ;"). Between runs of a monospaced font, a gap
// narrower than a glyph's advance is no space; real spaces (a whole empty column) stay, and
// proportional text drawn with the same narrow gaps keeps its word breaks.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { codeListingPdf } from '../../../support/code-listing-pdf';

after(async () => { await shutdownPagePool(); });

const CODE = [
  'function add(a, b) {',
  '  return a + b;',
  '}',
  'console.log(add(3, 5));',
  'const total = items.reduce((s, x) => s + x.price, 0);',
];
const PROSE = ['The listing above adds two numbers and prints the result to the console.'];

it('joins the tokens of a monospaced listing and keeps its spaces; proportional words stay apart', async () => {
  const r = await partition({ data: codeListingPdf(CODE, PROSE), filename: 'code.pdf' }, { strategy: 'fast' });
  const text = r.elements.map((e) => e.text).join('\n');
  for (const line of CODE) assert.ok(text.includes(line.trim()), `"${line.trim()}" in:\n${text}`);
  assert.ok(text.includes(PROSE[0]!), `prose keeps its words apart:\n${text}`);
});
