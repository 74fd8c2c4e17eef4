// Office tables with merged cells (pptx a:gridSpan/rowSpan/hMerge/vMerge, docx w:gridSpan/w:vMerge/w:hMerge,
// odt number-columns/rows-spanned + covered-table-cell): one Table each, text row by row with a
// spanned cell once, text_as_html with colspan/rowspan. Documents are generated here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { zipSync, strToU8 } from 'fflate';
import { expandGrid, tableToHtml, type TableRows } from '../../../../lambdas/engine/partition/table-html';
import { partition } from './helpers';

/** The grid a text_as_html describes, spans expanded (text repeated over the span). */
function htmlGrid(html: string): string[][] {
  const rows: TableRows = [];
  for (const tr of html.match(/<tr>.*?<\/tr>/g) ?? []) {
    rows.push([...tr.matchAll(/<td((?: \w+="\d+")*)>(.*?)<\/td>/g)].map((m) => ({
      text: m[2]!,
      colspan: Number(/colspan="(\d+)"/.exec(m[1]!)?.[1] ?? 1),
      rowspan: Number(/rowspan="(\d+)"/.exec(m[1]!)?.[1] ?? 1),
    })));
  }
  return expandGrid(rows);
}

const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

function pptxWithTable(rowsXml: string): Uint8Array {
  const rels = (body: string): Uint8Array => strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`);
  const frame = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table 3"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>` +
    `<p:xfrm><a:off x="100" y="200"/><a:ext cx="6000" cy="1000"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table">` +
    `<a:tbl><a:tblPr firstRow="1" bandRow="1"/><a:tblGrid><a:gridCol w="1"/><a:gridCol w="1"/><a:gridCol w="1"/></a:tblGrid>${rowsXml}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
  return zipSync({
    'ppt/presentation.xml': strToU8(`<p:presentation ${A}><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`),
    'ppt/_rels/presentation.xml.rels': rels('<Relationship Id="rId1" Type="x" Target="slides/slide1.xml"/>'),
    'ppt/slides/slide1.xml': strToU8(`<p:sld ${A}><p:cSld><p:spTree>${frame}</p:spTree></p:cSld></p:sld>`),
  });
}

const tc = (text: string, attrs = ''): string =>
  `<a:tc${attrs}><a:txBody><a:bodyPr/><a:lstStyle/><a:p>${text ? `<a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r>` : '<a:endParaRPr lang="en-US"/>'}</a:p></a:txBody><a:tcPr/></a:tc>`;

test('pptx: merged cells (gridSpan + hMerge, rowSpan + vMerge) give one Table with colspan/rowspan', async () => {
  // PowerPoint writes every grid position: the anchor carries the span, covered positions are empty
  // a:tc with hMerge/vMerge
  const rows =
    `<a:tr h="1">${tc('Region', ' rowSpan="2"')}${tc('Sales', ' gridSpan="2"')}${tc('', ' hMerge="1"')}</a:tr>` +
    `<a:tr h="1">${tc('', ' vMerge="1"')}${tc('2022')}${tc('2023')}</a:tr>` +
    `<a:tr h="1">${tc('North')}${tc('10')}${tc('12')}</a:tr>`;
  const els = await partition('pptx', pptxWithTable(rows));
  assert.deepEqual(els.map((e) => e.type), ['Table']);
  const [t] = els;
  assert.equal(t!.text, 'Region Sales 2022 2023 North 10 12');
  assert.equal(t!.metadata.text_as_html,
    '<table><tr><td rowspan="2">Region</td><td colspan="2">Sales</td></tr><tr><td>2022</td><td>2023</td></tr><tr><td>North</td><td>10</td><td>12</td></tr></table>');
  assert.deepEqual(htmlGrid(t!.metadata.text_as_html!), [['Region', 'Sales', 'Sales'], ['Region', '2022', '2023'], ['North', '10', '12']]);
});

test('pptx: a block merge (gridSpan and rowSpan on one cell) covers its rectangle', async () => {
  const rows =
    `<a:tr h="1">${tc('Big', ' gridSpan="2" rowSpan="2"')}${tc('', ' hMerge="1"')}${tc('c')}</a:tr>` +
    `<a:tr h="1">${tc('', ' vMerge="1"')}${tc('', ' hMerge="1" vMerge="1"')}${tc('f')}</a:tr>`;
  const [t] = await partition('pptx', pptxWithTable(rows));
  assert.equal(t!.text, 'Big c f');
  assert.deepEqual(htmlGrid(t!.metadata.text_as_html!), [['Big', 'Big', 'c'], ['Big', 'Big', 'f']]);
});

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const wp = (t: string): string => `<w:p><w:r><w:t>${t}</w:t></w:r></w:p>`;
const wtc = (t: string, pr = ''): string => `<w:tc>${pr ? `<w:tcPr>${pr}</w:tcPr>` : ''}${wp(t)}</w:tc>`;
const docx = (body: string): Uint8Array =>
  zipSync({ 'word/document.xml': strToU8(`<w:document ${W}><w:body>${body}</w:body></w:document>`) });

test('docx: w:gridSpan and w:vMerge become colspan/rowspan; text row by row, a merged cell once', async () => {
  const tbl =
    '<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/><w:gridCol/></w:tblGrid>' +
    `<w:tr>${wtc('Name', '<w:vMerge w:val="restart"/>')}${wtc('Scores', '<w:gridSpan w:val="2"/>')}</w:tr>` +
    `<w:tr>${wtc('', '<w:vMerge/>')}${wtc('Q1')}${wtc('Q2')}</w:tr>` +
    `<w:tr>${wtc('Ann')}${wtc('7', '<w:vMerge w:val="restart"/>')}${wtc('8')}</w:tr>` +
    `<w:tr>${wtc('Bob')}${wtc('', '<w:vMerge w:val="continue"/>')}${wtc('9')}</w:tr>` +
    `<w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>${wtc('tail', '<w:gridSpan w:val="2"/>')}</w:tr>` +
    '</w:tbl>';
  const els = await partition('docx', docx(wp('Before the table.') + tbl));
  const tables = els.filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1);
  const [t] = tables;
  assert.equal(t!.text, 'Name Scores Q1 Q2 Ann 7 8 Bob 9 tail');
  assert.equal(t!.metadata.text_as_html,
    '<table><tr><td rowspan="2">Name</td><td colspan="2">Scores</td></tr><tr><td>Q1</td><td>Q2</td></tr>' +
    '<tr><td>Ann</td><td rowspan="2">7</td><td>8</td></tr><tr><td>Bob</td><td>9</td></tr><tr><td></td><td colspan="2">tail</td></tr></table>');
  assert.deepEqual(htmlGrid(t!.metadata.text_as_html!), [
    ['Name', 'Scores', 'Scores'], ['Name', 'Q1', 'Q2'], ['Ann', '7', '8'], ['Bob', '7', '9'], ['', 'tail', 'tail'],
  ]);
});

test('docx: a table nested in a cell stays inside that cell (one Table, its text row by row)', async () => {
  const inner = `<w:tbl><w:tr>${wtc('i1')}${wtc('i2')}</w:tr><w:tr>${wtc('i3')}${wtc('i4')}</w:tr></w:tbl>`;
  const tbl = `<w:tbl><w:tr>${wtc('outer a')}<w:tc>${wp('holds')}${inner}</w:tc></w:tr><w:tr>${wtc('b')}${wtc('c')}</w:tr></w:tbl>`;
  const els = await partition('docx', docx(tbl));
  assert.deepEqual(els.map((e) => e.type), ['Table']);
  assert.equal(els[0]!.text, 'outer a holds i1 i2 i3 i4 b c');
  assert.deepEqual(htmlGrid(els[0]!.metadata.text_as_html!), [['outer a', 'holds i1 i2 i3 i4'], ['b', 'c']]);
});

test('docx: a continued vMerge with nothing above is an empty cell, not a lost column', async () => {
  const tbl = `<w:tbl><w:tr>${wtc('x', '<w:vMerge/>')}${wtc('y')}</w:tr></w:tbl>`;
  const [t] = await partition('docx', docx(tbl));
  assert.equal(t!.metadata.text_as_html, '<table><tr><td>x</td><td>y</td></tr></table>');
});

test('docx: the legacy w:hMerge (restart, continue) widens a cell like w:gridSpan', async () => {
  const tbl =
    `<w:tbl><w:tr>${wtc('Region')}${wtc('Sales 2023', '<w:hMerge w:val="restart"/>')}${wtc('', '<w:hMerge/>')}</w:tr>` +
    `<w:tr>${wtc('')}${wtc('H1')}${wtc('H2')}</w:tr>` +
    `<w:tr>${wtc('North')}${wtc('120')}${wtc('135')}</w:tr></w:tbl>`;
  const [t] = await partition('docx', docx(tbl));
  assert.equal(t!.metadata.text_as_html,
    '<table><tr><td>Region</td><td colspan="2">Sales 2023</td></tr><tr><td></td><td>H1</td><td>H2</td></tr><tr><td>North</td><td>120</td><td>135</td></tr></table>');
});

test('odt: number-columns/rows-spanned with covered-table-cell give colspan/rowspan', async () => {
  const NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
  const cell = (t: string, attrs = ''): string => `<table:table-cell${attrs}><text:p>${t}</text:p></table:table-cell>`;
  const content =
    `<office:document-content ${NS}><office:body><office:text><text:p>The results of the trial are below.</text:p>` +
    '<table:table table:name="T"><table:table-column table:number-columns-repeated="3"/>' +
    `<table:table-row>${cell('Region', ' table:number-rows-spanned="2"')}${cell('Sales', ' table:number-columns-spanned="2"')}<table:covered-table-cell/></table:table-row>` +
    `<table:table-row><table:covered-table-cell/>${cell('2022')}${cell('2023')}</table:table-row>` +
    `<table:table-row>${cell('North')}${cell('10')}${cell('12')}</table:table-row>` +
    '</table:table></office:text></office:body></office:document-content>';
  const data = zipSync({ mimetype: strToU8('application/vnd.oasis.opendocument.text'), 'content.xml': strToU8(content) });
  const tables = (await partition('odt', data)).filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1);
  assert.equal(tables[0]!.text, 'Region Sales 2022 2023 North 10 12');
  assert.deepEqual(htmlGrid(tables[0]!.metadata.text_as_html!), [['Region', 'Sales', 'Sales'], ['Region', '2022', '2023'], ['North', '10', '12']]);
});

test('table-html: spans are clamped and escaped', () => {
  assert.equal(tableToHtml([[{ text: 'a < b', colspan: 2, rowspan: 1 }]]), '<table><tr><td colspan="2">a &lt; b</td></tr></table>');
});
