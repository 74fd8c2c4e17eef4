// Rows of an unruled table: a line holding one cell continues the cell above it when its text is
// that cell's wrapped text, and starts a row of its own when its first word would have fit after
// the text above (a label under a short one: a statement's "Operating expenses" under "Cost of
// revenue", heading the indented rows below it). Both are lines with one cell in the label column.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import { tableRows } from '../../../../lambdas/engine/partition/pdf/tables/unruled-grid';
import type { RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const CHAR = 5;
const words = typeset({ size: 10, char: CHAR, space: 3 });
/** A row: its label at x (indent), its figures right-aligned at 330 and 400. */
const row = (y: number, label: string, a = '', b = '', x = 60): Word[] => [
  ...words(label, x, y),
  ...(a ? words(a, 330 - CHAR * a.length, y) : []),
  ...(b ? words(b, 400 - CHAR * b.length, y) : []),
];

it('a label under a short one starts a row; a wrapped label continues its cell', () => {
  const lines = [
    row(100, 'Item', '2025', '2024'),
    row(113, 'Total revenue', '510,325', '470,042'),
    row(126, 'Cost of revenue', '(301,118)', '(279,664)'),
    row(139, 'Operating expenses'),
    row(152, 'Research and development', '(61,204)', '(55,317)', 72),
    row(165, 'Selling, general and administrative', '(88,730)', '(84,015)', 72),
    row(178, 'Revenue from licences granted to', '12,400', '9,800'),
    row(191, 'partners abroad'),
    row(204, 'Operating income', '59,273', '51,046'),
  ].flat();
  const page: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 };
  const tables = layoutPage(page, { tables: true }).filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1);
  const html = String(tables[0]!.metadata.text_as_html);
  assert.match(html, /<tr><td>Cost of revenue<\/td><td>\(301,118\)<\/td><td>\(279,664\)<\/td><\/tr><tr><td>Operating expenses<\/td><td><\/td><td><\/td><\/tr>/, html);
  assert.match(html, /<tr><td>Revenue from licences granted to partners abroad<\/td><td>12,400<\/td><td>9,800<\/td><\/tr>/, html);
});

/** A word processor's table: cells left-aligned at 60, 180, 300 and 400; rows 14.5 apart, a cell's wrapped lines 11.5. */
const cells = (y: number, ...texts: string[]): Word[] => texts.flatMap((t, k) => (t ? words(t, [60, 180, 300, 400][k]!, y) : []));

it('a header wrapped to the bottom of its row heads its cell, a last row wrapped keeps its last line', () => {
  const lines = [
    cells(100, '', '', 'Detection'),
    cells(111.5, 'Parameter', 'Method', 'limit', 'Unit'),
    cells(126, 'Nitrate', 'Chromatography', '0.05', 'mg/L'),
    cells(140.5, 'Phosphate', 'Colorimetry', '0.01', 'mg/L'),
    cells(155, 'Turbidity', 'Nephelometry', '0.1', 'NTU'),
    cells(169.5, 'Dissolved', 'Probe', '0.2', 'mg/L'),
    cells(181, 'oxygen'),
    words('The values above are the medians over the whole of the campaign.', 60, 206),
  ].flat();
  const page: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 };
  const els = layoutPage(page, { tables: true });
  assert.deepEqual(els.map((e) => e.type), ['Table', 'NarrativeText']);
  const html = String(els[0]!.metadata.text_as_html);
  assert.match(html, /^<table><tr><td>Parameter<\/td><td>Method<\/td><td>Detection limit<\/td><td>Unit<\/td><\/tr>/, html);
  assert.match(html, /<tr><td>Dissolved oxygen<\/td><td>Probe<\/td><td>0.2<\/td><td>mg\/L<\/td><\/tr><\/table>$/, html);
});

it('a header over a rule and one row (a table\'s part on a page of its own) is a table; without the rule, two lines', () => {
  const lines = [
    words('Observations at the two sites.', 60, 80),
    cells(100, 'Site', 'Observation', 'Value'),
    cells(114.5, 'Upper reach', 'Clear after a long', '12.5'),
    cells(126, '', 'dry spell'),
    words('The second site was sampled in the following week by the same team.', 60, 150),
  ].flat();
  const page = (h: { y: number; x0: number; x1: number }[]): RawPage => ({ page: 1, width: 612, height: 792, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0, rules: { h, v: [] } });
  const els = layoutPage(page([{ y: 112, x0: 58, x1: 330 }]), { tables: true });
  assert.deepEqual(els.map((e) => e.type), ['NarrativeText', 'Table', 'NarrativeText'], JSON.stringify(els.map((e) => e.text)));
  assert.equal(els[1]!.metadata.text_as_html, '<table><tr><td>Site</td><td>Observation</td><td>Value</td></tr><tr><td>Upper reach</td><td>Clear after a long dry spell</td><td>12.5</td></tr></table>');
  assert.ok(!layoutPage(page([]), { tables: true }).some((e) => e.type === 'Table'));
});

it('a label after a blank row starts a row of its own; two columns of short cells are one table across it', () => {
  // a sheet printed to PDF: rows 12.7 apart (2.5 between lines), a blank row, a group's label, its row
  const lines = [
    cells(100, 'Name', 'Team'),
    cells(112.7, 'Ada', 'Field'),
    cells(125.4, 'Ben', 'Lab'),
    cells(150.8, 'Contractors'),
    cells(163.5, 'Cy', 'Survey'),
  ].flat();
  const page: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 };
  const els = layoutPage(page, { tables: true });
  assert.deepEqual(els.map((e) => e.type), ['Table'], JSON.stringify(els.map((e) => e.text)));
  assert.equal(els[0]!.metadata.text_as_html, '<table><tr><td>Name</td><td>Team</td></tr><tr><td>Ada</td><td>Field</td></tr><tr><td>Ben</td><td>Lab</td></tr><tr><td>Contractors</td><td></td></tr><tr><td>Cy</td><td>Survey</td></tr></table>');
});

it('header cells set a little closer than a column gap are cells of their own, not one spanning them', () => {
  // LaTeX sets a tabular's columns two \tabcolsep apart (12 pt, about an em of 11 pt text): the
  // right-aligned headers "Upland Lowland All stations" made one segment, and placed word by word on
  // the figures' columns, "All" fell nearer the middle column than its own: one cell spanning three
  const w = typeset({ size: 11, char: 5.5, space: 3.7 });
  const right = (t: string, x1: number, y: number) => w(t, x1 - 5.5 * t.length, y);
  const header = [...w('Season', 202, 375), ...w('Upland', 255.7, 375), ...w('Lowland', 300.6, 375), ...w('All stations', 351.1, 375)];
  const body = ['Winter 12.4 18.1 15.2', 'Spring 9.8 14.6 12.0', 'Summer 6.1 9.9 7.7'].flatMap((r, i) => {
    const [s, a, b, c] = r.split(' ');
    const y = 394 + 13.5 * i;
    return [...w(s!, 202, y), ...right(a!, 288.7, y), ...right(b!, 341.1, y), ...right(c!, 408, y)];
  });
  const lines = wordsToLines([...header, ...body]);
  assert.equal(lines[0]!.segs.length, 2, 'the headers after the first are one segment');
  // the columns of the figures' segments, as findTables gives them
  const rows = tableRows(lines, [[202, 241.9], [266.7, 288.7], [319.1, 341.1], [386, 408]], 11);
  assert.deepEqual(rows[0]!.map((c) => [c.text, c.colspan ?? 1]), [['Season', 1], ['Upland', 1], ['Lowland', 1], ['All stations', 1]]);
  assert.deepEqual(rows[1]!.map((c) => c.text), ['Winter', '12.4', '18.1', '15.2']);
});

it("a table at a column's top keeps its header set closer than a segment gap, and not the next section's heading", () => {
  // LaTeX's tabular: "Site Winter Summer" one segment (its cells 10 pt apart), which the lines above
  // the body did not count as a header row: it joined the caption. The next section's numbered heading
  // 35 pt under the last row ("2" and its name, two segments) was taken for a row of the table.
  const w = typeset({ size: 10, char: 5, space: 3.3 });
  const right = (t: string, x1: number, y: number) => w(t, x1 - 5 * t.length, y);
  const lines = wordsToLines([
    ...w('Table 1: Recession constants.', 360.8, 233),
    ...w('Site', 371.4, 247), ...w('Winter', 401.4, 247), ...w('Summer', 441.4, 247),
    ...[['A', '12.1', '6.3'], ['B', '10.4', '5.9'], ['C', '14.0', '7.2']].flatMap(([s, a, b], i) => [...w(s!, 371.4, 263 + 12 * i), ...right(a!, 430.5, 263 + 12 * i), ...right(b!, 478.4, 263 + 12 * i)]),
    ...w('2', 310.6, 323), ...w('Section number 2', 334.8, 323),
    ...w('The constants of the upland sites are shorter in every', 310.6, 343),
    ...w('season than those of the lowland sites, as expected.', 310.6, 355),
  ]);
  const page: RawPage = { page: 1, width: 612, height: 792, lines, links: [], images: [], chars: 0, unmapped: 0 };
  const els = layoutPage(page, { tables: true }).map((e) => [e.type, e.text]);
  assert.ok(els.some(([t, x]) => t === 'Table' && x === 'Site Winter Summer A 12.1 6.3 B 10.4 5.9 C 14.0 7.2'), JSON.stringify(els));
  assert.ok(els.some(([t, x]) => t === 'Title' && x === '2 Section number 2'), JSON.stringify(els));
});

it('a cell wrapped over several lines inside the body keeps the table whole (a browser\'s print of a procedure table)', () => {
  // rows 20 apart, a cell's lines 13; the description column wraps over two and three lines
  const lines = [
    words('The steps of the procedure, with who carries out each.', 60, 80),
    cells(100, 'Step', 'Description', '', 'Owner'),
    cells(120, '1', 'Collect the samples at every', '', 'Field team'),
    cells(133, '', 'station before the heat rises'),
    cells(146, '', 'and label each vial.'),
    cells(166, '2', 'Ship the vials in cooled', '', 'Logistics'),
    cells(179, '', 'boxes within two days.'),
    cells(199, '3', 'Analyse each sample twice.', '', 'Laboratory'),
    words('The results are kept for ten years in the central archive of the agency.', 60, 230),
  ].flat();
  const page: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 };
  const els = layoutPage(page, { tables: true });
  assert.deepEqual(els.map((e) => e.type), ['NarrativeText', 'Table', 'NarrativeText'], JSON.stringify(els.map((e) => e.text)));
  assert.equal(els[1]!.metadata.text_as_html, '<table><tr><td>Step</td><td>Description</td><td>Owner</td></tr>'
    + '<tr><td>1</td><td>Collect the samples at every station before the heat rises and label each vial.</td><td>Field team</td></tr>'
    + '<tr><td>2</td><td>Ship the vials in cooled boxes within two days.</td><td>Logistics</td></tr>'
    + '<tr><td>3</td><td>Analyse each sample twice.</td><td>Laboratory</td></tr></table>');
});

it('a wide description column between short ones (a landscape page\'s parameter table) is a table, its wrapped lines in their cells', () => {
  const wide = (y: number, ...texts: string[]): Word[] => texts.flatMap((t, k) => (t ? words(t, [40, 90, 700][k]!, y) : []));
  const lines = [
    words('The parameters of the sampling run, each with what it sets and who may change it.', 40, 80),
    wide(100, 'Name', 'Description', 'Owner'),
    wide(120, 'depth', 'How far below the surface the sample is drawn, in metres, measured from the water line at the time', 'Field'),
    wide(133, '', 'of sampling rather than from the mean level.'),
    wide(153, 'count', 'How many vials are filled at each station before the team moves on to the next station.', 'Lab'),
    wide(173, 'cool', 'Whether the vials travel in cooled boxes to the laboratory; always true in the summer season.', 'Logistics'),
    words('Changes to these parameters are recorded in the station log with the date.', 40, 204),
  ].flat();
  const page: RawPage = { page: 1, width: 842, height: 595, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 };
  const els = layoutPage(page, { tables: true });
  assert.deepEqual(els.map((e) => e.type), ['NarrativeText', 'Table', 'NarrativeText'], JSON.stringify(els.map((e) => e.text)));
  assert.equal(els[1]!.metadata.text_as_html, '<table><tr><td>Name</td><td>Description</td><td>Owner</td></tr>'
    + '<tr><td>depth</td><td>How far below the surface the sample is drawn, in metres, measured from the water line at the time of sampling rather than from the mean level.</td><td>Field</td></tr>'
    + '<tr><td>count</td><td>How many vials are filled at each station before the team moves on to the next station.</td><td>Lab</td></tr>'
    + '<tr><td>cool</td><td>Whether the vials travel in cooled boxes to the laboratory; always true in the summer season.</td><td>Logistics</td></tr></table>');
});

it('a heading set larger between two tables ends the first: it is no single-cell row, the next table\'s header no row of the first', () => {
  const heading = typeset({ size: 13, char: 6.5, space: 3.5 });
  const at = (y: number, ...cells: string[]) => cells.flatMap((t, k) => words(t, [60, 240, 350, 450][k]!, y));
  const lines = [
    at(100, 'Role', 'Headcount', 'Vacancies', 'Turnover'),
    at(117, 'Warehouse operative', '212', '14', '18%'), at(134, 'Forklift driver', '64', '3', '9%'), at(151, 'Shift supervisor', '22', '1', '4%'),
    heading('3. Incidents', 60, 178),
    // the next table's columns elsewhere
    ...[['Date', 'Site', 'Type', 'Notes'], ['3 July', 'Riverside', 'Near miss', 'Pallet fell'], ['19 Aug', 'Northfield', 'Injury', 'Cut hand']]
      .map((r, i) => r.flatMap((t, k) => words(t, [60, 140, 215, 290][k]!, 205 + 17 * i))),
  ].flat();
  const els = layoutPage({ page: 1, width: 612, height: 792, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 }, { tables: true });
  assert.deepEqual(els.map((e) => e.type), ['Table', 'Title', 'Table'], JSON.stringify(els.map((e) => [e.type, e.text])));
  assert.equal(els[0]!.text, 'Role Headcount Vacancies Turnover Warehouse operative 212 14 18% Forklift driver 64 3 9% Shift supervisor 22 1 4%');
  assert.ok(els[2]!.text.startsWith('Date Site Type Notes 3 July'), els[2]!.text);
});

it('a group label in italics under a row of upright text starts a row of its own (a paper\'s "Zero-shot" / "Fine-tuned" groups)', () => {
  // LaTeX's \multicolumn{4}{l}{\textit{Fine-tuned}} between the rows of a results table: its label
  // would not have fit after the cell above ("Method", "Flan-T5"), which read it as that cell's
  // wrapped text: "Method Zero-shot", "Flan-T5 Fine-tuned"
  const italic = (t: string, y: number) => typeset({ size: 10, char: CHAR, space: 3 })(t, 60, y).map((w) => ({ ...w, italic: true }));
  const bold = (t: string, x: number, y: number) => words(t, x, y).map((w) => ({ ...w, bold: true }));
  const fig = (y: number, label: string, ...xs: string[]) => [...words(label, 60, y), ...xs.flatMap((t, k) => words(t, 150 + 50 * k, y))];
  const lines = [
    ...bold('Method', 60, 100), ...['CORD', 'FUNSD', 'SROIE'].flatMap((t, k) => bold(t, 150 + 50 * k, 100)),
    ...italic('Zero-shot', 113), ...fig(126, 'GPT-J', '41.2', '33.5', '52.0'), ...fig(139, 'Flan-T5', '47.9', '36.1', '58.3'),
    ...italic('Fine-tuned', 152), ...fig(165, 'LayoutLM', '94.7', '79.3', '94.4'), ...fig(178, 'Ours', '97.1', '85.0', '96.2'),
  ];
  const page: RawPage = { page: 1, width: 612, height: 792, lines: wordsToLines(lines), links: [], images: [], chars: 0, unmapped: 0 };
  const tables = layoutPage(page, { tables: true }).filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1);
  assert.equal(tables[0]!.metadata.text_as_html, '<table><tr><td>Method</td><td>CORD</td><td>FUNSD</td><td>SROIE</td></tr>'
    + '<tr><td>Zero-shot</td><td></td><td></td><td></td></tr><tr><td>GPT-J</td><td>41.2</td><td>33.5</td><td>52.0</td></tr><tr><td>Flan-T5</td><td>47.9</td><td>36.1</td><td>58.3</td></tr>'
    + '<tr><td>Fine-tuned</td><td></td><td></td><td></td></tr><tr><td>LayoutLM</td><td>94.7</td><td>79.3</td><td>94.4</td></tr><tr><td>Ours</td><td>97.1</td><td>85.0</td><td>96.2</td></tr></table>');
});
