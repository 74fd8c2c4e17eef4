// Paragraphs with a hanging indent, a reference list's entries ("[1] A. Author, ..." with its next
// lines set further in): a line of the indent after one that ends on a full stop ("vol.", "pp.",
// "Proc.") is the same entry's, not a new paragraph's indented first line, and a line set back out to
// the entries' left edge after an entry's last line, however long that line, starts the next entry.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const words = typeset({ size: 9 });
const page = (ws: Word[]): RawPage => ({ page: 1, width: 612, height: 792, lines: wordsToLines(ws), links: [], images: [], chars: 0, unmapped: 0 });

/** Entries of lines `[text, full]`: the first at the margin, the rest 12 pt in; a full line is justified to the column's right edge. */
function entries(list: [string, boolean][][]): Word[] {
  const out: Word[] = [];
  let y = 100;
  for (const entry of list) entry.forEach(([t, full], i) => { out.push(...words(t, i ? 72 : 60, y, full ? 300 : undefined)); y += 11; });
  return out;
}

it('a reference list set with a hanging indent gives one element per reference', () => {
  const refs: [string, boolean][][] = [
    [['[1] J. Brasington, D. Vericat and I. Rychkov, Modeling', true], ['river bed morphology from terrestrial laser scans,', true], ['Water Resources Research, American Union, vol.', true], ['48, 2012.', false]],
    [['[2] R. Ferguson, Flow resistance equations for gravel', true], ['and boulder-bed streams, Water Resources Research,', true], ['article W05427, pages 1 to 12, published in 2007.', true]],
    [['[3] E. Meyer-Peter and R. Muller, Formulas for bed load', true], ['transport, in Proc. 2nd Meeting IAHR, pp. 39-64.', false]],
  ];
  const els = layoutPage(page(entries(refs)), { tables: true });
  assert.deepEqual(els.map((e) => e.text), refs.map((r) => r.map(([t]) => t).join(' ')));
});

it('a code listing whose continued statement stands in keeps its next line at the margin (no hanging paragraph)', () => {
  const listing = [
    ['import numpy as np', 60], ['image = load_image("scan.png") # read the page', 60], ['model = build_model(', 60],
    ['"models/detector/large_document_layout_model_v2/config.yaml")', 72], ['boxes = model.detect(image)', 60],
  ] as const;
  const els = layoutPage(page(listing.flatMap(([t, x], i) => words(t, x, 100 + 11 * i))), { tables: true });
  assert.deepEqual(els.map((e) => e.text), [listing.map(([t]) => t).join(' ')]);
});
