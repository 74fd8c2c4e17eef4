// A bulleted list right above a table (a word processor's PDF: the bullet a tab stop before its text,
// two segments a line, as a table's row has): the items are a list, not the table's first rows, left
// to right and right to left (the bullet at the right of a right-to-left item).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const words = typeset({ size: 12, char: 6, space: 3.5 });
const page = (lines: Word[]): RawPage => ({ page: 1, width: 612, height: 792, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 });
/** Words of a right-to-left text ending at `right` (logical order given; laid out right to left). */
const rtl = (t: string, right: number, y: number): Word[] => {
  let x = right;
  return t.split(' ').map((w) => { x -= 6 * w.length; const word = words(w, x, y)[0]!; x -= 3.5; return word; });
};

it('a bulleted list right above a table stays a list, left to right', () => {
  const items = ['Counts rose in summer.', 'Counts fell in autumn.', 'Counts stayed level in winter.'];
  const rows = [['Pond', 'Spring', 'Summer'], ['Mill pond', '12', '30'], ['Long water', '7', '21']];
  const els = layoutPage(page([
    ...words('The survey was made on the three ponds of the estate in every season.', 72, 80),
    ...items.flatMap((t, i) => [...words('\u2022', 84, 110 + 16 * i), ...words(t, 108, 110 + 16 * i)]),
    ...rows.flatMap((r, i) => r.flatMap((c, k) => words(c, [72, 204, 336][k]!, 166 + 18 * i))),
  ]), { tables: true });
  assert.deepEqual(els.filter((e) => e.type === 'ListItem').map((e) => e.text), items, JSON.stringify(els.map((e) => [e.type, e.text])));
  assert.equal(els.find((e) => e.type === 'Table')?.text, rows.flat().join(' '));
});

it('a bulleted list right above a table stays a list, right to left (bullets at the right)', () => {
  const items = ['ארתפעו המספרים בקיץ.', 'ירדו המספרים בסתיו.', 'נשארו המספרים בחורף.'];
  const rows = [['בריכה', 'אביב', 'קיץ'], ['בריכת הטחנה', '12', '30'], ['המים הארוכים', '7', '21']];
  const els = layoutPage(page([
    ...rtl('הסקר נערך בשלוש הבריכות של האחוזה בכל עונות השנה כולן.', 540, 80),
    ...items.flatMap((t, i) => [...words('\u2022', 522, 110 + 16 * i), ...rtl(t, 504, 110 + 16 * i)]),
    ...rows.flatMap((r, i) => r.flatMap((c, k) => rtl(c, [540, 400, 300][k]!, 166 + 18 * i))),
  ]), { tables: true });
  assert.deepEqual(els.filter((e) => e.type === 'ListItem').map((e) => e.text), items, JSON.stringify(els.map((e) => [e.type, e.text])));
  assert.ok(els.some((e) => e.type === 'Table'), JSON.stringify(els.map((e) => [e.type, e.text])));
});
