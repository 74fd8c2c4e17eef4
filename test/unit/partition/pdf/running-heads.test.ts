// Running heads and the lines above a table (issue 29), as a LaTeX report sets them (fancyhdr's head
// "Handbook | Revision 4", a longtable continued on the next page). The head's two parts made a row
// of two cells right above the table's continuation and became its first row; a numbered heading
// ("4 | Visit record", two segments) took the paragraph under it into the table as a wrapped cell; and
// the head's right part was read after the table, whose columns the reading order cut first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import type { Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const words = typeset({ size: 11 });

/** A table of five columns, a row every 13.5 pt from `top`. */
function table(top: number, n: number): Word[] {
  const out: Word[] = [...words('Site', 158, top), ...words('Date', 200, top), ...words('Poured', 270, top), ...words('Recorded', 340, top), ...words('Crew', 420, top)];
  for (let i = 1; i <= n; i++) {
    const y = top + 13.5 * i;
    out.push(...words(String(400 + 7 * i), 158, y), ...words(`2024-01-${10 + i}`, 200, y), ...words('500', 270, y), ...words(String(480 + i), 340, y), ...words(i % 2 ? 'Mbeki' : 'Duarte', 420, y));
  }
  return out;
}

const page = (ws: Word[]) => layoutPage({ page: 3, width: 612, height: 792, lines: wordsToLines(ws), links: [], images: [], chars: 0, unmapped: 0 }, { tables: true, tableHtml: true });

describe('running heads and a table', () => {
  it("a running head's two parts are no row of the table under it, and read before it", () => {
    const els = page([...words('Field Operations Handbook', 72, 36), ...words('Revision 4', 490, 36), ...table(80, 12), ...words('3', 303, 740)]);
    const types = els.map((e) => `${e.type}: ${e.text.slice(0, 30)}`);
    assert.deepEqual(types.slice(0, 2), ['Header: Field Operations Handbook', 'Header: Revision 4'], JSON.stringify(types));
    const t = els.find((e) => e.type === 'Table');
    assert.ok(t && t.text.startsWith('Site Date Poured Recorded Crew 407'), JSON.stringify(types));
    assert.equal(els[els.length - 1]!.type, 'PageNumber');
  });

  it('a numbered heading and the paragraph under it stay text above the table', () => {
    const para = 'Every visit is recorded in the site log. The log for the last quarter is reproduced below.';
    const els = page([...words('4', 72, 250), ...words('Visit record', 96, 250), ...words(para, 72, 278), ...table(306, 8)]);
    const t = els.find((e) => e.type === 'Table');
    assert.ok(t && t.text.startsWith('Site Date'), JSON.stringify(els.map((e) => [e.type, e.text.slice(0, 40)])));
    assert.ok(els.some((e) => e.text === para), JSON.stringify(els.map((e) => [e.type, e.text.slice(0, 40)])));
  });
});

describe('text running into the margin bands of a page printed with narrow margins', () => {
  it('a sentence at the head of the page is text; a running head\'s title and name stay Headers', () => {
    const els = page([
      ...words('The counts below were made at dawn on each visit to the ponds.', 72, 30),
      ...words('Site', 72, 60), ...words('Count', 200, 60), ...words('North', 72, 75), ...words('12', 200, 75), ...words('South', 72, 90), ...words('4', 200, 90), ...words('East', 72, 105), ...words('44', 200, 105),
    ]);
    assert.deepEqual(els.map((e) => e.type), ['NarrativeText', 'Table'], JSON.stringify(els.map((e) => [e.type, e.text])));
    const headed = page([...words('Field Operations Handbook', 72, 30), ...words('Revision 4', 490, 30), ...words('The counts below were made at dawn on each visit to the ponds.', 72, 80)]);
    assert.deepEqual(headed.map((e) => e.type), ['Header', 'Header', 'NarrativeText']);
  });

  it('a bulleted item at the foot of a page printed with narrow margins is a list item, no running foot', () => {
    // a browser prints with margins of 0.4 inch: the body reaches the bottom band where running feet stand
    const item = (t: string, y: number) => [...words('•', 72, y), ...words(t, 90, y)];
    const els = page([
      ...words('Actions', 72, 660),
      ...item('Install depth markers at the tarn.', 690), ...item('Agree a cutting plan with the estate before spring.', 708), ...item('Repeat the survey in the autumn.', 748),
    ]);
    assert.deepEqual(els.map((e) => e.type), ['Title', 'ListItem', 'ListItem', 'ListItem'], JSON.stringify(els.map((e) => [e.type, e.text])));
  });
});

describe('a landscape page among the upright pages of a report', () => {
  it("keeps its running head and foot, set as far from the sheet's edges as on the upright pages", () => {
    // a word processor sets the head and foot half an inch from the edge whichever way the sheet is
    // turned: on a landscape page that is beyond a band measured on the page's (short) height
    const landscape = (ws: Word[]) => layoutPage({ page: 6, width: 792, height: 612, lines: wordsToLines(ws), links: [], images: [], chars: 0, unmapped: 0 }, { tables: true, tableHtml: true });
    const els = landscape([
      ...words('Northwind Data Platform', 72, 38), ...words('Administrator Guide', 620, 38),
      ...words('The figures below were measured on the reference hardware with the default configuration.', 72, 90),
      ...words('Version 2.3 Internal Use', 72, 562), ...words('Page 6 of 7', 660, 562),
    ]);
    assert.deepEqual(els.map((e) => e.type), ['Header', 'Header', 'NarrativeText', 'Footer', 'PageNumber'], JSON.stringify(els.map((e) => [e.type, e.text])));
  });

  it('a table running down into that band keeps its last row (a spreadsheet printed landscape)', () => {
    const landscape = (ws: Word[]) => layoutPage({ page: 1, width: 792, height: 612, lines: wordsToLines(ws), links: [], images: [], chars: 0, unmapped: 0 }, { tables: true, tableHtml: true });
    // its last row lies 0.75 inch above the foot, in the band, one row's pitch under the row above
    const els = landscape(table(398, 12));
    assert.deepEqual(els.map((e) => e.type), ['Table'], JSON.stringify(els.map((e) => [e.type, e.text])));
    assert.ok(els[0]!.text.endsWith('Duarte'), els[0]!.text);
  });
});
