// Words hyphenated at a line's end (pdf/hyphens.ts): a syllable break joins the word without its
// hyphen; a compound broken at its own hyphen keeps it when the page writes it whole elsewhere, or
// when the broken part already holds a hyphen; a hyphen before a capital, or a line that stops short
// of the block's edge, is left as it was.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { hyphenJoin } from '../../../../lambdas/engine/partition/pdf/hyphens';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';
import { onePagePdf } from '../../../support/pdf-writer';
import { partitionDocument } from '../../../../lambdas/engine/partition/pipeline';

it('joins a syllable break, keeps a compound the page writes whole or a chain of hyphens', () => {
  const none = new Set<string>();
  assert.equal(hyphenJoin('the vials were sent to the labo-', 'ratory in cooled boxes', none), 'the vials were sent to the laboratory in cooled boxes');
  assert.equal(hyphenJoin('an open-', 'domain reader', new Set(['open-domain'])), 'an open-domain reader');
  assert.equal(hyphenJoin('a state-of-the-', 'art method', none), 'a state-of-the-art method');
  assert.equal(hyphenJoin('the North-', 'West passage', none), undefined, 'a capital after the break');
  assert.equal(hyphenJoin('figures 1-', '3 show it', none), undefined, 'no letters either side');
});

it('keeps a hyphen after a figure, and one left hanging before a conjunction', () => {
  const none = new Set<string>();
  assert.equal(hyphenJoin('flown with a 24-', 'megapixel camera', none), 'flown with a 24-megapixel camera');
  assert.equal(hyphenJoin('over a 10-', 'year record', none), 'over a 10-year record');
  assert.equal(hyphenJoin('resistance of gravel-', 'and boulder-bed streams', none), undefined, 'the caller joins with a space: "gravel- and"');
  assert.equal(hyphenJoin('die Ein-', 'und Ausgänge', none), undefined);
  assert.equal(hyphenJoin('a hus-', 'band and wife', none), 'a husband and wife', 'a syllable break still joins');
});

it('a paragraph set justified reads its hyphenated words whole', () => {
  const words = typeset({ size: 10, char: 5, space: 3 });
  // the lines that wrap are set out to x 380 (their spaces stretched a little); the third ends in a
  // compound the last line writes whole
  const lines = [
    words('The samples were taken at every station of the basin in', 60, 100, 380),
    words('the spring and sent on the same day to the central labo-', 60, 113, 380),
    words('ratory of the agency, where a further and independent cross-', 60, 126, 380),
    words('check with a second method confirmed each one of them.', 60, 139),
    words('Each cross-check was logged.', 60, 152),
  ].flat();
  const page: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 };
  const text = layoutPage(page, { tables: true }).map((e) => e.text).join('\n');
  assert.match(text, /the central laboratory of the agency, where a further and independent cross-check with a second/, text);
});

it('soft hyphens read as the words they sit in: none inside a word, the break\'s before its drawn hyphen joins the word', async () => {
  // a browser writes every soft hyphen of its HTML into the text (code 0xAD in WinAnsi), and at a
  // break one before the hyphen it draws
  const font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>';
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Soft def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    '1 beginbfrange <20> <7E> <0020> endbfrange',
    '1 beginbfchar <AD> <00AD> endbfchar',
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  const content = [
    'BT /F1 10 Tf 72 700 Td (The environ\\255mental assess\\255-) Tj ET',
    'BT /F1 10 Tf 72 688 Td (ment of the infra\\255structure.) Tj ET',
  ].join('\n');
  const { elements } = await partitionDocument({ data: onePagePdf(content, [font], [`<< /Length ${cmap.length} >>\nstream\n${cmap}\nendstream`]), filename: 'soft.pdf' }, { strategy: 'fast' });
  assert.deepEqual(elements.map((e) => e.text), ['The environmental assessment of the infrastructure.']);
});

it('a line broken after a dash set close between words or figures joins without a space; a spaced dash keeps its space', () => {
  const none = new Set<string>();
  assert.equal(hyphenJoin('efficiencies (Nash\u2013', 'Sutcliffe) between', none), 'efficiencies (Nash\u2013Sutcliffe) between');
  assert.equal(hyphenJoin('Groundwater 57, 826\u2013', '833.', none), 'Groundwater 57, 826\u2013833.');
  assert.equal(hyphenJoin('sons and daughters of the People\u2014', 'I am Sister of the Moon', none), 'sons and daughters of the People\u2014I am Sister of the Moon');
  assert.equal(hyphenJoin('the results \u2013', 'shown below', none), undefined, 'a spaced dash');
});
