// A superscript or subscript belongs to the line of the word it is set against, even on a two-column
// page where the other column's line stands at about the script's height: raised by a third of a
// line, the script's band shares more of that line's band than of its own, and it was read into the
// other column, splitting its paragraph ("... surveys at [1,4]" / "centimetre resolution . The ...").
// PDFium gives a browser's scripts as words of their own, glued to the word before (superscripts.ts).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const body = typeset({ size: 10, char: 5, space: 3 });
const page = (words: Word[]): RawPage => ({ page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0 });

/** A line of runs `[text, rise]` (rise 0: body text; up > 0, down < 0: an 8 pt script glued to the word before). */
function line(runs: [string, number][], x: number, top: number): Word[] {
  const out: Word[] = [];
  let cx = x;
  for (const [t, rise] of runs) {
    if (rise === 0) {
      const ws = body(t.trim(), cx + (out.length && t.startsWith(' ') ? 3 : 0), top);
      out.push(...ws);
      cx = ws[ws.length - 1]!.x1;
      if (!t.startsWith(' ') && out.length > ws.length) ws[0]!.glue = true;
    } else {
      const w: Word = { t, x0: cx, x1: cx + 4 * t.length, y0: top + 2 - rise, y1: top + 10 - rise, size: 8, bold: false, italic: false, glue: true };
      out.push(w);
      cx = w.x1;
    }
  }
  return out;
}

it('a citation mark and a formula\'s scripts stay in their column\'s paragraph', () => {
  // left column lines every 12 pt, the right column's 5.5 pt higher: at a raised script's height
  const left: [string, number][][] = [
    [['Repeat surveys from drones now reach a', 0]],
    [['resolution of a few centimetres', 0], ['[1,4]', 4.5], [', and the', 0]],
    [['difference of two elevation models gives', 0]],
    [['a sediment budget of Ca', 0], ['2+', 4.5], [' and HCO', 0], ['3', -2], ['\u2212', 4.5], [' ions.', 0]],
  ];
  const right = [
    'The model routes the flow from each cell',
    'to its neighbours along the local slope of',
    'the water surface, and the bed is updated',
    'from the divergence of the sediment flux.',
  ];
  // content order: the left column, then the right
  const words = [...left.flatMap((runs, i) => line(runs, 60, 100 + 12 * i)), ...right.flatMap((t, i) => body(t, 320, 94.5 + 12 * i))];
  const els = layoutPage(page(words), { tables: true });
  assert.deepEqual(els.map((e) => e.text), [
    'Repeat surveys from drones now reach a resolution of a few centimetres[1,4], and the difference of two elevation models gives a sediment budget of Ca2+ and HCO3\u2212 ions.',
    'The model routes the flow from each cell to its neighbours along the local slope of the water surface, and the bed is updated from the divergence of the sediment flux.',
  ]);
});
