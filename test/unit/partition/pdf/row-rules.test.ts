// Unruled tables whose records are bounded by horizontal rules: a record's wrapped lines between two
// rules are one row, the table runs down to its bottom rule (trailing lines of one wrapped cell
// included), and rules that group several full lines (or a stacked header) keep one row per line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import type { HRule } from '../../../../lambdas/engine/partition/pdf/tables/paths';
import { tableGrid } from '../../../../lambdas/engine/partition/pdf/tables/unruled-grid';
import { columnsOf } from '../../../../lambdas/engine/partition/pdf/tables/segment-columns';

const word = (t: string, x: number, y: number): Word => ({ t, x0: x, x1: x + 6 * t.length, y0: y, y1: y + 12, size: 12, bold: false, italic: false });
/** Cells of one text line: [column, text] at y; columns at x 60, 140, 220 (+ dx). */
const line = (y: number, cells: [number, string][], dx = 0): Word[] => cells.map(([c, t]) => word(t, dx + 60 + 80 * c, y));
/** Words set closely as one segment (prose). */
function prose(text: string, x: number, y: number): Word[] {
  const out: Word[] = [];
  for (const t of text.split(' ')) { const w = word(t, x, y); out.push(w); x = w.x1 + 4; }
  return out;
}
const rule = (y: number, dx = 0): HRule => ({ y, x0: dx + 56, x1: dx + 285 });

/** Header, Cat, a record wrapped over two lines, and Fox whose result wraps over five lines. */
const RECORDS = (dx = 0): Word[] => [
  ...line(80, [[0, 'Animal'], [1, 'Action'], [2, 'Result']], dx),
  ...line(100, [[0, 'Cat'], [1, 'Says'], [2, 'Meow']], dx),
  ...line(120, [[0, 'Dogs/wolves'], [1, 'Says'], [2, 'Bow-wow/']], dx),
  ...line(134, [[0, 'More-dogs'], [2, 'ruff-ruff']], dx),
  ...line(154, [[0, 'Fox'], [1, 'Says'], [2, 'Ring-ding']], dx),
  ...['ding-ding', 'ring-ding', 'gering', 'dingeding'].flatMap((t, k) => line(168 + 14 * k, [[2, t]], dx)),
];
const RULES = (dx = 0): HRule[] => [96, 116, 150, 226].map((y) => rule(y, dx));

function page(words: Word[], h: HRule[]): RawPage {
  return { page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h, v: [] } };
}
const rowsOf = (html: unknown): string[][] => [...String(html).matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1]!));

describe('tables with record rules', () => {
  it('rows go from rule to rule and the table runs down to its bottom rule', () => {
    const out = layoutPage(page([...RECORDS(), ...prose('This paragraph follows the table and it is prose.', 60, 240)], RULES()), { tables: true });
    const tables = out.filter((e) => e.type === 'Table');
    assert.equal(tables.length, 1, 'one table');
    assert.deepEqual(rowsOf(tables[0]!.metadata.text_as_html), [
      ['Animal', 'Action', 'Result'],
      ['Cat', 'Says', 'Meow'],
      ['Dogs/wolves More-dogs', 'Says', 'Bow-wow/ ruff-ruff'],
      ['Fox', 'Says', 'Ring-ding ding-ding ring-ding gering dingeding'],
    ]);
    const rest = out.filter((e) => e.type !== 'Table').map((e) => e.text);
    assert.deepEqual(rest, ['This paragraph follows the table and it is prose.'], 'the wrapped cell is not left as text; the prose below the bottom rule stays text');
  });

  it('side by side tables each run down to their own bottom rule', () => {
    // Gutter 11 pt between the rules (285..296); the right table's last record ends above the
    // left one's last wrapped lines.
    const right = RECORDS(240).filter((w) => w.y0 < 170);
    const rules = [...RULES(), ...[96, 116, 150, 184].map((y) => rule(y, 240))];
    const tables = layoutPage(page([...RECORDS(), ...right], rules), { tables: true }).filter((e) => e.type === 'Table');
    assert.equal(tables.length, 2, 'two tables');
    assert.deepEqual(rowsOf(tables[0]!.metadata.text_as_html)[3], ['Fox', 'Says', 'Ring-ding ding-ding ring-ding gering dingeding']);
    assert.deepEqual(rowsOf(tables[1]!.metadata.text_as_html).slice(2), [['Dogs/wolves More-dogs', 'Says', 'Bow-wow/ ruff-ruff'], ['Fox', 'Says', 'Ring-ding ding-ding']]);
  });

  it('rules grouping several full lines, or a stacked header, keep one row per line', () => {
    const words = [
      ...line(66, [[0, 'State'], [1, 'Spending'], [3, 'Total']]),
      ...line(80, [[1, 'Health'], [2, 'Welfare']]),
      ...line(100, [[0, 'Assam'], [1, '12'], [2, '3'], [3, '15']]),
      ...line(114, [[0, 'Bihar'], [1, '20'], [2, '4'], [3, '24']]),
      ...line(134, [[0, 'Goa'], [1, '4'], [2, '1'], [3, '5']]),
      ...line(148, [[0, 'Kerala'], [1, '27'], [2, '3'], [3, '30']]),
    ];
    const rows = wordsToLines(words);
    const grid = tableGrid(rows, columnsOf(rows.flatMap((r) => r.segs)), 12, [62, 96, 130, 164]);
    assert.deepEqual(grid, [
      ['State', 'Spending', '', 'Total'], ['', 'Health', 'Welfare', ''],
      ['Assam', '12', '3', '15'], ['Bihar', '20', '4', '24'], ['Goa', '4', '1', '5'], ['Kerala', '27', '3', '30'],
    ]);
  });
});

describe('a table with rules between its records under a captioned gap', () => {
  // A paper's page: the abstract set between two rules as wide as the table's, prose, the table's
  // caption, then the table (a browser's: cells centred in their rows, a wrapped first cell's lines
  // above and below its row's figures, alignment alone reads no table). The rules are one stack of one
  // extent; the band ending with the caption is the gap between two things, not a record.
  const wide = (y: number): HRule => ({ y, x0: 56, x1: 400 });
  const at = (y: number, cells: [number, string][]) => cells.flatMap(([c, t]) => prose(t, [60, 170, 250, 330][c]!, y));
  const words = [
    ...prose('Abstract. We measure the seasonal recharge of three small', 60, 70),
    ...prose('catchments with isotopes and spring discharge records.', 60, 84),
    ...prose('The three catchments drain small areas at middle elevations', 60, 140),
    ...prose('and their bedrock is gneiss covered by slope deposits.', 60, 154),
    ...prose('Table 1. Characteristics of the three catchments.', 60, 180),
    ...at(200, [[0, 'Catchment'], [1, 'Area'], [2, 'Forest'], [3, 'Flow']]),
    ...at(220, [[0, 'Brugga']]), ...at(227, [[1, '1.8'], [2, '74'], [3, '21.4']]), ...at(234, [[0, 'Upper']]),
    ...at(256, [[0, 'Zastler']]), ...at(263, [[1, '3.1'], [2, '61'], [3, '38.9']]), ...at(270, [[0, 'Spring']]),
    ...at(292, [[0, 'St. Wilhelm'], [1, '4.2'], [2, '68'], [3, '52.3']]),
    ...prose('Spring discharge peaked in every year between March and May.', 60, 330),
  ];
  it('is found, its records from rule to rule', () => {
    const out = layoutPage(page(words, [64, 100, 196, 216, 252, 288, 308].map(wide)), { tables: true });
    const tables = out.filter((e) => e.type === 'Table');
    assert.equal(tables.length, 1, JSON.stringify(out.map((e) => `${e.type}: ${e.text}`)));
    assert.deepEqual(rowsOf(tables[0]!.metadata.text_as_html), [
      ['Catchment', 'Area', 'Forest', 'Flow'],
      ['Brugga Upper', '1.8', '74', '21.4'],
      ['Zastler Spring', '3.1', '61', '38.9'],
      ['St. Wilhelm', '4.2', '68', '52.3'],
    ]);
    assert.ok(out.some((e) => e.type === 'FigureCaption' && e.text.startsWith('Table 1.')));
  });

  it('a header set left over figures set right in its column heads that column (no empty column beside it)', () => {
    // "Area" at the cell's left, its figures at the cell's right: two runs of words a gutter apart
    const right = (t: string, x1: number, y: number) => word(t, x1 - 6 * t.length, y);
    const shifted = words.filter((w) => !['1.8', '3.1', '4.2'].includes(w.t));
    const figures = [right('1.8', 236, 227), right('3.1', 236, 263), right('4.2', 236, 292)];
    const out = layoutPage(page([...shifted, ...figures], [64, 100, 196, 216, 252, 288, 308].map(wide)), { tables: true });
    const tables = out.filter((e) => e.type === 'Table');
    assert.equal(tables.length, 1, JSON.stringify(out.map((e) => `${e.type}: ${e.text}`)));
    assert.deepEqual(rowsOf(tables[0]!.metadata.text_as_html).map((r) => r.slice(0, 2)), [['Catchment', 'Area'], ['Brugga Upper', '1.8'], ['Zastler Spring', '3.1'], ['St. Wilhelm', '4.2']]);
  });
});

describe('a label centred beside a group of rows between rules', () => {
  it('spans the group: its first row, with the rows as its rowspan (LaTeX\'s \\multirow between \\midrule\'s)', () => {
    // booktabs: top rule, header rule, a rule between the two groups, bottom rule; each dataset's
    // name on the middle line of its three rows
    const groups = [['CNN/DM', [['Greedy', '38.2'], ['Beam', '40.1'], ['Sampling', '35.7']]], ['XSum', [['Greedy', '31.4'], ['Beam', '33.0'], ['Sampling', '28.9']]]] as const;
    const words = [
      ...prose('Each dataset with each decoding method is listed below.', 60, 50),
      ...line(80, [[0, 'Dataset'], [1, 'Decoding'], [2, 'R-L']]),
      ...groups.flatMap(([name, rows], g) => rows.flatMap(([m, v], i) => line(100 + 50 * g + 14 * i, i === 1 ? [[0, name], [1, m], [2, v]] : [[1, m], [2, v]]))),
    ];
    const tables = layoutPage(page(words, [76, 96, 144, 192].map((y) => rule(y))), { tables: true }).filter((e) => e.type === 'Table');
    assert.equal(tables.length, 1);
    assert.equal(tables[0]!.metadata.text_as_html, '<table><tr><td>Dataset</td><td>Decoding</td><td>R-L</td></tr>'
      + '<tr><td rowspan="3">CNN/DM</td><td>Greedy</td><td>38.2</td></tr><tr><td>Beam</td><td>40.1</td></tr><tr><td>Sampling</td><td>35.7</td></tr>'
      + '<tr><td rowspan="3">XSum</td><td>Greedy</td><td>31.4</td></tr><tr><td>Beam</td><td>33.0</td></tr><tr><td>Sampling</td><td>28.9</td></tr></table>');
    assert.equal(tables[0]!.text, 'Dataset Decoding R-L CNN/DM Greedy 38.2 Beam 40.1 Sampling 35.7 XSum Greedy 31.4 Beam 33.0 Sampling 28.9');
  });
});
