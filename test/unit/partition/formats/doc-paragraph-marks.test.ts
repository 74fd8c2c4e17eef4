// Legacy .doc: the body follows the binary structures' paragraph, cell and row marks, so a line
// break inside a paragraph, a section break, a cell of several paragraphs and a table nested in a
// cell come out as DOCX gives them (the text reader alone breaks its lines at each of these).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition } from './helpers';
import { inTable, innerCellEnd, listLevel, outline, rowEnd, tableDepth, word97Doc, type DocPara } from '../../../support/word97';

const cell = (text: string): DocPara => ({ text, mark: 'cell', sprms: [inTable()] });
const cellPara = (text: string): DocPara => ({ text, sprms: [inTable()] });
const row = (edges: number[]): DocPara => ({ text: '', mark: 'cell', sprms: [inTable(), rowEnd(edges)] });
const nested = (text: string, extra: Buffer[]): DocPara => ({ text, sprms: [inTable(), tableDepth(2), ...extra] });

test('doc: line breaks, section breaks, cells of several paragraphs and nested tables keep the structure', async () => {
  const data = word97Doc([
    { text: 'Supplier Contact\x0bDirectory 2024', sprms: [outline(0)] },
    { text: 'Order bolts monthly.\x0bCheck stock first.', sprms: [listLevel(0)] },
    { text: 'Pay invoices within thirty days.', mark: 'section', sprms: [listLevel(0)] },
    { text: 'The supplier list is reviewed every spring by the purchasing team.' },
    cell('Name'), cell('Phone'), row([3000, 6000]),
    cellPara('Bolt Co'), cell('Sheffield office'), cell('0114 555 0200'), row([3000, 6000]),
    cell('Outer A'),
    nested('inner 1', [innerCellEnd()]), nested('inner 2', [innerCellEnd()]), { text: '', sprms: [inTable(), tableDepth(2), rowEnd([1500, 3000], true)] },
    cell(''), row([3000, 6000]),
    { text: 'End of the directory, reviewed yearly by the team.' },
  ]);
  const els = await partition('doc', data);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['Title', 'Supplier Contact\nDirectory 2024'],
    ['ListItem', 'Order bolts monthly.\nCheck stock first.'],
    ['ListItem', 'Pay invoices within thirty days.'],
    ['NarrativeText', 'The supplier list is reviewed every spring by the purchasing team.'],
    ['Table', 'Name Phone Bolt Co Sheffield office 0114 555 0200 Outer A inner 1 inner 2'],
    ['NarrativeText', 'End of the directory, reviewed yearly by the team.'],
  ]);
  assert.equal(
    els[4]!.metadata.text_as_html,
    '<table><tr><td>Name</td><td>Phone</td></tr><tr><td>Bolt Co Sheffield office</td><td>0114 555 0200</td></tr>' +
      '<tr><td>Outer A</td><td>inner 1 inner 2</td></tr></table>',
  );
});

test('doc: text deleted in a tracked change is left out, and the structure still read', async () => {
  const data = word97Doc([
    { text: 'Bicycles stay in the basement bike room.', deleted: [21, 30], sprms: [listLevel(0)] },
    cell('Name'), cell('Phone'), row([3000, 6000]),
    cellPara('Bolt Co'), cell('Sheffield office'), cell('0114 555 0200'), row([3000, 6000]),
  ]);
  const els = await partition('doc', data);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['ListItem', 'Bicycles stay in the bike room.'],
    ['Table', 'Name Phone Bolt Co Sheffield office 0114 555 0200'],
  ]);
});

test('doc: a non-breaking hyphen is a hyphen and an optional hyphen is not shown, as in DOCX', async () => {
  const els = await partition('doc', word97Doc([
    { text: 'A well\x1eknown supplier of hyphen\x1fated goods delivers every week.' },
    { text: 'Call 0114\x1e555\x1e0100 for the depot.', sprms: [listLevel(0)] },
  ]));
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['NarrativeText', 'A well-known supplier of hyphenated goods delivers every week.'],
    ['ListItem', 'Call 0114-555-0100 for the depot.'],
  ]);
});

test('doc: a one-cell table is a frame: its list items, paragraphs and the table nested in it read as in the body', async () => {
  const item = (text: string): DocPara => ({ text, sprms: [inTable(), listLevel(0)] });
  const innerCell = (text: string) => nested(text, [innerCellEnd()]);
  const innerRow = (): DocPara => ({ text: '', sprms: [inTable(), tableDepth(2), rowEnd([1500, 3000], true)] });
  const els = await partition('doc', word97Doc([
    item('Hello world one'), { ...item('Hello two'), mark: 'cell' }, row([9000]),
    { text: 'Some text before the framed table.' },
    innerCell('Tab1'), innerCell('Tab2'), innerRow(), innerCell('A'), innerCell('B'), innerRow(),
    cell(''), row([9000]),
    { text: 'Some text after the framed table.' },
  ]));
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['ListItem', 'Hello world one'],
    ['ListItem', 'Hello two'],
    ['NarrativeText', 'Some text before the framed table.'],
    ['Table', 'Tab1 Tab2 A B'],
    ['NarrativeText', 'Some text after the framed table.'],
  ]);
  assert.equal(els[3]!.metadata.text_as_html, '<table><tr><td>Tab1</td><td>Tab2</td></tr><tr><td>A</td><td>B</td></tr></table>');
});

test('doc: a header or footer repeated in several stories (first page, odd pages) is one element, its table row spaced', async () => {
  const header = ['Harbour Authority Report', 'Prepared by\x07the finance office\x07'];
  const data = word97Doc([{ text: 'The body paragraph of the annual report for the year.' }], [[], header, [], ['Page 1'], header, ['Page 1']]);
  const els = await partition('doc', data);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['Header', 'Harbour Authority Report\nPrepared by the finance office'],
    ['NarrativeText', 'The body paragraph of the annual report for the year.'],
    ['Footer', 'Page 1'],
  ]);
});

test('doc: the text boxes keep their list items and line breaks, after the body', async () => {
  const data = word97Doc([{ text: 'The body paragraph of the procedure for the year.' }], [], [
    { text: 'Suggested symptoms:\x0bFever\x0bCough', sprms: [listLevel(0)] },
    { text: 'A report must be submitted within a day.', sprms: [listLevel(0)] },
    { text: 'The school nurse keeps the records of every case.' },
  ]);
  const els = await partition('doc', data);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['NarrativeText', 'The body paragraph of the procedure for the year.'],
    ['ListItem', 'Suggested symptoms:\nFever\nCough'],
    ['ListItem', 'A report must be submitted within a day.'],
    ['NarrativeText', 'The school nurse keeps the records of every case.'],
  ]);
});

test('doc: each text box follows the paragraph its shape is anchored in (one anchored in a table cell, in the cell)', async () => {
  const data = word97Doc([
    { text: 'Quarterly Newsletter', sprms: [outline(0)] },
    { text: '\x08Our team grew by four people this spring.', shape: 1025 },
    cell('Site'), cell('Staff'), row([3000, 6000]),
    { text: '\x08Leeds', mark: 'cell', sprms: [inTable()], shape: 1026 }, cell('12'), row([3000, 6000]),
    { text: 'The new office opens in September after a long search.' },
  ], [], [
    { text: 'Editor: Priya Shah and the communications team.', shape: 1025 },
    { text: 'Send your stories to the editor by the first of the month.', shape: 1025 },
    { text: 'Leeds moved to larger premises in May of this year.', shape: 1026 },
  ]);
  const els = await partition('doc', data);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['Title', 'Quarterly Newsletter'],
    ['NarrativeText', 'Our team grew by four people this spring.'],
    ['NarrativeText', 'Editor: Priya Shah and the communications team.'],
    ['NarrativeText', 'Send your stories to the editor by the first of the month.'],
    ['Table', 'Site Staff Leeds Leeds moved to larger premises in May of this year. 12'],
    ['NarrativeText', 'The new office opens in September after a long search.'],
  ]);
});
