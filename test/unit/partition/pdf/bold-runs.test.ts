// A bold sentence that wraps and ends partway along a line, the rest of that line in regular type (a
// questionnaire's bold question and its "(select all that apply)", a bold lead-in running into its
// paragraph), is one paragraph: the change of weight inside the line is not a paragraph's end. A bold
// heading over a paragraph, and a bold paragraph that ends its sentence, stay apart.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const regular = typeset({ size: 9, char: 4.5, space: 2.5 });
const bold = typeset({ size: 9, char: 4.5, space: 2.5, bold: true });
/** A line in bold up to `split` words, regular after them. */
const mixed = (text: string, split: number, x: number, y: number): Word[] => {
  const parts = text.split(' ');
  const head = bold(parts.slice(0, split).join(' '), x, y);
  return [...head, ...regular(parts.slice(split).join(' '), head[head.length - 1]!.x1 + 2.5, y)];
};
const page = (lines: Word[]): RawPage => ({ page: 1, width: 612, height: 792, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 });

it('a bold question wrapping onto a line that goes on in regular type is one list item', () => {
  const els = layoutPage(page([
    bold('12. If the site has a night guard on duty, are there written rules on how the', 60, 100),
    bold('guard reports damage found on the rounds of the building and grounds to', 78, 112),
    mixed('its owner? (Please tick every answer that applies)', 2, 78, 124),
    regular('☐ Yes, the rules are written down in the guard book', 78, 142),
    regular('☐ No, each guard decides', 78, 160),
  ].flat()), { tables: true });
  assert.deepEqual(els.map((e) => e.type), ['ListItem', 'ListItem', 'ListItem'], JSON.stringify(els.map((e) => e.text)));
  assert.match(els[0]!.text, /grounds to its owner\? \(Please tick every answer that applies\)$/);
});

it('a bold heading over a paragraph with a bold lead-in, and a bold sentence that ends, stay apart', () => {
  const els = layoutPage(page([
    bold('Night rounds', 60, 100),
    mixed('Note: the guard walks the whole building twice a night and writes down what was', 1, 60, 118),
    regular('found on each round, with the time of the round and the doors that were open.', 60, 130),
    bold('Every door of the building is locked by the last person who leaves the site.', 60, 148),
    mixed('Keys: the keys are handed to the guard at the main entrance before leaving.', 1, 60, 160),
  ].flat()), { tables: true });
  assert.deepEqual(els.map((e) => e.text.split(' ').slice(0, 2).join(' ')), ['Night rounds', 'Note: the', 'Every door', 'Keys: the'], JSON.stringify(els.map((e) => e.text)));
});
