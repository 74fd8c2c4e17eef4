// A paper's page (issue 29): a title and authors across the top, two justified columns below, and an
// unruled table of figures in the right column. Two things broke it:
// - the title and author lines cross the gutter, so no gutter ran clear down the page and the
//   table search looked at both columns at once: the table took the left column's lines at the
//   heights of its rows as cells;
// - a justified line whose spaces the justifier stretched past about an em came out as one segment a
//   word, a row of "cells" of its own.
// The PDF is built here; every line and cell is placed from the widths the PDF declares.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { tablePdf, textWidth, type PageOptions } from '../../../support/table-pdf';

after(async () => { await shutdownPagePool(); });

const SIZE = 9;
const LEFT = [
  'Retrieval systems depend on clean text. When documents',
  'are converted without their structure, headings merge',
  'with paragraphs, tables lose their rows and the lists',
  'lose their items. This work measures how much of that',
  'structure survives the conversion and what it costs in',
  'recall. We contribute a benchmark of documents, a method',
  'that keeps the layout cues, and an analysis of where the',
  'conversion fails on documents from many producers. The',
  'earlier systems relied on parsers that read the text of',
  'each page in content order and broke on multiple columns.',
];
/** Stretched by the justifier: each space this wide (1.5 em), every word its own segment. */
const STRETCHED = 'report figures from eleven separate sources';
const RIGHT = [
  'Tables without vertical rules are common in the papers',
  'of every field. The table below lists the results of the',
  'methods we compared on the benchmark for each measure.',
];
const ROWS = [['Method', 'Precision', 'Recall', 'F1'], ['Rules', '0.71', '0.64', '0.67'], ['Layout', '0.88', '0.83', '0.85'], ['Ours', '0.93', '0.91', '0.92']];
const AFTER = ['The method that keeps the structure is best on every', 'measure, most of all on recall of the table cells.'];

/** The page; `right`: where the right column starts (the gutter after the left column's longest line, about 306). */
function paper(right = 320): Uint8Array {
  const o: PageOptions = { size: SIZE };
  const text: NonNullable<PageOptions['text']> = [];
  const centred = (t: string, y: number, size: number) => text.push({ x: 306 - textWidth(t, { size }) / 2, y, t, size });
  centred('Structured Elements for Retrieval Systems', 740, 16);
  centred('A. Author and B. Writer', 715, 11);
  LEFT.forEach((t, i) => text.push({ x: 50, y: 680 - i * 13, t }));
  let x = 50;
  for (const w of STRETCHED.split(' ')) { text.push({ x, y: 680 - LEFT.length * 13, t: w }); x += textWidth(w, o) + 1.5 * SIZE; }
  RIGHT.forEach((t, i) => text.push({ x: right, y: 680 - i * 13, t }));
  AFTER.forEach((t, i) => text.push({ x: right, y: 560 - i * 13, t }));
  return tablePdf([{
    tables: [{ rows: ROWS, x: right + 10, top: 636, rowHeight: 14, rules: false, colWidths: [70, 60, 50, 40] }],
    options: { ...o, text, width: 612, height: 792 },
  }]);
}

for (const [name, right] of [['', 320], [' (a gutter of little more than an em)', 303]] as const) it(`a two-column page under a title: the table holds its own rows only, a stretched line stays in its paragraph${name}`, async () => {
  const r = await partition({ data: paper(right), filename: 'paper.pdf' }, { strategy: 'fast' });
  const dump = r.elements.map((e) => `${e.type}: ${e.text}`).join('\n');
  const tables = r.elements.filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1, dump);
  assert.equal(tables[0]!.text, ROWS.flat().join(' '), dump);
  const prose = r.elements.filter((e) => e.type !== 'Table').map((e) => e.text).join('\n');
  assert.ok(prose.includes(`${LEFT[LEFT.length - 1]} ${STRETCHED}`), `the stretched line follows its paragraph:\n${dump}`);
  for (const t of [...LEFT, ...RIGHT, ...AFTER]) assert.ok(prose.includes(t), `"${t}" kept as text:\n${dump}`);
});
