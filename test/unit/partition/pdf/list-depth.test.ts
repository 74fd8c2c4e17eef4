// Nested lists on a PDF page: a list item's category_depth from its indent among the items of its list,
// and its parent the item it is nested under (hierarchy.ts), as a Word document's list levels give
// them. A list in the next column starts again at depth 0.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { setElementHierarchy } from '../../../../lambdas/engine/partition/hierarchy';
import { typeset } from '../../../support/page-words';

const words = typeset({ size: 10, char: 5, space: 3 });
/** A bulleted item: its bullet at x, its text 14 points further. */
const item = (x: number, y: number, text: string, bullet = '•'): Word[] => [...words(bullet, x, y), ...words(text, x + 14, y)];
const page = (lines: Word[]): RawPage => ({ page: 1, width: 612, height: 792, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 });

it('nested bullets: depth from the indent, each nested item under the item above it', () => {
  const els = layoutPage(page([
    words('Before leaving the site check the following points.', 60, 100),
    item(72, 120, 'Lock every door of the building.'),
    item(90, 134, 'Check the fire exits from inside.', '◦'),
    item(108, 148, 'Open each exit door once.', '▪'),
    item(90, 162, 'Set the alarm at the main entrance.', '◦'),
    item(72, 176, 'Switch off all the lights.'),
  ].flat()), { tables: true });
  assert.deepEqual(els.map((e) => [e.type, e.metadata.category_depth]), [
    ['NarrativeText', undefined], ['ListItem', 0], ['ListItem', 1], ['ListItem', 2], ['ListItem', 1], ['ListItem', 0],
  ], JSON.stringify(els.map((e) => e.text)));
  setElementHierarchy(els);
  const parentText = (i: number) => els.find((e) => e.element_id === els[i]!.metadata.parent_id)?.text;
  assert.equal(parentText(2), 'Lock every door of the building.');
  assert.equal(parentText(3), 'Check the fire exits from inside.');
  assert.equal(parentText(4), 'Lock every door of the building.');
  assert.equal(els[5]!.metadata.parent_id, undefined);
});

it('a paragraph between items, or the list going on at the top of the next column, starts again at depth 0', () => {
  const els = layoutPage(page([
    item(72, 100, 'Lock every door of the building.'),
    item(90, 114, 'Check the fire exits from inside.', '◦'),
    words('Then walk round the outside once more.', 60, 134),
    item(90, 154, 'Look at every window on the ground floor.', '◦'),
  ].flat()), { tables: true });
  assert.deepEqual(els.map((e) => [e.type, e.metadata.category_depth]), [['ListItem', 0], ['ListItem', 1], ['NarrativeText', undefined], ['ListItem', 0]]);
  // two columns of text, the list running from the foot of the first to the head of the second
  const para = (x: number, y: number) => [0, 1, 2, 3].flatMap((k) => words('The team walks the site each evening and notes', x, y + 12 * k));
  const cols = layoutPage(page([
    para(60, 100), item(72, 160, 'Lock every door.'), item(90, 174, 'Check the exits.', '◦'),
    item(346, 100, 'Switch off the lights.'), item(346, 114, 'Hand in the keys.'), para(330, 134),
  ].flat()), { tables: true });
  assert.deepEqual(cols.filter((e) => e.type === 'ListItem').map((e) => [e.text, e.metadata.category_depth]), [
    ['Lock every door.', 0], ['Check the exits.', 1], ['Switch off the lights.', 0], ['Hand in the keys.', 0],
  ], JSON.stringify(cols.map((e) => e.text)));
});
