// Two columns whose lines stand at different heights: body text set solid (10 on 10.5) beside a reference
// list in smaller type set closer. A line's band takes in the other column's line at about its
// height, and so grew to reach the first word of the next reference ("[2]"), read into the line above
// ("[2] 48, 2012." / "R. Ferguson, ..."). The word set just beside it there shows it is not at that
// height (lines.ts).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const body = typeset({ size: 10, char: 4.6, space: 2.5 });
const small = typeset({ size: 8.5, char: 4, space: 2.2 });
const page = (ws: Word[]): RawPage => ({ page: 1, width: 612, height: 792, lines: wordsToLines(ws), links: [], images: [], chars: 0, unmapped: 0 });

it('a reference list beside a column of larger text keeps each reference\'s label with its own line', () => {
  const left = [
    'Wet areas were corrected with an empirical',
    'depth and colour relation calibrated against',
    'a thousand depth soundings made from a boat',
    'with an echo sounder, and the corrected grids',
    'were merged with the dry areas of each survey',
    'before the elevation models were subtracted.',
  ];
  // (the lines of a reference but its last justified to the column's right edge)
  const refs: [string, number, boolean][][] = [
    [['[1] J. Brasington, D. Vericat and I. Rychkov,', 320, true], ['Modeling river bed morphology with lasers,', 332, true], ['Water Resources Research, American Union, vol.', 332, true], ['48, 2012.', 332, false]],
    [['[2] R. Ferguson, Flow resistance equations for', 320, true], ['gravel and boulder-bed streams, 2007.', 332, false]],
  ];
  const right = refs.flat();
  // (the left column's first line set from 5 pt above the right column's to 5 pt below it)
  for (let top = 95; top <= 105; top += 0.5) {
    const words = [
      ...left.flatMap((t, i) => body(t, 60, top + 10.5 * i)),
      ...right.flatMap(([t, x, full], j) => small(t, x, 100 + 9 * j, full ? 510 : undefined)),
    ];
    const els = layoutPage(page(words), { tables: true });
    assert.deepEqual(els.map((e) => e.text), [left.join(' '), ...refs.map((r) => r.map(([t]) => t).join(' '))], `left column from ${top}`);
  }
});
