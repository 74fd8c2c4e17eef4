// Charts in presentations and workbooks: the chart's title and its cached data as a Table
// (category x series), for bar/line/pie/area/scatter charts, bounded for huge charts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { chartXml, odfChart, pptxWithCharts } from '../../../support/charts';
import { alternateBox, docxFile, drawingChart, stylesXml, wPara } from '../../../support/word-docs';
import { EOF, RT, biffStream, bof, cellHead, f64, longStr, oleFile, record, shortStr, u16, u8, workbook, xlsxWorkbook } from '../../../support/workbooks';
import { context, partition, partitionWithHierarchy } from './helpers';
import { FORMAT_PARTITIONERS } from '../../../../lambdas/engine/partition/formats/index';
import { MAX_CHART_ROWS } from '../../../../lambdas/engine/partition/limits';
import { cellRange } from '../../../../lambdas/engine/partition/formats/odf-charts';

const rowsOf = (html: string): string[][] =>
  [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1]!));

test('pptx bar chart: the chart title, then a Table of category x series from the cached values', async () => {
  const chart = chartXml({
    title: 'Visitors by Year',
    axisTitle: 'Count',
    series: [
      { name: 'Museum', cats: ['2019', '2020', '2021'], vals: [120, 130, 150] },
      { name: 'Gardens', cats: ['2019', '2020', '2021'], vals: [80, 95, 110] },
    ],
  });
  const els = await partitionWithHierarchy('pptx', pptxWithCharts([{ title: 'Annual Report', chart }]));
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.page_number]), [
    ['Title', 'Annual Report', 1],
    ['NarrativeText', 'Visitors by Year', 1],
    ['Table', 'Museum Gardens 2019 120 80 2020 130 95 2021 150 110', 1],
  ]);
  assert.deepEqual(rowsOf(els[2]!.metadata.text_as_html!), [
    ['', 'Museum', 'Gardens'],
    ['2019', '120', '80'],
    ['2020', '130', '95'],
    ['2021', '150', '110'],
  ]);
  // the chart sits under the slide's title
  assert.equal(els[2]!.metadata.parent_id, els[0]!.element_id);
});

test('pptx charts of every kind: line, area and 3-D bars align series by category; pie without title; scatter by x', async () => {
  const two = [
    { name: 'North', cats: ['Q1', 'Q2'], vals: [1, 2] },
    { name: 'South', cats: ['Q1', 'Q2'], vals: [3, 4] },
  ];
  for (const kind of ['lineChart', 'areaChart', 'bar3DChart', 'radarChart']) {
    const els = await partition('pptx', pptxWithCharts([{ title: 'Sales', chart: chartXml({ kind, series: two }) }]));
    assert.deepEqual(els.map((e) => [e.type, e.text]), [['Title', 'Sales'], ['Table', 'North South Q1 1 3 Q2 2 4']], kind);
  }
  const pie = await partition('pptx', pptxWithCharts([{ title: 'Share', chart: chartXml({ kind: 'pieChart', series: [{ name: 'Share', cats: ['Apples', 'Pears'], vals: [0.6, 0.4] }] }) }]));
  assert.deepEqual(rowsOf(pie[1]!.metadata.text_as_html!), [['', 'Share'], ['Apples', '0.6'], ['Pears', '0.4']]);
  // scatter series with their own x values: one row per distinct x, empty where a series has no point
  const scatter = chartXml({
    kind: 'scatterChart',
    title: 'Height against weight',
    series: [
      { name: 'Group A', cats: [1, 2], vals: [10, 20] },
      { name: 'Group B', cats: [2, 3], vals: [25, 35] },
    ],
  });
  const sc = await partition('pptx', pptxWithCharts([{ title: 'Study', chart: scatter }]));
  assert.deepEqual(sc.map((e) => e.type), ['Title', 'NarrativeText', 'Table']);
  assert.deepEqual(rowsOf(sc[2]!.metadata.text_as_html!), [
    ['', 'Group A', 'Group B'],
    ['1', '10', ''],
    ['2', '20', '25'],
    ['3', '', '35'],
  ]);
  // no categories and no series name: rows numbered, a generic series name
  const bare = await partition('pptx', pptxWithCharts([{ title: 'Bare', chart: chartXml({ series: [{ vals: [5, 6] }] }) }]));
  assert.deepEqual(rowsOf(bare[1]!.metadata.text_as_html!), [['', 'Series 1'], ['1', '5'], ['2', '6']]);
});

test('pptx line chart over a date axis: categories cached as serial dates with a date format read as dates, numbers stay numbers', async () => {
  const months = [45292, 45323, 45352.75];
  const line = chartXml({
    kind: 'lineChart',
    title: 'Active Users',
    series: [
      { name: 'Web', cats: months, catFormat: 'mmm\\-yy', vals: [1200, 1350, 1500] },
      { name: 'Mobile', cats: months, catFormat: 'mmm\\-yy', vals: [800, 950, 1100] },
    ],
  });
  // a workbook counting from 1904: 43830 is 2019-12-31 in the 1900 system, four years and a day later here
  const old = chartXml({ kind: 'barChart', date1904: true, series: [{ name: 'Sales', cats: [43830], catFormat: 'd/m/yyyy', vals: [7] }] });
  const plain = chartXml({ kind: 'barChart', series: [{ name: 'Score', cats: [45292], vals: [3] }] });
  const els = await partition('pptx', pptxWithCharts([{ title: 'Usage', chart: line }, { title: 'Archive', chart: old }, { title: 'Plain', chart: plain }]));
  assert.deepEqual(els.filter((e) => e.type === 'Table').map((e) => e.text), [
    'Web Mobile 2024-01-01 1200 800 2024-02-01 1350 950 2024-03-01 18:00:00 1500 1100',
    'Sales 2024-01-01 7',
    'Score 45292 3',
  ]);
});

test('a chart of 10,000 points stays bounded: rows capped, with a warning', async () => {
  const n = 10_000;
  const cats = Array.from({ length: n }, (_, i) => `P${i}`);
  const chart = chartXml({ kind: 'lineChart', title: 'Dense', series: [{ name: 'A', cats, vals: cats.map((_, i) => i) }, { name: 'B', cats, vals: cats.map((_, i) => 2 * i) }] });
  const ctx = context('pptx');
  const t0 = performance.now();
  const els = await FORMAT_PARTITIONERS.pptx!(pptxWithCharts([{ title: 'Big', chart }]), ctx);
  assert.ok(performance.now() - t0 < 20_000); // bounded (the cap works), not a speed test
  const table = els.find((e) => e.type === 'Table')!;
  assert.equal(rowsOf(table.metadata.text_as_html!).length, MAX_CHART_ROWS + 1);
  assert.equal(ctx.warnings.length, 1);
  assert.match(ctx.warnings[0]!, /chart.*cut/);
  // a chart part past the XML caps is left out with a warning; the slide stands
  const deep = `<c:chartSpace xmlns:c="c">${'<c:x>'.repeat(1500)}${'</c:x>'.repeat(1500)}</c:chartSpace>`;
  const ctx2 = context('pptx');
  const rest = await FORMAT_PARTITIONERS.pptx!(pptxWithCharts([{ title: 'Still here', chart: deep }]), ctx2);
  assert.deepEqual(rest.map((e) => e.text), ['Still here']);
  assert.match(ctx2.warnings[0]!, /chart could not be read/);
});

/** A workbook whose first sheet draws `chart` (sheet -> drawing -> chart), plus a chartsheet drawing `sheetChart`. */
function xlsxWithCharts(chart: string, sheetChart: string): Uint8Array {
  const files: Record<string, Uint8Array> = unzipSync(xlsxWorkbook({ Data: [['Year', 'Count'], ['2019', 120], ['2020', 130]] }));
  const rels = (body: string): Uint8Array => strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`);
  const drawing = (rid: string): Uint8Array =>
    strToU8(`<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><xdr:twoCellAnchor><xdr:from><xdr:col>3</xdr:col><xdr:row>1</xdr:row></xdr:from><xdr:graphicFrame><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="${rid}"/></a:graphicData></a:graphic></xdr:graphicFrame></xdr:twoCellAnchor></xdr:wsDr>`);
  files['xl/worksheets/_rels/sheet1.xml.rels'] = rels('<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" Target="../drawings/drawing1.xml"/>');
  files['xl/drawings/drawing1.xml'] = drawing('rId3');
  files['xl/drawings/_rels/drawing1.xml.rels'] = rels('<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/chart1.xml"/>');
  files['xl/charts/chart1.xml'] = strToU8(chart);
  // a chartsheet: listed with the sheets, only a drawing
  const wb = strFromU8(files['xl/workbook.xml']!).replace('</sheets>', '<sheet name="Trend" sheetId="2" r:id="rId9"/></sheets>');
  files['xl/workbook.xml'] = strToU8(wb);
  files['xl/_rels/workbook.xml.rels'] = strToU8(strFromU8(files['xl/_rels/workbook.xml.rels']!).replace('</Relationships>', '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet" Target="chartsheets/sheet1.xml"/></Relationships>'));
  files['xl/chartsheets/sheet1.xml'] = strToU8('<chartsheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><drawing r:id="rId1"/></chartsheet>');
  files['xl/chartsheets/_rels/sheet1.xml.rels'] = rels('<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" Target="/xl/drawings/drawing2.xml"/>');
  files['xl/drawings/drawing2.xml'] = drawing('rId1');
  files['xl/drawings/_rels/drawing2.xml.rels'] = rels('<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/chart2.xml"/>');
  files['xl/charts/chart2.xml'] = strToU8(sheetChart);
  return zipSync(files);
}

test('xlsx: a chart drawn on a sheet follows the sheet\'s table; a chartsheet gives its chart', async () => {
  const data = xlsxWithCharts(
    chartXml({ kind: 'lineChart', title: 'Counts over time', series: [{ name: 'Count', cats: ['2019', '2020'], vals: [120, 130] }] }),
    chartXml({ kind: 'pieChart', title: 'Split', series: [{ name: 'Part', cats: ['Left', 'Right'], vals: [3, 7] }] }),
  );
  const els = await partition('xlsx', data);
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.page_number, e.metadata.page_name]), [
    ['Table', 'Year Count 2019 120 2020 130', 1, 'Data'],
    ['NarrativeText', 'Counts over time', 1, 'Data'],
    ['Table', 'Count 2019 120 2020 130', 1, 'Data'],
    ['NarrativeText', 'Split', 2, 'Trend'],
    ['Table', 'Part Left 3 Right 7', 2, 'Trend'],
  ]);
});

test('xlsx: a chart part that keeps no cache of its data (a workbook a program wrote) reads its ranges from the cells', async () => {
  // openpyxl and other writers give each series its c:f ranges only; the names, categories and values
  // are the workbook's cells (on the sheet named in the range, quoted or not)
  const ser = (k: number, name: string, cat: string, val: string) =>
    `<c:ser><c:idx val="${k}"/><c:order val="${k}"/><c:tx><c:strRef><c:f>${name}</c:f></c:strRef></c:tx><c:cat><c:numRef><c:f>${cat}</c:f></c:numRef></c:cat><c:val><c:numRef><c:f>${val}</c:f></c:numRef></c:val></c:ser>`;
  const bare = (title: string, series: string) => `<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>${title}</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart>${series}</c:barChart></c:plotArea></c:chart></c:chartSpace>`;
  const data = xlsxWithCharts(
    bare('Counts over time', ser(0, "'Data'!$B$1", "'Data'!$A$2:$A$3", "'Data'!$B$2:$B$3")),
    bare('Counts again', ser(0, 'Data!B1', 'Data!$A$2:$A$3', 'Data!$B$2:$B$3') + ser(1, 'Missing!B1', 'Data!$A$2:$B$3', 'Data!$B$2:$B$3')),
  );
  const els = await partition('xlsx', data);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['Table', 'Year Count 2019 120 2020 130'],
    ['NarrativeText', 'Counts over time'],
    ['Table', 'Count 2019 120 2020 130'],
    ['NarrativeText', 'Counts again'],
    // (a sheet that is not there names nothing; a range over rows and columns is no series' range)
    ['Table', 'Count Series 2 2019 120 120 2020 130 130'],
  ]);
});

test('ods: a chart object on a sheet gives its title and a Table of category x series, after the sheet\'s table', async () => {
  const ods = unzipSync(workbook('ods', { Data: [['Year', 'Count'], ['2019', 120], ['2020', 130]] }));
  // the sheet anchors a column chart (twice: one chart, read once), a chart whose series run along
  // rows, and an embedded formula
  const content = strFromU8(ods['content.xml']!)
    .replace('xmlns:table=', 'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:table=')
    .replace('</table:table>', '<table:shapes><draw:frame><draw:object xlink:href="./Object 1"/></draw:frame><draw:frame><draw:object xlink:href="./Object 2"/></draw:frame><draw:frame><draw:object xlink:href="./Object 1"/></draw:frame><draw:frame><draw:object xlink:href="./Object 3/"/></draw:frame></table:shapes></table:table>');
  ods['content.xml'] = strToU8(content);
  ods['Object 1/content.xml'] = strToU8(odfChart('Visitors by Year',
    '<chart:axis chart:dimension="x"><chart:categories table:cell-range-address="local-table.$A$2:.$A$4"/></chart:axis>'
    + '<chart:series chart:values-cell-range-address="local-table.$B$2:.$B$4" chart:label-cell-address="local-table.$B$1"/>'
    + '<chart:series chart:values-cell-range-address="local-table.$C$2:.$C$4" chart:label-cell-address="local-table.$C$1"/>',
    [[null, 'Museum', 'Gardens'], ['2019', 120, 80], ['2020', 130, 95], ['2021', 150, 110]]));
  ods['Object 2/content.xml'] = strToU8(odfChart('By row',
    '<chart:axis chart:dimension="x"><chart:categories table:cell-range-address="local-table.$B$1:.$C$1"/></chart:axis>'
    + '<chart:series chart:values-cell-range-address="local-table.$B$2:.$C$2" chart:label-cell-address="local-table.$A$2"/>',
    [[null, 'Left', 'Right'], ['Part', 3, 7]]));
  // an embedded object that is not a chart (a formula) gives nothing; one not drawn is not read
  ods['Object 3/content.xml'] = strToU8('<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"><office:body><office:formula/></office:body></office:document-content>');
  ods['Object 4/content.xml'] = strToU8(odfChart('Not on any sheet', '', [[null, 'A'], ['x', 1]]));
  const els = await partition('ods', zipSync(ods));
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.page_number]), [
    ['Table', 'Year Count 2019 120 2020 130', 1],
    ['NarrativeText', 'Visitors by Year', 1],
    ['Table', 'Museum Gardens 2019 120 80 2020 130 95 2021 150 110', 1],
    ['NarrativeText', 'By row', 1],
    ['Table', 'Part Left 3 Right 7', 1],
  ]);
  assert.deepEqual(rowsOf(els[2]!.metadata.text_as_html!), [['', 'Museum', 'Gardens'], ['2019', '120', '80'], ['2020', '130', '95'], ['2021', '150', '110']]);
});

test('ods: a chart range address names its table before the cells, in quotes when it has spaces', () => {
  assert.deepEqual(cellRange('local-table.$B$2:.$B$5'), { c0: 1, r0: 1, c1: 1, r1: 4 });
  // a table named like a cell: only what follows the name is the cell
  assert.deepEqual(cellRange('Q1.$C$2:Q1.$C$3'), { c0: 2, r0: 1, c1: 2, r1: 2 });
  // of a list of ranges, the first; a quoted name may hold spaces and dots
  assert.deepEqual(cellRange("'Sales 2024.v2'.$A$1:'Sales 2024.v2'.$A$3 'Sales 2024.v2'.$C$1"), { c0: 0, r0: 0, c1: 0, r1: 2 });
  assert.deepEqual(cellRange('$B$2'), { c0: 1, r0: 1, c1: 1, r1: 1 });
  assert.equal(cellRange('local-table.B'), undefined);
  assert.equal(cellRange(''), undefined);
});

// ---------- legacy workbooks (.xls, BIFF8 chart substreams) ----------

/** CHART / END around a chart's formats (the records between carry nothing read here). */
const BEGIN_CHART = record(0x1002, Buffer.alloc(16));
const END_CHART = Buffer.alloc(0);
const CH = { SERIES: 0x1003, SERIESTEXT: 0x100d, TEXT: 0x1025, OBJECTLINK: 0x1027, BEGIN: 0x1033, END: 0x1034, BRAI: 0x1051, SIINDEX: 0x1065 };
/** BRAI: id (0 name, 1 values, 2 categories), rt (1 literal, 2 reference), then the parsed formula. */
const brai = (id: number, formula?: Buffer): Buffer => record(CH.BRAI, Buffer.concat([u8(id), u8(formula ? 2 : 1), u16(0), u16(0), u16(formula?.length ?? 0), formula ?? Buffer.alloc(0)]));
/** ptgArea3d (value class) on XTI entry `ixti`: rows and columns 0-based. */
const area3d = (ixti: number, r0: number, r1: number, c0: number, c1: number): Buffer => Buffer.concat([u8(0x5b), u16(ixti), u16(r0), u16(r1), u16(c0), u16(c1)]);
const ref3d = (ixti: number, r: number, c: number): Buffer => Buffer.concat([u8(0x3a), u16(ixti), u16(r), u16(c)]);
const seriesText = (s: string): Buffer => record(CH.SERIESTEXT, Buffer.concat([u16(0), shortStr(s)]));
const series = (name: string | Buffer, vals: Buffer, cats: Buffer): Buffer[] => [
  record(CH.SERIES, Buffer.alloc(12)), record(CH.BEGIN),
  typeof name === 'string' ? brai(0) : brai(0, name), brai(1, vals), brai(2, cats),
  ...(typeof name === 'string' ? [seriesText(name)] : []), record(CH.END),
];
const title = (text: string | Buffer): Buffer[] => [
  record(CH.TEXT, Buffer.alloc(32)), record(CH.BEGIN),
  ...(typeof text === 'string' ? [seriesText(text)] : [brai(0, text)]),
  record(CH.OBJECTLINK, Buffer.concat([u16(1), u16(0), u16(0)])), record(CH.END),
];
const cached = (index: number, points: [number, number, string | number][]): Buffer[] => [
  record(CH.SIINDEX, u16(index)),
  ...points.map(([p, s, v]) => (typeof v === 'number' ? record(RT.NUMBER, Buffer.concat([cellHead(p, s), f64(v)])) : record(RT.LABEL, Buffer.concat([cellHead(p, s), longStr(v)])))),
];
const label = (r: number, c: number, v: string): Buffer => record(RT.LABEL, Buffer.concat([cellHead(r, c), longStr(v)]));
const num = (r: number, c: number, v: number): Buffer => record(RT.NUMBER, Buffer.concat([cellHead(r, c), f64(v)]));

test('xls: a chart drawn on a sheet gives its title and cached data; a chart sheet\'s chart reads its cells; a broken chart is left out', async () => {
  const cells = [label(0, 0, 'Year'), label(0, 1, 'Museum'), label(0, 2, 'Gardens'), num(1, 0, 2019), num(1, 1, 120), num(1, 2, 80), num(2, 0, 2020), num(2, 1, 130), num(2, 2, 95), label(4, 0, 'Visitors (from a cell)')];
  // drawn on the sheet: literal names and title, the cache (which the chart shows) over the ranges
  const drawn = [bof(0x0020), BEGIN_CHART, ...title('Visitors by Year'),
    ...series('Museum', area3d(0, 1, 2, 1, 1), area3d(0, 1, 2, 0, 0)), ...series('Gardens', area3d(0, 1, 2, 2, 2), area3d(0, 1, 2, 0, 0)),
    END_CHART,
    ...cached(1, [[0, 0, 120], [1, 0, 130], [0, 1, 80], [1, 1, 95]]), ...cached(2, [[0, 0, 2019], [1, 0, 2020], [0, 1, 2019], [1, 1, 2020]]),
    EOF];
  // a chart with a record cut short (a BRAI of two bytes): left out, the workbook stands
  const broken = [bof(0x0020), record(CH.SERIES, Buffer.alloc(12)), record(CH.BEGIN), record(CH.BRAI, Buffer.concat([u8(1), u8(2)])), record(CH.END), EOF];
  // a chart sheet without a cache: names and title from cells of the first sheet, values from its ranges
  const sheetChart = [BEGIN_CHART, ...title(ref3d(0, 4, 0)), ...series(ref3d(0, 0, 1), area3d(0, 1, 2, 1, 1), area3d(0, 1, 2, 0, 0)), END_CHART];
  const externsheet = record(0x0017, Buffer.concat([u16(1), u16(0), u16(0), u16(0)]));
  const data = oleFile(biffStream([
    { name: 'Data', records: [...cells, ...drawn, ...broken] },
    { name: 'Chart1', records: sheetChart, type: 2, dt: 0x0020 },
  ], [externsheet]));
  const ctx = context('xls');
  const els = await FORMAT_PARTITIONERS.xls!(data, ctx);
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.page_number]), [
    ['Table', 'Year Museum Gardens 2019 120 80 2020 130 95', 1],
    ['Title', 'Visitors (from a cell)', 1],
    ['NarrativeText', 'Visitors by Year', 1],
    ['Table', 'Museum Gardens 2019 120 80 2020 130 95', 1],
    ['NarrativeText', 'Visitors (from a cell)', 2],
    ['Table', 'Museum 2019 120 2020 130', 2],
  ]);
  assert.deepEqual(rowsOf(els[3]!.metadata.text_as_html!), [['', 'Museum', 'Gardens'], ['2019', '120', '80'], ['2020', '130', '95']]);
  assert.ok(ctx.warnings.some((w) => /sheet "Data": a chart whose records could not be read is left out/.test(w)), ctx.warnings.join('\n'));
});

test('xls: a chart of 10,000 cached points stays bounded: rows capped, with a warning', async () => {
  const points: [number, number, number][] = Array.from({ length: 10_000 }, (_, i) => [i, 0, i]);
  const chart = [bof(0x0020), BEGIN_CHART, ...series('Many', area3d(0, 0, 9999, 0, 0), area3d(0, 0, 9999, 1, 1)), ...cached(1, points), EOF];
  const data = oleFile(biffStream([{ name: 'Big', records: [label(0, 0, 'Head'), ...chart] }]));
  const ctx = context('xls');
  const els = await FORMAT_PARTITIONERS.xls!(data, ctx);
  const table = els.find((e) => e.type === 'Table' && e.text.startsWith('Many'))!;
  assert.equal(rowsOf(table.metadata.text_as_html!).length, MAX_CHART_ROWS + 1);
  assert.ok(ctx.warnings.some((w) => /cut to/.test(w)), ctx.warnings.join('\n'));
});

test('docx: a chart drawn in a paragraph gives its title and data where it stands; one in a text box once', async () => {
  const sales = chartXml({ title: 'Sales by Quarter', series: [{ name: 'North', cats: ['Q1', 'Q2'], vals: [10, 12] }, { name: 'South', cats: ['Q1', 'Q2'], vals: [7, 9] }] });
  const boxed = chartXml({ title: 'Returns', series: [{ name: 'All', cats: ['Q1', 'Q2'], vals: [1, 2] }] });
  const rels = '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="charts/chart1.xml"/>' +
    '<Relationship Id="rId6" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="/word/charts/chart2.xml"/>' +
    '<Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="https://example.com/chart.xml" TargetMode="External"/></Relationships>';
  const body = wPara('Quarterly Results', { style: 'Heading1' }) + wPara('The figures below are unaudited.') +
    wPara('', { after: drawingChart('rId5') }) + wPara('Sales rose in both regions.') +
    wPara('', { after: alternateBox(wPara('', { after: drawingChart('rId6') })) }) + wPara('', { after: drawingChart('rId7') });
  const els = await partitionWithHierarchy('docx', docxFile(body, stylesXml([{ id: 'Heading1', name: 'heading 1' }]), {
    'word/_rels/document.xml.rels': rels, 'word/charts/chart1.xml': sales, 'word/charts/chart2.xml': boxed,
  }));
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['Title', 'Quarterly Results'],
    ['NarrativeText', 'The figures below are unaudited.'],
    ['NarrativeText', 'Sales by Quarter'],
    ['Table', 'North South Q1 10 7 Q2 12 9'],
    ['NarrativeText', 'Sales rose in both regions.'],
    ['NarrativeText', 'Returns'],
    ['Table', 'All Q1 1 Q2 2'],
  ]);
  assert.deepEqual(rowsOf(els[3]!.metadata.text_as_html!), [['', 'North', 'South'], ['Q1', '10', '7'], ['Q2', '12', '9']]);
  // the chart belongs to the section it is drawn in
  assert.equal(els[3]!.metadata.parent_id, els[0]!.element_id);
});

test('odt: a chart object gives its title and a Table of category x series after its paragraph; in a table cell, nothing', async () => {
  const NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';
  const object = (dir: string) => `<draw:frame><draw:object xlink:href="./${dir}" xlink:type="simple"/></draw:frame>`;
  const content = `<office:document-content ${NS}><office:body><office:text>` +
    '<text:h text:outline-level="1">Quarterly Results</text:h>' +
    `<text:p>The figures below are unaudited.</text:p><text:p>${object('Object 1')}</text:p>` +
    `<text:p>Sales rose in both regions, as the chart ${object('Object 2')} shows for returns.</text:p>` +
    `<table:table><table:table-row><table:table-cell><text:p>Cell</text:p><text:p>${object('Object 1')}</text:p></table:table-cell><table:table-cell><text:p>Other</text:p></table:table-cell></table:table-row></table:table>` +
    '</office:text></office:body></office:document-content>';
  const plot = (cols: number) => '<chart:axis chart:dimension="x"><chart:categories table:cell-range-address="local-table.$A$2:.$A$3"/></chart:axis>' +
    Array.from({ length: cols }, (_, k) => { const c = 'BC'[k]; return `<chart:series chart:values-cell-range-address="local-table.$${c}$2:.$${c}$3" chart:label-cell-address="local-table.$${c}$1"/>`; }).join('');
  const data = zipSync({
    mimetype: strToU8('application/vnd.oasis.opendocument.text'),
    'content.xml': strToU8(content),
    'Object 1/content.xml': strToU8(odfChart('Sales by Quarter', plot(2), [[null, 'North', 'South'], ['Q1', 10, 7], ['Q2', 12, 9]])),
    'Object 2/content.xml': strToU8(odfChart('Returns', plot(1), [[null, 'All'], ['Q1', 1], ['Q2', 2]])),
  });
  const els = await partitionWithHierarchy('odt', data);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['Title', 'Quarterly Results'],
    ['NarrativeText', 'The figures below are unaudited.'],
    ['NarrativeText', 'Sales by Quarter'],
    ['Table', 'North South Q1 10 7 Q2 12 9'],
    ['NarrativeText', 'Sales rose in both regions, as the chart shows for returns.'],
    ['NarrativeText', 'Returns'],
    ['Table', 'All Q1 1 Q2 2'],
    ['Table', 'Cell Other'],
  ]);
  assert.deepEqual(rowsOf(els[3]!.metadata.text_as_html!), [['', 'North', 'South'], ['Q1', '10', '7'], ['Q2', '12', '9']]);
  assert.equal(els[3]!.metadata.parent_id, els[0]!.element_id);
});
