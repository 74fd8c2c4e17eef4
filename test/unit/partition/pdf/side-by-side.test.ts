// Side-by-side unruled tables: two tables whose own row rules stop at a common gutter narrower than
// their column gaps come back as two Tables; rules running across the whole region keep one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import type { HRule } from '../../../../lambdas/engine/partition/pdf/tables/paths';

const word = (t: string, x: number, y: number): Word => ({ t, x0: x, x1: x + 6 * t.length, y0: y, y1: y + 12, size: 12, bold: false, italic: false });
const ROWS = [['Animal', 'Action', 'Result'], ['Cat', 'Says', 'Meow'], ['Dog', 'Says', 'Woof'], ['Fox', 'Says', 'Ring']];
/** Two 3-column tables: left at x 60..300, right at 315..555; columns 80 pt apart, gutter 15 pt. */
function page(rules: HRule[]): RawPage {
  const words = ROWS.flatMap((r, i) => [...r.map((t, c) => word(t, 60 + 80 * c, 80 + 25 * i)), ...r.map((t, c) => word(`${t}2`, 318 + 80 * c, 80 + 25 * i))]);
  return { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h: rules, v: [] } };
}
const ys = [76, 100, 125, 150, 175];
const tables = (p: RawPage) => layoutPage(p, { tables: true }).filter((e) => e.type === 'Table');

describe('side-by-side tables', () => {
  it('row rules that break at a common gutter split the region into two tables', () => {
    const t = tables(page(ys.flatMap((y) => [{ y, x0: 57, x1: 299 }, { y, x0: 313, x1: 555 }])));
    assert.equal(t.length, 2, 'two tables');
    assert.match(String(t[0]!.metadata.text_as_html), /<td>Animal<\/td><td>Action<\/td><td>Result<\/td>/);
    assert.doesNotMatch(String(t[0]!.metadata.text_as_html), /Animal2/);
    assert.match(String(t[1]!.metadata.text_as_html), /<td>Cat2<\/td><td>Says2<\/td><td>Meow2<\/td>/);
  });
  it('rules across the whole region, or none, keep one table', () => {
    assert.equal(tables(page(ys.map((y) => ({ y, x0: 57, x1: 555 })))).length, 1);
    assert.equal(tables(page([])).length, 1);
  });
});
