// Rows of an unruled table set apart by their cells' padding (an HTML table printed by a browser, a
// word processor's table without borders): a row's long cell wraps over several lines while its short
// cells stand on one of them, in the middle when cells are centred vertically. The lines of a row stand
// a line's spacing apart, rows further; each row is one row of the table, the lines of its last row
// included. Rows set close and spaced out in groups stay rows each.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const words = typeset({ size: 10, char: 5, space: 3 });
/** Cells left-aligned at 60, 130, 480 and 530 on the line whose top is y. */
const cells = (y: number, ...texts: string[]): Word[] => texts.flatMap((t, k) => (t ? words(t, [60, 130, 480, 530][k]!, y) : []));
const page = (lines: Word[]): RawPage => ({ page: 1, width: 612, height: 792, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 });
const rowsOf = (html: string) => [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1]!));

// a cell's lines 11.5 apart (1.5 between them), rows 8 points of padding further
const LINE = 11.5, PAD = 8;

it('cells centred in rows of wrapped descriptions: one row each, the last row\'s last line in it', () => {
  let y = 100;
  const at = (lines: number) => { const top = y; y += lines * LINE + PAD; return top; };
  const t0 = at(1), t1 = at(3), t2 = at(1), t3 = at(3);
  const lines = [
    words('The tasks below are done each season by the site team.', 60, 80),
    cells(t0, 'Task', 'Description', 'Hours', 'Crew'),
    cells(t1, '', 'Clear leaves and moss from every gutter and downpipe'),
    cells(t1 + LINE, 'Gutters', 'on the main building, then flush each run with', '6', '2'),
    cells(t1 + 2 * LINE, '', 'water to check that it drains freely.'),
    cells(t2, 'Boiler', 'Annual service by a registered engineer.', '3', '1'),
    cells(t3, '', 'Inspect slates, flashing and ridge tiles from the'),
    cells(t3 + LINE, 'Roof', 'scaffold tower and note any that are loose or', '5', '3'),
    cells(t3 + 2 * LINE, '', 'cracked for the contractor.'),
    words('Hours are per visit, and the crew is the number of people needed on site.', 60, y + 14),
  ].flat();
  const els = layoutPage(page(lines), { tables: true });
  assert.deepEqual(els.map((e) => e.type), ['NarrativeText', 'Table', 'NarrativeText'], JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(rowsOf(String(els[1]!.metadata.text_as_html)), [
    ['Task', 'Description', 'Hours', 'Crew'],
    ['Gutters', 'Clear leaves and moss from every gutter and downpipe on the main building, then flush each run with water to check that it drains freely.', '6', '2'],
    ['Boiler', 'Annual service by a registered engineer.', '3', '1'],
    ['Roof', 'Inspect slates, flashing and ridge tiles from the scaffold tower and note any that are loose or cracked for the contractor.', '5', '3'],
  ]);
});

it('short cells centred between the two lines of long descriptions (a landscape page): each pair of lines one row', () => {
  const desc = (y: number, t: string) => words(t, 130, y);
  // a description's two lines 11.5 apart; the row's short cells half a line down, between them
  const rowAt = (y: number, label: string, l1: string, l2: string, a: string, b: string) => [
    desc(y, l1), cells(y + LINE / 2, label, '', a, b), desc(y + LINE, l2),
  ].flat();
  const lines = [
    cells(100, 'Task', 'Description', 'Hours', 'Crew'),
    rowAt(100 + LINE + PAD, 'Gutters', 'Clear leaves and moss from every gutter and downpipe on the main', 'building, then flush each run.', '6', '2'),
    rowAt(100 + 3 * LINE + 2 * PAD, 'Roof', 'Inspect slates, flashing and ridge tiles from the scaffold tower', 'and note any that are loose.', '5', '3'),
    rowAt(100 + 5 * LINE + 3 * PAD, 'Doors', 'Check that every fire door closes fully on its own from any angle', 'and that none is wedged open.', '4', '2'),
  ].flat();
  const els = layoutPage(page(lines), { tables: true });
  assert.deepEqual(els.map((e) => e.type), ['Table'], JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(rowsOf(String(els[0]!.metadata.text_as_html)), [
    ['Task', 'Description', 'Hours', 'Crew'],
    ['Gutters', 'Clear leaves and moss from every gutter and downpipe on the main building, then flush each run.', '6', '2'],
    ['Roof', 'Inspect slates, flashing and ridge tiles from the scaffold tower and note any that are loose.', '5', '3'],
    ['Doors', 'Check that every fire door closes fully on its own from any angle and that none is wedged open.', '4', '2'],
  ]);
});

it('cells at the top of padded rows: the last row\'s wrapped lines, longer than sixty characters, stay in it', () => {
  const lines = [
    cells(100, 'Task', 'Description', 'Hours', 'Crew'),
    cells(100 + LINE + PAD, 'Boiler', 'Annual service by a registered engineer.', '3', '1'),
    cells(100 + 2 * (LINE + PAD), 'Roof', 'Inspect slates, flashing and ridge tiles from the', '5', '3'),
    cells(100 + 3 * LINE + 2 * PAD, '', 'scaffold tower on the north side, and note any that are loose, cracked'),
    cells(100 + 4 * LINE + 2 * PAD, '', 'or missing.'),
    words('Hours are per visit.', 60, 100 + 5 * LINE + 2 * PAD + 14),
  ].flat();
  const els = layoutPage(page(lines), { tables: true });
  assert.deepEqual(els.map((e) => e.type), ['Table', 'NarrativeText'], JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(rowsOf(String(els[0]!.metadata.text_as_html)).pop(), ['Roof', 'Inspect slates, flashing and ridge tiles from the scaffold tower on the north side, and note any that are loose, cracked or missing.', '5', '3']);
});

it('rows set close in groups spaced apart, a group\'s label on its own line: every line a row', () => {
  const fig = (y: number, label: string, a: string, b: string): Word[] => [...words(label, 60, y), ...words(a, 420, y), ...words(b, 470, y)];
  const lines = [
    fig(100, 'Item', '2025', '2024'),
    words('Current assets', 60, 100 + LINE + PAD),
    fig(100 + 2 * LINE + PAD, 'Cash', '1,200', '1,100'),
    fig(100 + 3 * LINE + PAD, 'Receivables', '800', '750'),
    words('Fixed assets', 60, 100 + 4 * LINE + 2 * PAD),
    fig(100 + 5 * LINE + 2 * PAD, 'Buildings', '5,000', '5,200'),
    fig(100 + 6 * LINE + 2 * PAD, 'Machinery', '2,300', '2,500'),
  ].flat();
  const els = layoutPage(page(lines), { tables: true });
  const t = els.find((e) => e.type === 'Table');
  assert.ok(t, JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(rowsOf(String(t.metadata.text_as_html)).map((r) => r[0]), ['Item', 'Current assets', 'Cash', 'Receivables', 'Fixed assets', 'Buildings', 'Machinery']);
});

it('rows padded apart, cells at the top of their rows: a short cell of the last row wrapped under it stays in that row', () => {
  // a browser's table, cells aligned to the top: "2" | "September" the last row's date wrapped in a
  // narrow column; a description's wrapped lines with a second cell in them ("miss") made the line
  // spacing the table's common gap, and the wrapped date came out as a heading after the table
  const at = (y: number, ...texts: string[]): Word[] => texts.flatMap((t, k) => (t ? words(t, [60, 130, 220, 290][k]!, y) : []));
  let y = 100;
  const next = (gap: number) => (y += LINE + gap);
  const lines = [
    words('Each incident of the season is listed below with its site and its kind.', 60, 80),
    at(y, 'Date', 'Site', 'Type', 'Description'),
    at(next(PAD), '3 July', 'Riverside', 'Near', 'A pallet fell from the second level of the racking'),
    at(next(0), '', '', 'miss', 'while it was lowered; nobody was hurt and the'),
    at(next(0), '', '', '', 'racking was checked the same day.'),
    at(next(PAD), '19 Aug', 'Northfield', 'Injury', 'Minor cut to a hand while opening a'),
    at(next(0), '', '', '', 'carton.'),
    at(next(PAD), '2', 'Eastgate', 'Damage', 'Forklift struck a door frame.'),
    at(next(0), 'Sept'),
    words('Actions from each incident are tracked in the safety log of the site.', 60, next(14)),
  ].flat();
  const els = layoutPage(page(lines), { tables: true });
  assert.deepEqual(els.map((e) => e.type), ['NarrativeText', 'Table', 'NarrativeText'], JSON.stringify(els.map((e) => [e.type, e.text])));
  assert.deepEqual(rowsOf(String(els[1]!.metadata.text_as_html)).map((r) => r[0]), ['Date', '3 July', '19 Aug', '2 Sept']);
});

it('rows a word processor pads apart by a few points (cell margins): a label and a note wrapped in one row stay in it', () => {
  // LibreOffice's table without borders: rows 3 points further apart than a cell's lines; "Long" |
  // "Water" and "New hide" | "open" wrapped in narrow columns made a row of their own, and the last
  // row's wrapped "permit" a heading after the table
  const at = (y: number, ...texts: string[]): Word[] => texts.flatMap((t, k) => (t ? words(t, [60, 150, 200, 250, 300][k]!, y) : []));
  let y = 100;
  const next = (gap: number) => (y += LINE + gap);
  const lines = [
    words('The counts of each site over the season are listed below for the trust.', 60, 80),
    at(y, 'Site', 'Visits', 'Birds', 'Kinds', 'Notes'),
    at(next(3), 'Mill Pond', '4', '312', '21', 'Reeds cut'),
    at(next(0), '', '', '', '', 'in May'),
    at(next(3), 'Black Tarn', '3', '145', '12', 'Water level low'),
    at(next(3), 'Long', '5', '488', '27', 'New hide'),
    at(next(0), 'Water', '', '', '', 'open'),
    at(next(3), 'Old Quarry', '2', '64', '9', 'Access by'),
    at(next(0), '', '', '', '', 'permit'),
    words('Counts are of birds seen on the water and its banks during each visit.', 60, next(14)),
  ].flat();
  const els = layoutPage(page(lines), { tables: true });
  assert.deepEqual(els.map((e) => e.type), ['NarrativeText', 'Table', 'NarrativeText'], JSON.stringify(els.map((e) => [e.type, e.text])));
  assert.deepEqual(rowsOf(String(els[1]!.metadata.text_as_html)), [
    ['Site', 'Visits', 'Birds', 'Kinds', 'Notes'], ['Mill Pond', '4', '312', '21', 'Reeds cut in May'], ['Black Tarn', '3', '145', '12', 'Water level low'],
    ['Long Water', '5', '488', '27', 'New hide open'], ['Old Quarry', '2', '64', '9', 'Access by permit'],
  ]);
});

it('rows padded apart, cells at the top, two columns wrapping together: each record one row', () => {
  // a word processor's borderless table (LibreOffice from a pandoc docx): the item's name and its
  // notes both wrap, so lines of two cells each follow a row's first line at the line spacing; the
  // fullest line of each record is its first
  let y = 100;
  const rec = (...lines: string[][]) => { const top = y; y += lines.length * LINE + PAD; return lines.flatMap((l, k) => cells(top + k * LINE, ...l)); };
  const lines = [
    words('The table lists the equipment a beginner needs in the first season.', 60, 80),
    rec(['Item', 'Notes', 'Qty', 'Price']),
    rec(['Langstroth', 'Includes floor,', '1', '185.00'], ['hive,', 'brood box'], ['complete', 'and roof']),
    rec(['Super with', 'Add in May when the', '2', '64.50'], ['frames', 'colony grows']),
    rec(['Bee suit', 'Choose a size that fits', '1', '79.90'], ['', 'over clothes']),
    rec(['Smoker', 'Stainless steel', '1', '32.00']),
  ].flat();
  const els = layoutPage(page(lines), { tables: true });
  const t = els.find((e) => e.type === 'Table');
  assert.ok(t, JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(rowsOf(String(t.metadata.text_as_html)), [
    ['Item', 'Notes', 'Qty', 'Price'],
    ['Langstroth hive, complete', 'Includes floor, brood box and roof', '1', '185.00'],
    ['Super with frames', 'Add in May when the colony grows', '2', '64.50'],
    ['Bee suit', 'Choose a size that fits over clothes', '1', '79.90'],
    ['Smoker', 'Stainless steel', '1', '32.00'],
  ]);
});

it('rows padded apart whose cells\' lines are set loosely (a browser\'s line height of 1.45): each record one row, the last one\'s wrapped option included', () => {
  // a cell's lines 14.3 apart (4.3 between them, over 0.3 of the text size), rows 8 points further
  const loose = 14.3;
  let y = 100;
  const rec = (...lines: string[][]) => { const top = y; y += lines.length * loose + PAD; return lines.flatMap((l, k) => cells(top + k * loose, ...l)); };
  const lines = [
    words('The options of the tool are listed below with their defaults.', 60, 80),
    rec(['Option', 'Description', 'Default']),
    rec(['--dry-run', 'Print the operations without changing anything.', 'false']),
    rec(['--exclude', 'Skip files whose path matches the pattern; may be', 'none'], ['PATTERN', 'given several times.']),
    rec(['--jobs', 'Number of parallel transfers.', '4']),
    rec(['--log-file', 'Write the log to the given file.', 'stderr'], ['PATH']),
  ].flat();
  const els = layoutPage(page(lines), { tables: true });
  assert.deepEqual(els.map((e) => e.type), ['NarrativeText', 'Table'], JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(rowsOf(String(els[1]!.metadata.text_as_html)), [
    ['Option', 'Description', 'Default'],
    ['--dry-run', 'Print the operations without changing anything.', 'false'],
    ['--exclude PATTERN', 'Skip files whose path matches the pattern; may be given several times.', 'none'],
    ['--jobs', 'Number of parallel transfers.', '4'],
    ['--log-file PATH', 'Write the log to the given file.', 'stderr'],
  ]);
});
