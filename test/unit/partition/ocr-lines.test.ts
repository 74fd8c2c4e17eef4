// OCR lines side by side at one height are one line across the page (ocr/layout.ts acrossPage), as
// the text layer groups lines: the OCR reads a table that spans a page's column gutter as a block a
// side, and its rows came out as two tables, the left halves and the right halves.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ocrPageElements } from '../../../lambdas/engine/partition/ocr/layout';
import type { OcrLine, OcrResult } from '../../../lambdas/engine/partition/ocr/tesseract';

const H = 24, CH = 13;
/** An OCR line of cells [text, x] at y (words 13 px a character, 8 px apart). */
function line(y: number, cells: [string, number][]): OcrLine {
  const words = cells.flatMap(([t, x]) => {
    let cx = x;
    return t.split(' ').map((w) => { const o = { text: w, confidence: 95, x0: cx, y0: y, x1: cx + CH * w.length, y1: y + H }; cx = o.x1 + 8; return o; });
  });
  return { words, x0: words[0]!.x0, y0: y, x1: words.at(-1)!.x1, y1: y + H };
}
const prose = (x: number, y: number) => line(y, [['the text of this column runs on over its lines here', x]]);

it('a table across a two-column page read as a block a side is one table', () => {
  const rows: [string, string, string, string][] = [['Class', 'Count', 'All', 'Fin'], ['Caption', '22524', '84-89', '40-61'], ['Footnote', '6318', '83-91', 'n/a'], ['Formula', '25027', '83-85', 'n/a']];
  const left = rows.map((r, i) => line(400 + 40 * i, [[r[0], 200], [r[1], 420]]));
  const right = rows.map((r, i) => line(400 + 40 * i, [[r[2], 900], [r[3], 1120]]));
  const cols = [0, 1, 2, 3, 4, 5].flatMap((i) => [prose(100, 100 + 40 * i), prose(860, 100 + 40 * i)]);
  const after = [0, 1, 2, 3].flatMap((i) => [prose(100, 700 + 40 * i), prose(860, 700 + 40 * i)]);
  // Tesseract's order: the left column's blocks, then the right column's
  const ocr: OcrResult = { lines: [...cols.filter((_, k) => k % 2 === 0), ...left, ...after.filter((_, k) => k % 2 === 0), ...cols.filter((_, k) => k % 2 === 1), ...right, ...after.filter((_, k) => k % 2 === 1)], confidence: 95 };
  const els = ocrPageElements(ocr, 1, 1600, 2000, { coordinates: false, languages: ['eng'], tableHtml: true });
  const tables = els.filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1, JSON.stringify(els.map((e) => [e.type, e.text])));
  assert.equal(tables[0]!.text, rows.flat().join(' '));
});

it('a footnote mark read as punctuation keeps its word, and a word too unsure to keep leaves no column gap', () => {
  // "storm.!" (the raised "1" after "storm." read as "!", confidence 17) was dropped, and the hole it
  // left split its line in two: "... within hours of a" and "This makes them ..." as two paragraphs
  const para = (y: number, t: string, unsure: Record<string, number> = {}): OcrLine => {
    const l = line(y, [[t, 100]]);
    for (const w of l.words) if (unsure[w.text] !== undefined) w.confidence = unsure[w.text]!;
    return l;
  };
  const ocr: OcrResult = {
    lines: [
      para(100, 'Small catchments respond quickly to rainfall and their flow changes within'),
      para(140, 'hours of a storm.! This makes them useful for studying how soils store water', { 'storm.!': 17 }),
      para(180, 'between events and how that storage changes with the seasons of the whole year', { 'storage': 8 }),
      para(220, 'in every catchment we looked at.'),
    ],
    confidence: 90,
  };
  const els = ocrPageElements(ocr, 1, 1600, 2000, { coordinates: false, languages: ['eng'], tableHtml: true });
  assert.deepEqual(els.map((e) => e.type), ['NarrativeText'], JSON.stringify(els.map((e) => [e.type, e.text])));
  assert.match(els[0]!.text, /hours of a storm\.! This makes them useful/);
  assert.match(els[0]!.text, /how that changes with the seasons/);
});

it('bullets read as a letter are bullets, and a mark read in a blank between headers is no word', () => {
  // Tesseract reads a list's round bullet as "e" (unsure), and the blank between two table headers
  // as "~~": the items were paragraphs opening with "e", and the headers one segment the table left out
  const at = (y: number, cells: [string, number][], unsure: Record<string, number> = {}): OcrLine => {
    const l = line(y, cells);
    for (const w of l.words) if (unsure[w.text] !== undefined) w.confidence = unsure[w.text]!;
    return l;
  };
  const ocr: OcrResult = {
    lines: [
      at(100, [['The stations fall into two groups by how fast they recede:', 100]]),
      at(140, [['e', 130], ['Upland stations recede faster than lowland ones', 170]], { e: 25 }),
      at(180, [['e', 130], ['The difference between seasons is larger', 170]], { e: 56 }),
      at(260, [['Season', 200], ['~~', 300], ['Upland', 360], ['Lowland', 500], ['Total', 640]], { '~~': 31 }),
      at(300, [['Winter', 200], ['12.4', 386], ['18.1', 539], ['15.2', 653]]),
      at(340, [['Spring', 200], ['9.8', 399], ['14.6', 539], ['12.0', 653]]),
      at(380, [['Summer', 200], ['6.1', 399], ['9.9', 552], ['7.7', 666]]),
    ],
    confidence: 90,
  };
  const els = ocrPageElements(ocr, 1, 1600, 2000, { coordinates: false, languages: ['eng'], tableHtml: true });
  const out = els.map((e) => [e.type, e.text]);
  assert.deepEqual(out.slice(1, 3), [['ListItem', 'Upland stations recede faster than lowland ones'], ['ListItem', 'The difference between seasons is larger']], JSON.stringify(out));
  assert.deepEqual(out[3], ['Table', 'Season Upland Lowland Total Winter 12.4 18.1 15.2 Spring 9.8 14.6 12.0 Summer 6.1 9.9 7.7'], JSON.stringify(out));
});

it('a line of body text without descenders is set in the page\'s size: a justified space after a sentence keeps it whole, its paragraph too', () => {
  // the OCR's boxes of a line with no descender are shorter (19 px, not 24): its size read smaller, a
  // justified line's space after a sentence (2.5 characters) split it, and its paragraph parted there
  const words = (y: number, t: string, h: number, gapAfter: Record<string, number> = {}): OcrLine => {
    let x = 100;
    const ws = t.split(' ').map((w) => { const o = { text: w, confidence: 95, x0: x, y0: y, x1: x + CH * w.length, y1: y + h }; x = o.x1 + (gapAfter[w] ?? 8); return o; });
    return { words: ws, x0: 100, y0: y, x1: ws.at(-1)!.x1, y1: y + h };
  };
  const ocr: OcrResult = {
    lines: [
      words(100, 'the passages that hold the answer are ranked by the reader', H),
      words(133, 'as a score. Then a reader model marks each answer', 19, { 'score.': 33 }),
      words(166, 'span in the top passages and the best one is kept', H),
    ],
    confidence: 95,
  };
  const els = ocrPageElements(ocr, 1, 1600, 2000, { coordinates: false, languages: ['eng'], tableHtml: true });
  assert.deepEqual(els.map((e) => e.text), ['the passages that hold the answer are ranked by the reader as a score. Then a reader model marks each answer span in the top passages and the best one is kept']);
});

it('a stamp set on its side in the margin, as tall as many lines, joins none of them', () => {
  const stamp: OcrLine = { words: [{ text: 'arXiv:2001.00001v1', confidence: 90, x0: 20, y0: 100, x1: 60, y1: 700 }], x0: 20, y0: 100, x1: 60, y1: 700 };
  const texts = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'].map((n) => `line ${n} of the text of this column runs on here`);
  const body = texts.map((t, i) => line(289 + 33 * i, [[t, 200]])); // the fourth centred on the stamp
  const els = ocrPageElements({ lines: [stamp, ...body], confidence: 95 }, 1, 1600, 2000, { coordinates: false, languages: ['eng'], tableHtml: true });
  // the line at the stamp's middle height was read with it, first of the column, and parted the paragraph
  assert.deepEqual(els.map((e) => e.text), ['arXiv:2001.00001v1', texts.join(' ')]);
});
