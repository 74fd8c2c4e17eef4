// Office packages whose parts are not at their usual names (Word for the web and SharePoint save
// word/document2.xml; third-party exporters write xl/workbook2.xml or xl/SharedStrings.xml): the
// parts the package's relationships name are read, with their styles, headers and shared strings;
// a target written absolute (/ppt/slides/slide1.xml) is a path from the package root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strToU8, zipSync } from 'fflate';
import { partition } from './helpers';
import { stylesXml, W_NS, wPara } from '../../../support/word-docs';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const rels = (items: [string, string, string][]): Uint8Array =>
  strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`).join('')}</Relationships>`);

test('docx: a main part named by the package relationships (word/document2.xml) is read with its styles and header', async () => {
  const body = wPara('Quarterly review', { style: 'Heading1' }) + wPara('Revenue grew in every region this quarter.') +
    '<w:sectPr><w:headerReference w:type="default" r:id="rId9"/></w:sectPr>';
  const data = zipSync({
    '_rels/.rels': rels([['rId1', 'officeDocument', '/word/document2.xml']]),
    'word/document2.xml': strToU8(`<w:document ${W_NS}><w:body>${body}</w:body></w:document>`),
    'word/_rels/document2.xml.rels': rels([['rId3', 'styles', 'styles2.xml'], ['rId9', 'header', 'header7.xml']]),
    'word/styles2.xml': strToU8(stylesXml([{ id: 'Normal', name: 'Normal', isDefault: true }, { id: 'Heading1', name: 'heading 1', outline: 0 }])),
    'word/header7.xml': strToU8(`<w:hdr ${W_NS}>${wPara('Acme Corporation')}</w:hdr>`),
  });
  const els = await partition('docx', data);
  assert.deepEqual(els.map((e) => `${e.type}: ${e.text}`), ['Header: Acme Corporation', 'Title: Quarterly review', 'NarrativeText: Revenue grew in every region this quarter.']);
});

test('xlsx: the workbook, shared strings and styles the relationships name (xl/workbook2.xml, xl/SharedStrings.xml) are read', async () => {
  const S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const data = zipSync({
    '_rels/.rels': rels([['rId1', 'officeDocument', 'xl/workbook2.xml']]),
    'xl/workbook2.xml': strToU8(`<workbook ${S}><sheets><sheet name="Orders" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    'xl/_rels/workbook2.xml.rels': rels([['rId1', 'worksheet', 'worksheets/sheet1.xml'], ['rId2', 'sharedStrings', 'SharedStrings.xml'], ['rId3', 'styles', 'Styles.xml']]),
    'xl/SharedStrings.xml': strToU8(`<sst ${S}><si><t>Item</t></si><si><t>Shipped</t></si><si><t>Bolts</t></si></sst>`),
    'xl/Styles.xml': strToU8(`<styleSheet ${S}><cellXfs><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>`),
    'xl/worksheets/sheet1.xml': strToU8(`<worksheet ${S}><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>` +
      '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" s="1"><v>45352</v></c></row></sheetData></worksheet>'),
  });
  const els = await partition('xlsx', data);
  assert.deepEqual(els.map((e) => `${e.type}: ${e.text}`), ['Table: Item Shipped Bolts 2024-03-01 00:00:00']);
});

test('pptx: a presentation part named by the package relationships (ppt/presentation2.xml) gives its slides', async () => {
  const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const titleShape = '<p:sp><p:nvSpPr><p:cNvPr id="1" name="t"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr/>' +
    '<p:txBody><a:bodyPr/><a:p><a:r><a:t>Roadmap for the next year</a:t></a:r></a:p></p:txBody></p:sp>';
  const data = zipSync({
    '_rels/.rels': rels([['rId1', 'officeDocument', 'ppt/presentation2.xml']]),
    'ppt/presentation2.xml': strToU8(`<p:presentation ${P}><p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst></p:presentation>`),
    'ppt/_rels/presentation2.xml.rels': rels([['rId2', 'slide', 'slides/slide1.xml']]),
    'ppt/slides/slide1.xml': strToU8(`<p:sld ${P}><p:cSld><p:spTree>${titleShape}</p:spTree></p:cSld></p:sld>`),
  });
  const els = await partition('pptx', data);
  assert.deepEqual(els.map((e) => `${e.type}: ${e.text}`), ['Title: Roadmap for the next year']);
});

test('pptx: slides and layouts named by absolute targets (/ppt/slides/slide1.xml) are found', async () => {
  const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const body = '<p:sp><p:nvSpPr><p:cNvPr id="2" name="b"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr/>' +
    '<p:txBody><a:bodyPr/><a:p><a:r><a:t>Hire two engineers</a:t></a:r></a:p><a:p><a:r><a:t>Open the Lisbon office</a:t></a:r></a:p></p:txBody></p:sp>';
  const master = `<p:sldMaster ${P}><p:cSld><p:spTree/></p:cSld><p:txStyles><p:bodyStyle><a:lvl1pPr><a:buChar char="•"/></a:lvl1pPr></p:bodyStyle></p:txStyles></p:sldMaster>`;
  const data = zipSync({
    '_rels/.rels': rels([['rId1', 'officeDocument', '/ppt/presentation.xml']]),
    'ppt/presentation.xml': strToU8(`<p:presentation ${P}><p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst></p:presentation>`),
    'ppt/_rels/presentation.xml.rels': rels([['rId2', 'slide', '/ppt/slides/slide1.xml']]),
    'ppt/slides/slide1.xml': strToU8(`<p:sld ${P}><p:cSld><p:spTree>${body}</p:spTree></p:cSld></p:sld>`),
    'ppt/slides/_rels/slide1.xml.rels': rels([['rId1', 'slideLayout', '/ppt/slideLayouts/slideLayout1.xml']]),
    'ppt/slideLayouts/slideLayout1.xml': strToU8(`<p:sldLayout ${P}><p:cSld><p:spTree/></p:cSld></p:sldLayout>`),
    'ppt/slideLayouts/_rels/slideLayout1.xml.rels': rels([['rId1', 'slideMaster', '/ppt/slideMasters/slideMaster1.xml']]),
    'ppt/slideMasters/slideMaster1.xml': strToU8(master),
  });
  const els = await partition('pptx', data);
  assert.deepEqual(els.map((e) => `${e.type}: ${e.text}`), ['ListItem: Hire two engineers', 'ListItem: Open the Lisbon office']);
});
