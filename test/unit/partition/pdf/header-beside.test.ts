// A column's header set beside its values rather than over them: a spreadsheet or a word processor's
// table printed to PDF aligns text left in its cell and figures right, so in a column wider than both a
// short header and short figures do not overlap ("Total" at the cell's left, "16,329" at its right).
// Header and values are one column; a header with values under it, and a column of its own with only a
// header (nothing under it at all), stay as they are.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const words = typeset({ size: 10, char: 5, space: 3 });
const page = (lines: Word[]): RawPage => ({ page: 1, width: 612, height: 792, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 });
const rowsOf = (html: string) => [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1]!));
/** Cells 80 points wide from x = 60: text left-aligned in its cell, figures right-aligned. */
const CELL = 80;
const row = (y: number, ...texts: string[]): Word[] => texts.flatMap((t, k) => {
  if (!t) return [];
  const x = 60 + k * CELL;
  return /^[\d,.%-]+$/.test(t) ? words(t, x + CELL - 4 - 5 * t.length, y) : words(t, x + 4, y);
});

it('a header left-aligned in its cell over right-aligned figures is one column with them', () => {
  const els = layoutPage(page([
    words('Units sold in each region over the year, by quarter and in total.', 60, 80),
    row(110, 'Region', 'Q1', 'Q2', 'Total'),
    row(125, 'North', '2,949', '5,854', '8,803'),
    row(140, 'South', '5,947', '4,883', '10,830'),
    row(155, 'East', '1,107', '8,445', '9,552'),
  ].flat()), { tables: true });
  const table = els.find((e) => e.type === 'Table');
  assert.ok(table, JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(rowsOf(String(table.metadata.text_as_html)), [
    ['Region', 'Q1', 'Q2', 'Total'],
    ['North', '2,949', '5,854', '8,803'],
    ['South', '5,947', '4,883', '10,830'],
    ['East', '1,107', '8,445', '9,552'],
  ]);
});

it('a header column with nothing under it, far from its neighbour, stays a column', () => {
  const els = layoutPage(page([
    words('Units sold in each region over the year, by quarter, with a column for notes.', 60, 80),
    row(110, 'Region', 'Q1', 'Q2', '', '', 'Notes'),
    row(125, 'North', '2,949', '5,854'),
    row(140, 'South', '5,947', '4,883'),
    row(155, 'East', '1,107', '8,445'),
  ].flat()), { tables: true });
  const table = els.find((e) => e.type === 'Table');
  assert.ok(table, JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(rowsOf(String(table.metadata.text_as_html))[0], ['Region', 'Q1', 'Q2', 'Notes']);
  assert.deepEqual(rowsOf(String(table.metadata.text_as_html))[1], ['North', '2,949', '5,854', '']);
});

it('a label centred between two rows (a cell spanning them, set midway) heads the first of them, not a row of its own', () => {
  // rows 22 points apart, the label "Lake" midway between the two lake rows, "Pond" between header rows
  /** Every cell left-aligned in its column. */
  const left = (y: number, ...texts: string[]): Word[] => texts.flatMap((t, k) => (t ? words(t, 60 + k * CELL + 4, y) : []));
  const els = layoutPage(page([
    words('Birds counted on each pond, by season, with the lake counted at two of its shores.', 60, 80),
    left(100, '', 'Spring', '', 'Autumn'),
    left(116, 'Pond'),
    left(132, '', 'Ducks', 'Grebes', 'Ducks', 'Grebes'),
    left(154, 'North', '12', '2', '15', '1'),
    left(176, '', '44', '9', '51', '7'),
    left(187, 'Lake'),
    left(198, '', '20', '3', '18', '2'),
    words('The lake is counted from two places on its shore.', 60, 230),
  ].flat()), { tables: true });
  const table = els.find((e) => e.type === 'Table');
  assert.ok(table, JSON.stringify(els.map((e) => e.text)));
  assert.equal(table.text, 'Pond Spring Autumn Ducks Grebes Ducks Grebes North 12 2 15 1 Lake 44 9 51 7 20 3 18 2');
});
