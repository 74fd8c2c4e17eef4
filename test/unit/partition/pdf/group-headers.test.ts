// A borderless table under a two-line header: group labels centred over pairs of columns on the first
// line ("PubTabNet" over "TEDS | mAP"), the sub-column labels on the second, and the first column's
// label set between the two lines, spanning both (LaTeX's \multirow, a browser's <th rowspan=2>,
// vertically centred). A paper's results table is set so. The two header lines are two rows: the group
// labels span their columns (colspan), the label between the lines spans both rows (rowspan), and the
// text reads row by row. The group line was taken for the top of wrapped cells ("PubTabNet TEDS").
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const SIZE = 9;
const words = typeset({ size: SIZE, char: 4.5, space: 2.5 });
const width = (t: string) => 4.5 * t.length + 2.5 * (t.split(' ').length - 1);
const page = (ws: Word[]): RawPage => ({ page: 1, width: 612, height: 792, lines: wordsToLines(ws), links: [], images: [], chars: 0, unmapped: 0, rules: { h: [], v: [] } });
const cellsOf = (html: string) => [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<t[dh]([^>]*)>(.*?)<\/t[dh]>/g)].map((c) => `${c[2]}${c[1]}`));

const X = [80, 130, 175, 220, 265];
const BODY = [['EDD', '88.3', '78.1', '90.6', '80.2'], ['GTE', '93.0', '85.4', '91.0', '84.7'], ['Ours', '96.1', '90.2', '95.8', '89.9'], ['Base', '71.4', '60.2', '70.9', '58.8']];
const centredOver = (t: string, a: number, b: number, y: number, dx: number) => words(t, dx + (X[a]! + X[b]! + width(BODY[0]![b]!)) / 2 - width(t) / 2, y);

type Label = 'first' | 'second' | 'between, nearer the second' | 'between, nearer the first';
/** The table at `top`: the group line, the sub-column line 12.5 points (a line's pitch) below, the body. */
function table(top: number, label: Label, dx = 0): Word[] {
  const second = top + 12.5;
  const labelY = top + { first: 0, second: 12.5, 'between, nearer the second': 7, 'between, nearer the first': 5.5 }[label];
  return [
    ...words('Model', dx + X[0]!, labelY),
    ...centredOver('PubTabNet', 1, 2, top, dx), ...centredOver('FinTabNet', 3, 4, top, dx),
    ...['TEDS', 'mAP', 'TEDS', 'mAP'].flatMap((t, k) => words(t, dx + X[k + 1]!, second)),
    ...BODY.flatMap((r, i) => r.flatMap((t, k) => words(t, dx + X[k]!, second + 18 + 12.5 * i))),
  ];
}
const lead = words('The scores of each model on the two benchmarks are listed below for reference.', 80, 80);

for (const label of ['between, nearer the second', 'between, nearer the first', 'first', 'second'] as const) {
  const between = label.startsWith('between');
  it(`a two-line header with group labels reads as two rows (the first column's label ${between ? `${label} line` : `on the ${label} line`})`, () => {
    const els = layoutPage(page([...lead, ...table(110, label)]), { tables: true });
    const t = els.find((e) => e.type === 'Table');
    assert.ok(t, JSON.stringify(els.map((e) => e.text)));
    const rows = cellsOf(String(t.metadata.text_as_html));
    const modelCell = label === 'second' ? [] : [between ? 'Model rowspan="2"' : 'Model'];
    assert.deepEqual(rows.slice(0, 2).map((r) => r.filter((c) => c !== '')), [
      [...modelCell, 'PubTabNet colspan="2"', 'FinTabNet colspan="2"'],
      [...(label === 'second' ? ['Model'] : []), 'TEDS', 'mAP', 'TEDS', 'mAP'],
    ]);
    assert.deepEqual(rows.slice(2), BODY);
    const head = label === 'second' ? 'PubTabNet FinTabNet Model TEDS mAP TEDS mAP' : 'Model PubTabNet FinTabNet TEDS mAP TEDS mAP';
    assert.equal(t.text, `${head} ${BODY.flat().join(' ')}`);
  });
}

it('a heading in the other page column at the header\'s height does not join the label between the lines to either', () => {
  // a paper in two columns: the table at the top of the right column, a larger heading in the left one
  // level with the label between the header lines (lines are first grouped across the page)
  const prose = (x: number, y: number) => words('the model reads each page of the scanned form in turn and', x, y);
  const heading = typeset({ size: 12, char: 6, space: 3 })('Abstract', 60, 116.5);
  const left = [...heading, ...[132, 144.5, 157, 169.5, 182, 194.5].flatMap((y) => prose(60, y))];
  const right = [...table(110, 'between, nearer the second', 260), ...[200, 212.5, 225, 237.5].flatMap((y) => prose(340, y))];
  const els = layoutPage(page([...left, ...right]), { tables: true });
  const t = els.find((e) => e.type === 'Table');
  assert.ok(t, JSON.stringify(els.map((e) => e.text)));
  assert.equal(t.text, `Model PubTabNet FinTabNet TEDS mAP TEDS mAP ${BODY.flat().join(' ')}`);
  assert.deepEqual(cellsOf(String(t.metadata.text_as_html))[0], ['Model rowspan="2"', 'PubTabNet colspan="2"', 'FinTabNet colspan="2"']);
});

it('a group label narrower than its sub-columns spans the run of them it is centred over', () => {
  // "Top-20" centred over three sub-columns, though it covers only the middle one's width; the first
  // column's label on the group labels' line
  const xs = [80, 140, 185, 230, 285, 330, 375];
  const subs = ['NQ', 'WQ', 'TQ', 'NQ', 'WQ', 'TQ'];
  const body = [['BM25', '59.1', '55.0', '66.9', '73.7', '71.1', '76.7'], ['DPR', '78.4', '73.2', '79.4', '85.4', '81.4', '85.0'], ['Both', '76.6', '71.0', '79.8', '83.8', '80.5', '84.5']];
  const over = (t: string, a: number, b: number) => words(t, (xs[a]! + xs[b]! + width('73.7')) / 2 - width(t) / 2, 110);
  const els = layoutPage(page([
    ...lead, ...words('Model', xs[0]!, 110), ...over('Top-20', 1, 3), ...over('Top-100', 4, 6),
    ...subs.flatMap((t, k) => words(t, xs[k + 1]!, 122.5)),
    ...body.flatMap((r, i) => r.flatMap((t, k) => words(t, xs[k]!, 140.5 + 12.5 * i))),
  ]), { tables: true });
  const t = els.find((e) => e.type === 'Table');
  assert.ok(t, JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(cellsOf(String(t.metadata.text_as_html)).slice(0, 2), [['Model', 'Top-20 colspan="3"', 'Top-100 colspan="3"'], ['', ...subs]]);
  assert.equal(t.text, `Model Top-20 Top-100 ${subs.join(' ')} ${body.flat().join(' ')}`);
});

it('a table stretched to the page width (a browser\'s width: 100%): labels centred over wide cells, the label spanning the two header rows set close', () => {
  // As a browser prints it: header rows 14 points apart, 9-point lines, so the label between them
  // overlaps each a little; group labels centred over their cells, the figures right-aligned in them,
  // so a group label stands off its figures' middle and reaches out of its first sub-column's text.
  const at = (t: string, x0: number, x1: number, y: number): Word[] => {
    const parts = t.split(' '), letters = parts.reduce((n, p) => n + p.length, 0), char = (x1 - x0 - 2.5 * (parts.length - 1)) / letters;
    let x = x0;
    return parts.map((p) => { const w: Word = { t: p, x0: x, x1: x + char * p.length, y0: y, y1: y + SIZE, size: SIZE, bold: false, italic: false }; x = w.x1 + 2.5; return w; });
  };
  const rows: [number, [number, number, string][]][] = [
    [454.8, [[171, 244, 'Hyperpartisan'], [323, 357, 'ECtHR'], [459, 486, 'arXiv']]],
    [462.3, [[63, 94, 'Model']]],
    [469.1, [[171, 192, 'Acc.'], [234, 262, 'Mem.'], [304, 325, 'Acc.'], [366, 395, 'Mem.'], [436, 457, 'Acc.'], [499, 527, 'Mem.']]],
    [482.6, [[63, 91, 'Dense'], [169, 216, '94.1 ± 0.4'], [248, 268, '31.2'], [301, 349, '79.8 ± 0.6'], [380, 400, '38.5'], [433, 481, '85.2 ± 0.3'], [512, 532, '40.1']]],
    [496.1, [[63, 117, 'Longformer'], [169, 216, '93.6 ± 0.5'], [248, 268, '12.4'], [301, 349, '79.1 ± 0.7'], [380, 400, '14.0'], [433, 481, '84.7 ± 0.2'], [512, 532, '15.3']]],
    [509.6, [[63, 85, 'Ours'], [165, 216, '95.0 ± 0.2'], [252, 268, '9.8'], [297, 349, '81.3 ± 0.5'], [378, 400, '10.6'], [430, 481, '86.4 ± 0.3'], [511, 532, '11.2']]],
  ];
  const ws = [...words('Test accuracy and peak memory of each model, the mean of three seeds.', 57, 437.6), ...rows.flatMap(([y, cells]) => cells.flatMap(([a, b, t]) => at(t, a, b, y)))];
  // booktabs rules: top, under the group labels (not under the first column), under the header, bottom
  const h = [[452.3, 57, 539], [466.9, 142, 539], [480.4, 142, 539], [521.8, 57, 539]].map(([y, x0, x1]) => ({ y: y!, x0: x0!, x1: x1! }));
  const els = layoutPage({ ...page(ws), rules: { h, v: [] } }, { tables: true });
  const t = els.find((e) => e.type === 'Table');
  assert.ok(t, JSON.stringify(els.map((e) => e.text)));
  assert.deepEqual(cellsOf(String(t.metadata.text_as_html)).slice(0, 3), [
    ['Model rowspan="2"', 'Hyperpartisan colspan="2"', 'ECtHR colspan="2"', 'arXiv colspan="2"'],
    ['Acc.', 'Mem.', 'Acc.', 'Mem.', 'Acc.', 'Mem.'],
    ['Dense', '94.1 ± 0.4', '31.2', '79.8 ± 0.6', '38.5', '85.2 ± 0.3', '40.1'],
  ]);
});
