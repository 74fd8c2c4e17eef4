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

it('joins a syllable break, keeps a compound the page writes whole or a chain of hyphens', () => {
  const none = new Set<string>();
  assert.equal(hyphenJoin('the vials were sent to the labo-', 'ratory in cooled boxes', none), 'the vials were sent to the laboratory in cooled boxes');
  assert.equal(hyphenJoin('an open-', 'domain reader', new Set(['open-domain'])), 'an open-domain reader');
  assert.equal(hyphenJoin('a state-of-the-', 'art method', none), 'a state-of-the-art method');
  assert.equal(hyphenJoin('the North-', 'West passage', none), undefined, 'a capital after the break');
  assert.equal(hyphenJoin('figures 1-', '3 show it', none), undefined, 'no letters either side');
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
