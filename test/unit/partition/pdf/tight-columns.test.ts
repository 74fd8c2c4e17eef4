// Borderless tables whose columns are set barely further apart than words, or nearer: a word
// processor's default cell margins (a few points each side) or a browser's table printed (a pixel of
// padding). The line's segmenting takes two cells for one ("North 12"); the rows that start a cell
// there, or repeat the same wide gap, split it. Words of one cell that merely line up (a date column)
// stay together.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const words = typeset({ size: 10, char: 5, space: 3 });
const page = (lines: Word[]): RawPage => ({ page: 1, width: 612, height: 792, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 });
const rowsOf = (html: string) => [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1]!));
const width = (t: string) => 5 * t.length + 3 * (t.split(' ').length - 1);

/**
 * A table's rows with every column `gap` points past its widest cell; a column's cells left-aligned,
 * or right-aligned where `right` says so.
 */
function table(rows: string[][], gap: number, top: number, right: boolean[] = []): Word[] {
  const starts: number[] = [60];
  for (let k = 1; k < rows[0]!.length; k++) starts.push(starts[k - 1]! + Math.max(...rows.map((r) => width(r[k - 1]!))) + gap);
  const widest = rows[0]!.map((_, k) => Math.max(...rows.map((r) => width(r[k]!))));
  return rows.flatMap((r, i) => r.flatMap((t, k) => (t ? words(t, right[k] ? starts[k]! + widest[k]! - width(t) : starts[k]!, top + 15 * i) : [])));
}

const lead = words('The counts below were made at dawn on each visit to the four ponds.', 60, 80);
const ponds = [
  ['Site', 'Spring', 'Autumn', 'Notes'],
  ['North', '12', '9', 'Reeds cut'],
  ['South', '4', '3', 'Ice'],
  ['East', '44', '51', 'Quiet'],
  ['West', '7', '8', 'Dog walkers'],
];

for (const [what, gap] of [['a word processor\'s cell margins (5 points apart, word spaces 3)', 5], ['a browser\'s pixel of padding (2.5 points apart, narrower than a word space)', 2.5]] as const) {
  it(`left-aligned columns set close, ${what}, are the table's columns`, () => {
    const els = layoutPage(page([...lead, ...table(ponds, gap, 110)]), { tables: true });
    const t = els.find((e) => e.type === 'Table');
    assert.ok(t, JSON.stringify(els.map((e) => e.text)));
    assert.deepEqual(rowsOf(String(t.metadata.text_as_html)), ponds);
    assert.equal(t.text, ponds.flat().join(' '));
  });
}

it('right-aligned figures set close to the next column split at the gap every row repeats', () => {
  const staff = [
    ['Name', 'Role', 'Office', 'Years', 'Salary'],
    ['Ann Lee', 'Lead engineer', 'Berlin', '7', '91,000'],
    ['Bob Stone', 'Designer', 'Paris', '3', '64,500'],
    ['Carla Diaz', 'Support', 'Madrid', '12', '52,250'],
    ['Dan Wu', 'Engineer', 'Berlin', '1', '70,000'],
  ];
  const els = layoutPage(page([...lead, ...table(staff, 5, 110, [false, false, false, true, true])]), { tables: true });
  const t = els.find((e) => e.type === 'Table');
  assert.ok(t, JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(rowsOf(String(t.metadata.text_as_html)), staff);
});

it('the words of one cell that line up row after row (a date column) stay one cell', () => {
  const paid = [
    ['Invoice', 'Paid on', 'Amount'],
    ['A-101', '12 March 2020', '1,200.00'],
    ['A-102', '14 March 2021', '310.50'],
    ['A-103', '18 March 2022', '99.00'],
    ['A-104', '21 March 2023', '4,020.75'],
  ];
  const els = layoutPage(page([...lead, ...table(paid, 20, 110, [false, false, true])]), { tables: true });
  const t = els.find((e) => e.type === 'Table');
  assert.ok(t, JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(rowsOf(String(t.metadata.text_as_html)), paid);
});

it('a description whose second words line up after first words of nearly one width stays one cell', () => {
  // "Transaction Code", "Transaction Date" and "Designated Payment": the second words start together,
  // the first end within a word space of each other (a manual's field list, not two columns)
  const line = (y: number, a: string, b: string, first: string, firstX: number, rest: string): Word[] =>
    [...words(a, 60, y), ...words(b, 80, y), ...words(first, firstX, y), ...words(rest, 178, y)];
  const els = layoutPage(page([
    ...lead,
    ...line(110, '8', '01-03', 'Transaction', 120, 'Code 700'),
    ...line(125, '8', '06-13', 'Transaction', 120, 'Date'),
    ...line(140, '8', '15-35', 'Transaction', 120, 'Amount'),
    ...line(155, '8', '68-69', 'Designated', 123.6, 'Payment Indicator'),
  ]), { tables: true });
  const t = els.find((e) => e.type === 'Table');
  assert.ok(t, JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(rowsOf(String(t.metadata.text_as_html)).map((r) => r[r.length - 1]), ['Transaction Code 700', 'Transaction Date', 'Transaction Amount', 'Designated Payment Indicator']);
});

it('a table whose every column some row runs into (a browser\'s, its header centred) is found and split', () => {
  // no gap runs down the whole table: the header's last three cells are one segment, and the first
  // column's two longest cells run into the second column's figures; the rows that part at each column
  // start place them (Chromium's table with 3 px of cell padding, its first header centred)
  const rows: [string, number][][] = [
    [['Pond', 75], ['Spring', 118], ['Summer', 153], ['Autumn', 188]],
    [['Mill pond', 60], ['12', 118], ['30', 153], ['18', 188]],
    [['Long water', 60], ['7', 118], ['21', 153], ['9', 188]],
    [['Church pool', 60], ['3', 118], ['11', 153], ['4', 188]],
  ];
  const after = words('Counts rose in summer at every pond, and fell again by the autumn visits.', 60, 185);
  const els = layoutPage(page([...lead, ...rows.flatMap((r, i) => r.flatMap(([t, x]) => words(t, x, 110 + 15 * i))), ...after]), { tables: true });
  const t = els.find((e) => e.type === 'Table');
  assert.ok(t, JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(rowsOf(String(t.metadata.text_as_html)), rows.map((r) => r.map(([c]) => c)));
});

it('one-word headers centred in cells set a cell margin apart are cells, not one text spanning the columns', () => {
  // LibreOffice's borderless table (the word boxes of its PDF, 12-point text): the header's words are
  // 5.4 and 6.5 points apart, under half an em but half again the names' word space (3.8), each
  // centred over its column; the first column's longest name runs into its row's figure
  const box = (t: string, x0: number, x1: number, y: number): Word => ({ t, x0, x1, y0: y, y1: y + 12, size: 12, bold: false, italic: false });
  const grid: [string, number, number][][] = [
    [['Pond', 79.9, 114.0], ['Spring', 139.8, 184.8], ['Summer', 190.2, 247.0], ['Autumn', 253.5, 307.3]],
    [['Mill', 58.2, 81.9], ['pond', 85.8, 116.1], ['12', 138.5, 153.7], ['30', 188.8, 204.0], ['18', 251.1, 266.3]],
    [['Long', 58.2, 88.8], ['water', 92.6, 127.7], ['7', 138.5, 146.1], ['21', 188.8, 204.0], ['9', 251.1, 258.7]],
    [['Church', 58.2, 103.0], ['pool', 106.8, 132.7], ['3', 138.5, 146.1], ['11', 188.8, 204.0], ['4', 251.1, 258.7]],
  ];
  const lines = grid.flatMap((r, i) => r.map(([t, x0, x1]) => box(t, x0, x1, 120 + 31 * i)));
  const els = layoutPage(page([...typeset({ size: 12 })('The counts below were made at dawn on each visit to the four ponds of the estate.', 58, 80), ...lines]), { tables: true });
  const t = els.find((e) => e.type === 'Table');
  assert.ok(t, JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(rowsOf(String(t.metadata.text_as_html)), [['Pond', 'Spring', 'Summer', 'Autumn'], ['Mill pond', '12', '30', '18'], ['Long water', '7', '21', '9'], ['Church pool', '3', '11', '4']]);
});
