// DOCX / PPTX / XLSX / ODT / EPUB / DOC / PPT partitioners on generated and corpus inputs, including
// corrupt archives and zip-bomb caps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { zipSync, strToU8 } from 'fflate';
import { UnprocessableDocument } from '../../../../lambdas/errors';
import { readZip } from '../../../../lambdas/engine/partition/formats/common';
import { corpusDoc, partition, partitionWithHierarchy, types } from './helpers';
import { workbook, xlsxWorkbook } from '../../../support/workbooks';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const p = (text: string, opts: { style?: string; num?: number; bold?: boolean; pageBreak?: boolean } = {}): string =>
  `<w:p><w:pPr>${opts.style ? `<w:pStyle w:val="${opts.style}"/>` : ''}${opts.num !== undefined ? `<w:numPr><w:ilvl w:val="${opts.num}"/><w:numId w:val="1"/></w:numPr>` : ''}</w:pPr>` +
  `${opts.pageBreak ? '<w:r><w:br w:type="page"/></w:r>' : ''}<w:r>${opts.bold ? '<w:rPr><w:b/></w:rPr>' : ''}<w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

function docx(body: string, extra: Record<string, string> = {}): Uint8Array {
  const styles = `<w:styles ${W}><w:style w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:styleId="Heading2"><w:name w:val="heading 2"/></w:style><w:style w:styleId="ListBullet"><w:name w:val="List Bullet"/></w:style></w:styles>`;
  const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/" TargetMode="External"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="footer1.xml"/></Relationships>`;
  return zipSync({
    'word/document.xml': strToU8(`<?xml version="1.0"?><w:document ${W}><w:body>${body}</w:body></w:document>`),
    'word/styles.xml': strToU8(styles),
    'word/_rels/document.xml.rels': strToU8(rels),
    'word/header1.xml': strToU8(`<w:hdr ${W}>${p('Company Header')}</w:hdr>`),
    'word/footer1.xml': strToU8(`<w:ftr ${W}>${p('Page footer text')}</w:ftr>`),
    ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, strToU8(v)])),
  });
}

test('docx: headings, hierarchy, lists, emphasis, links, tables, headers/footers and page breaks', async () => {
  const body =
    p('Introduction', { style: 'Heading1' }) +
    p('The committee reviewed the proposal and approved it after a long discussion.') +
    p('Details', { style: 'Heading2' }) +
    p('First point', { num: 0 }) +
    p('Nested point', { num: 1 }) +
    p('Bold words here', { bold: true }) +
    `<w:p><w:hyperlink r:id="rId1"><w:r><w:t>our site</w:t></w:r></w:hyperlink></w:p>` +
    `<w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc><w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc></w:tr>` +
    `<w:tr><w:tc><w:p><w:r><w:t>c</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>d</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>e &amp; f</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
    p('Second page text is written here for the reader.', { pageBreak: true }) +
    `<w:sectPr><w:headerReference w:type="default" r:id="rId2"/><w:footerReference w:type="default" r:id="rId3"/></w:sectPr>`;
  const els = await partitionWithHierarchy('docx', docx(body));
  // a bold line stays uncategorized display text; a short plain body line ("our site") is body text
  assert.deepEqual(types(els), ['Header', 'Title', 'NarrativeText', 'Title', 'ListItem', 'ListItem', 'UncategorizedText', 'NarrativeText', 'Table', 'NarrativeText', 'Footer']);
  const [header, h1, para, h2, li1, li2, bold, link, table, page2, footer] = els;
  assert.equal(header!.metadata.header_footer_type, 'primary');
  assert.equal(header!.text, 'Company Header');
  assert.equal(footer!.text, 'Page footer text');
  assert.equal(h1!.metadata.category_depth, 0);
  assert.equal(h2!.metadata.category_depth, 1);
  assert.equal(h2!.metadata.parent_id, h1!.element_id);
  assert.equal(para!.metadata.parent_id, h1!.element_id);
  assert.equal(li1!.metadata.parent_id, h2!.element_id);
  assert.equal(li2!.metadata.category_depth, 1);
  assert.deepEqual(bold!.metadata.emphasized_text_contents, ['Bold words here']);
  assert.deepEqual(bold!.metadata.emphasized_text_tags, ['b']);
  assert.deepEqual(link!.metadata.link_urls, ['https://example.com/']);
  assert.deepEqual(link!.metadata.link_texts, ['our site']);
  assert.equal(table!.text, 'a b c d e & f');
  assert.equal(table!.metadata.text_as_html, '<table><tr><td>a</td><td colspan="2">b</td></tr><tr><td>c</td><td>d</td><td>e &amp; f</td></tr></table>');
  assert.equal(h1!.metadata.page_number, 1);
  assert.equal(page2!.metadata.page_number, 2);
});

test('docx: a paragraph of Office Math is a Formula in LaTeX; math inside a paragraph is set off by $', async () => {
  const M = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"';
  const sup = (base: string, exp: string) => `<m:sSup><m:e><m:r><m:t>${base}</m:t></m:r></m:e><m:sup><m:r><m:t>${exp}</m:t></m:r></m:sup></m:sSup>`;
  const body = `<w:p ${M}><m:oMathPara><m:oMath><m:r><m:t>E=m</m:t></m:r>${sup('c', '2')}</m:oMath></m:oMathPara></w:p>` +
    `<w:p ${M}><w:r><w:t xml:space="preserve">The area of a circle is </w:t></w:r><m:oMath><m:r><m:t>π</m:t></m:r>${sup('r', '2')}</m:oMath><w:r><w:t xml:space="preserve"> for a radius </w:t></w:r><m:oMath><m:r><m:t>r</m:t></m:r></m:oMath><w:r><w:t>.</w:t></w:r></w:p>`;
  const els = await partition('docx', docx(body));
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['Formula', 'E=mc^{2}'],
    ['NarrativeText', 'The area of a circle is $\\pi r^{2}$ for a radius $r$.'],
  ]);
});

test('docx without page breaks has no page_number; corpus page-breaks.docx counts pages', async () => {
  const els = await partition('docx', docx(p('Only text on a single page is written here.')));
  assert.equal(els[0]!.metadata.page_number, undefined);
  // rendered page breaks split paragraphs; odd-page section starts add a page; links are not split
  const pb = await partition('docx', corpusDoc('page-breaks.docx'));
  assert.deepEqual(pb.map((e) => e.metadata.page_number), [1, 2, 3, 3, 3, 5, 5, 6]);
  assert.ok(pb[1]!.text.endsWith('but break falls inside link so text stays together.'));
});

test('docx-hdrftr.docx: header and footer typed and placed around the body', async () => {
  const els = await partition('docx', corpusDoc('docx-hdrftr.docx'));
  assert.equal(els[0]!.type, 'Header');
  assert.equal(els[0]!.text, 'First header para\nTable cell1 Table cell2\nLast header para');
  assert.equal(els[els.length - 1]!.type, 'Footer');
  assert.ok(els.some((e) => e.text === 'Main document'));
});

test('fake-doc-emphasized-text.docx: emphasis in paragraphs and tables', async () => {
  const els = await partition('docx', corpusDoc('fake-doc-emphasized-text.docx'));
  for (const el of els.slice(0, 2)) {
    assert.deepEqual(el.metadata.emphasized_text_contents, ['bold', 'italic', 'bold-italic', 'bold-italic']);
    assert.deepEqual(el.metadata.emphasized_text_tags, ['b', 'i', 'b', 'i']);
  }
  assert.equal(els[2]!.metadata.emphasized_text_contents, undefined);
});

test('handbook-872p.docx partitions completely', async () => {
  const els = await partition('docx', corpusDoc('handbook-872p.docx'));
  assert.ok(els.length > 4000);
  assert.ok(els.filter((e) => e.type === 'Title').length > 100);
});

test('corrupt and hostile archives are rejected with UnprocessableDocument', async () => {
  const good = docx(p('Hello there, this is fine.'));
  await assert.rejects(partition('docx', good.slice(0, good.length - 40)), UnprocessableDocument);
  await assert.rejects(partition('docx', new TextEncoder().encode('PK\u0003\u0004 garbage garbage garbage garbage')), UnprocessableDocument);
  await assert.rejects(partition('docx', zipSync({ 'word/other.xml': strToU8('<x/>') })), UnprocessableDocument);
  await assert.rejects(partition('docx', docx('').slice(0, 0)), UnprocessableDocument);
  await assert.rejects(partition('pptx', new Uint8Array([1, 2, 3, 4, 5])), UnprocessableDocument);
  await assert.rejects(partition('xlsx', new TextEncoder().encode('not a workbook at all, really not')), UnprocessableDocument);
  await assert.rejects(partition('odt', good), UnprocessableDocument);
  await assert.rejects(partition('epub', good), UnprocessableDocument);
  await assert.rejects(partition('doc', new TextEncoder().encode('plain text pretending to be a doc')), UnprocessableDocument);
  await assert.rejects(partition('docx', corpusDoc('duplicate-paragraphs.doc')), /encrypted \(password-protected\) or a legacy binary/);
  // garbage bytes inside document.xml
  const garbled = zipSync({ 'word/document.xml': new Uint8Array(4096).map((_, i) => (i * 7919) % 256) });
  await assert.rejects(partition('docx', garbled), UnprocessableDocument);
});

test('zip caps: total uncompressed size and entry count', () => {
  const big = zipSync({ 'a.xml': new Uint8Array(50_000), 'b.xml': new Uint8Array(50_000) });
  assert.throws(() => readZip(big, 'docx', () => true, { maxTotalBytes: 60_000, maxEntries: 100, maxEntryBytes: 1e9 }), /uncompressed size exceeds the limit/);
  const many = zipSync(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}.xml`, strToU8('x')])));
  assert.throws(() => readZip(many, 'docx', () => true, { maxTotalBytes: 1e9, maxEntries: 10, maxEntryBytes: 1e9 }), /entry count \(20\) exceeds the limit of 10 entries/);
  assert.equal(readZip(many, 'docx', (n) => n === 'f3.xml').size, 1);
});

test('xlsx: one table per sheet region, leading single cells as text, page_number/page_name per sheet', async () => {
  const data = xlsxWorkbook({ Q1: [['Quarterly Results'], ['Region', 'Sales'], ['North', 10], ['South', 20]], Other: [['a', 'b'], ['c', 'd'], [], [], ['x', 'y']] });
  const els = await partition('xlsx', data);
  assert.deepEqual(types(els), ['Title', 'Table', 'Table', 'Table']);
  assert.equal(els[1]!.text, 'Region Sales North 10 South 20');
  assert.equal(els[1]!.metadata.text_as_html, '<table><tr><td>Region</td><td>Sales</td></tr><tr><td>North</td><td>10</td></tr><tr><td>South</td><td>20</td></tr></table>');
  assert.deepEqual([els[0]!.metadata.page_number, els[0]!.metadata.page_name], [1, 'Q1']);
  assert.deepEqual([els[3]!.metadata.page_number, els[3]!.metadata.page_name], [2, 'Other']);
});

test('pptx: slide numbers, title, bullets with depth, tables', async () => {
  const els = await partition('pptx', corpusDoc('fake-power-point.pptx'));
  assert.deepEqual(types(els), ['Title', 'ListItem', 'ListItem', 'ListItem', 'NarrativeText', 'NarrativeText']);
  assert.deepEqual(els.map((e) => e.metadata.category_depth).slice(1, 4), [0, 1, 2]);
  assert.ok(els.every((e) => e.metadata.page_number === 1));
  const table = await partition('pptx', corpusDoc('fake-power-point-table.pptx'));
  const t = table.find((e) => e.type === 'Table');
  assert.ok(t?.metadata.text_as_html?.startsWith('<table><tr><td>Column 1</td>'));
});

test('odt: formula objects (MathML in their own content.xml) as LaTeX, inline between $ or a Formula of their own', async () => {
  const NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';
  const object = (dir: string) => `<draw:frame><draw:object xlink:href="./${dir}" xlink:type="simple"/></draw:frame>`;
  const content = `<office:document-content ${NS}><office:body><office:text>` +
    `<text:p>The energy of a body is ${object('Formula-0/')} at rest.</text:p><text:p>${object('Formula-1/')}</text:p>` +
    `</office:text></office:body></office:document-content>`;
  const M = 'xmlns="http://www.w3.org/1998/Math/MathML"';
  const data = zipSync({
    mimetype: strToU8('application/vnd.oasis.opendocument.text'),
    'content.xml': strToU8(content),
    'Formula-0/content.xml': strToU8(`<math ${M}><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math>`),
    'Formula-1/content.xml': strToU8(`<math ${M} display="block"><mfrac><mi>a</mi><mi>b</mi></mfrac></math>`),
  });
  const els = await partition('odt', data);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['NarrativeText', 'The energy of a body is $E=mc^{2}$ at rest.'],
    ['Formula', '\\frac{a}{b}'],
  ]);
});

test('odt: a paragraph of a heading style (an automatic style whose parent is Heading 1, as an import writes it) is a heading; in a table cell it stays the cell\'s text', async () => {
  const NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';
  const content = `<office:document-content ${NS}><office:automatic-styles>` +
    `<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Heading_20_1"/>` +
    `<style:style style:name="P2" style:family="paragraph" style:parent-style-name="Outline"/></office:automatic-styles>` +
    `<office:body><office:text><text:p text:style-name="P1">Inventory report</text:p>` +
    `<text:p text:style-name="Text_20_body">The stock was counted in the spring by the whole team.</text:p>` +
    `<text:p text:style-name="P2">Counting method</text:p>` +
    `<text:p text:style-name="Text_20_body">Each shelf was counted twice by two different people.</text:p>` +
    `<table:table><table:table-row><table:table-cell><text:p text:style-name="P1">Shelf</text:p></table:table-cell>` +
    `<table:table-cell><text:p>Count</text:p></table:table-cell></table:table-row></table:table>` +
    `</office:text></office:body></office:document-content>`;
  const styles = `<office:document-styles ${NS}><office:styles>` +
    `<style:style style:name="Heading" style:family="paragraph"/>` +
    `<style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Heading"/>` +
    `<style:style style:name="Outline" style:family="paragraph" style:default-outline-level="2"/>` +
    `<style:style style:name="Text_20_body" style:display-name="Text body" style:family="paragraph"/>` +
    `</office:styles></office:document-styles>`;
  const data = zipSync({ mimetype: strToU8('application/vnd.oasis.opendocument.text'), 'content.xml': strToU8(content), 'styles.xml': strToU8(styles) });
  const els = await partition('odt', data);
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.category_depth]), [
    ['Title', 'Inventory report', 0],
    ['NarrativeText', 'The stock was counted in the spring by the whole team.', undefined],
    ['Title', 'Counting method', 1],
    ['NarrativeText', 'Each shelf was counted twice by two different people.', undefined],
    ['Table', 'Shelf Count', undefined],
  ]);
});

test('odt and epub from the corpus', async () => {
  const odt = await partition('odt', corpusDoc('simple.odt'));
  assert.deepEqual(types(odt), ['Title', 'ListItem', 'ListItem', 'Title', 'NarrativeText', 'NarrativeText', 'UncategorizedText', 'Address']);
  const epub = await partition('epub', corpusDoc('winter-sports.epub'));
  assert.ok(epub.length > 500);
  assert.ok(epub.some((e) => e.type === 'Table' && e.metadata.text_as_html?.startsWith('<table>')));
});

test('doc: text paragraphs via word-extractor', async () => {
  const els = await partition('doc', corpusDoc('duplicate-paragraphs.doc'));
  assert.equal(els.length, 7);
  assert.equal(els.filter((e) => e.text === 'some text').length, 6);
});

test('ppt: not an OLE file is a 422 (the JavaScript reader is tested in ppt.test.ts)', async () => {
  await assert.rejects(partition('ppt', new TextEncoder().encode('not an OLE file')), UnprocessableDocument);
});

/** `besideTitle`: the body shape stands to the right of the title, its top a hair above the title's. */
function pptx(withNotes: boolean, inheritTitlePosition = false, besideTitle = false): Uint8Array {
  const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const rel = (id: string, target: string): string => `<Relationship Id="${id}" Type="x" Target="${target}"/>`;
  const rels = (body: string): Uint8Array => strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`);
  const sp = (y: number, ph: string, paras: string, x = 0): string =>
    `<p:sp><p:nvSpPr><p:cNvPr id="1" name="s"/><p:cNvSpPr/><p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="1" cy="1"/></a:xfrm></p:spPr><p:txBody>${paras}</p:txBody></p:sp>`;
  const para = (t: string, bullet = false, lvl = 0): string => `<a:p><a:pPr lvl="${lvl}">${bullet ? '<a:buChar char="•"/>' : ''}</a:pPr><a:r><a:t>${t}</a:t></a:r></a:p>`;
  const titleShape = (title: string, y: number): string =>
    inheritTitlePosition
      ? `<p:sp><p:nvSpPr><p:cNvPr id="2" name="t"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody>${para(title)}</p:txBody></p:sp>`
      : sp(y, '<p:ph type="title"/>', para(title));
  const slide = (title: string, y: number): string =>
    `<p:sld ${A}><p:cSld><p:spTree>${sp(besideTitle ? y - 2 : y + 100, '<p:ph type="body" idx="1"/>', para('Point one', true) + para('Sub point', true, 1), besideTitle ? 4_000_000 : 0)}${titleShape(title, y)}</p:spTree></p:cSld></p:sld>`;
  return zipSync({
    'ppt/presentation.xml': strToU8(`<p:presentation ${A}><p:sldIdLst><p:sldId id="257" r:id="rId2"/><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`),
    'ppt/_rels/presentation.xml.rels': rels(rel('rId1', 'slides/slide1.xml') + rel('rId2', 'slides/slide2.xml')),
    'ppt/slides/slide1.xml': strToU8(slide('Second Slide Title', 10)),
    'ppt/slides/slide2.xml': strToU8(slide('First Slide Title', 10)),
    'ppt/slides/_rels/slide2.xml.rels': rels((withNotes ? rel('rId9', '../notesSlides/notesSlide1.xml') : '') + rel('rId8', '../slideLayouts/slideLayout1.xml')),
    'ppt/slides/_rels/slide1.xml.rels': rels(rel('rId8', '../slideLayouts/slideLayout1.xml')),
    'ppt/slideLayouts/slideLayout1.xml': strToU8(`<p:sldLayout ${A}><p:cSld><p:spTree>${sp(500, '<p:ph type="title"/>', '')}</p:spTree></p:cSld></p:sldLayout>`),
    'ppt/notesSlides/notesSlide1.xml': strToU8(`<p:notes ${A}><p:cSld><p:spTree>${sp(0, '<p:ph type="sldImg"/>', '')}${sp(0, '<p:ph type="body" idx="1"/>', para('Remember to thank the team for their work.'))}</p:spTree></p:cSld></p:notes>`),
  });
}

test('pptx: slides in presentation order, shapes top to bottom (left to right along a row), notes with includeSlideNotes', async () => {
  const els = await partition('pptx', pptx(true), { includeSlideNotes: true });
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.page_number]), [
    ['Title', 'First Slide Title', 1],
    ['ListItem', 'Point one', 1],
    ['ListItem', 'Sub point', 1],
    ['NarrativeText', 'Remember to thank the team for their work.', 1],
    ['Title', 'Second Slide Title', 2],
    ['ListItem', 'Point one', 2],
    ['ListItem', 'Sub point', 2],
  ]);
  assert.equal(els[2]!.metadata.category_depth, 1);
  const noNotes = await partition('pptx', pptx(true), { includeSlideNotes: false });
  assert.equal(noNotes.length, 6);
  // a title placeholder without its own position takes the layout's (here below the body)
  const inherited = await partition('pptx', pptx(false, true));
  assert.deepEqual(inherited.slice(0, 3).map((e) => e.text), ['Point one', 'Sub point', 'First Slide Title']);
  // shapes side by side, tops a hair apart (a twentieth of an inch or less), read left to right
  const beside = await partition('pptx', pptx(false, false, true));
  assert.deepEqual(beside.slice(0, 3).map((e) => e.text), ['First Slide Title', 'Point one', 'Sub point']);
});

test('pptx: Office Math as LaTeX (inline between $, a paragraph of math a Formula), a shape in alternatives placed where it stands, in a group too', async () => {
  const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:a14="http://schemas.microsoft.com/office/drawing/2010/main" xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"';
  const sp = (y: number, ph: string, paras: string, x = 0): string =>
    `<p:sp><p:nvSpPr><p:cNvPr id="1" name="s"/><p:cNvSpPr/><p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="1" cy="1"/></a:xfrm></p:spPr><p:txBody>${paras}</p:txBody></p:sp>`;
  const run = (t: string) => `<a:r><a:t>${t}</a:t></a:r>`;
  const sup = '<m:sSup><m:e><m:r><m:t>c</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup>';
  const frac = '<m:f><m:num><m:r><m:t>a</m:t></m:r></m:num><m:den><m:r><m:t>b</m:t></m:r></m:den></m:f>';
  const body = `<a:p><a:pPr><a:buNone/></a:pPr>${run('The energy is ')}<a14:m><m:oMath><m:r><m:t>E=m</m:t></m:r>${sup}</m:oMath></a14:m>${run(' at rest.')}</a:p>` +
    `<a:p><a:pPr><a:buNone/></a:pPr><a14:m><m:oMathPara><m:oMath>${frac}</m:oMath></m:oMathPara></a14:m></a:p>`;
  const slide = `<p:sld ${A}><p:cSld><p:spTree><mc:AlternateContent><mc:Choice Requires="a14">${sp(300, '<p:ph idx="1"/>', body)}</mc:Choice>` +
    `<mc:Fallback>${sp(300, '<p:ph idx="1"/>', `<a:p>${run('picture of the formula')}</a:p>`)}</mc:Fallback></mc:AlternateContent>${sp(10, '<p:ph type="title"/>', `<a:p>${run('Energy')}</a:p>`)}` +
    `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="9" name="g"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="600"/><a:ext cx="1" cy="1"/><a:chOff x="0" y="0"/><a:chExt cx="1" cy="1"/></a:xfrm></p:grpSpPr>` +
    `${sp(0, '', `<a:p>${run('Grouped label')}</a:p>`)}<mc:AlternateContent><mc:Choice Requires="a14">${sp(50, '', `<a:p><a:pPr><a:buNone/></a:pPr><a14:m><m:oMathPara><m:oMath><m:r><m:t>x=1</m:t></m:r></m:oMath></m:oMathPara></a14:m></a:p>`)}</mc:Choice>` +
    `<mc:Fallback>${sp(50, '', `<a:p>${run('picture of x')}</a:p>`)}</mc:Fallback></mc:AlternateContent></p:grpSp></p:spTree></p:cSld></p:sld>`;
  const data = zipSync({
    'ppt/presentation.xml': strToU8(`<p:presentation ${A}><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`),
    'ppt/_rels/presentation.xml.rels': strToU8('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="x" Target="slides/slide1.xml"/></Relationships>'),
    'ppt/slides/slide1.xml': strToU8(slide),
  });
  const els = await partition('pptx', data);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['Title', 'Energy'],
    ['NarrativeText', 'The energy is $E=mc^{2}$ at rest.'],
    ['Formula', '\\frac{a}{b}'],
    ['NarrativeText', 'Grouped label'],
    ['Formula', 'x=1'],
  ]);
});

test('xlsx values as the library reads them: raw numbers, dates, booleans, inline strings', async () => {
  const data = xlsxWorkbook({
    Data: [
      ['Item', 'Amount', 'When', 'Paid'],
      // a display format must not change the value read
      ['Rent', { v: 1234.5, z: '#,##0' }, new Date(Date.UTC(2023, 5, 30)), true],
      ['Fees', -337, new Date(Date.UTC(2024, 0, 2, 13, 45)), false],
    ],
  });
  const [table] = await partition('xlsx', data);
  assert.equal(table!.text, 'Item Amount When Paid Rent 1234.5 2023-06-30 00:00:00 True Fees -337 2024-01-02 13:45:00 False');
  const els = await partition('xlsx', xlsxWorkbook({ N: [[-337]] }));
  assert.deepEqual(els.map((e) => [e.type, e.text]), [['UncategorizedText', '-337']]);
});

test('xlsx, xls and ods numbers under 1e-4 read as Python writes them ("3e-05"), as the library and docling show them; whole numbers all digits', async () => {
  const sheets = { Stats: [['Marker', 'p value', 'Count'], ['ALT', 0.00003, 1.5e16], ['AST', 0.0125, 42], ['GGT', 1.5e-7, -2.5e-5]] };
  for (const kind of ['xlsx', 'xls', 'ods'] as const) {
    const [table] = await partition(kind, workbook(kind, sheets));
    assert.equal(table!.text, 'Marker p value Count ALT 3e-05 15000000000000000 AST 0.0125 42 GGT 1.5e-07 -2.5e-05', kind);
  }
});

test('xlsx, xls and ods times of day (a time format, under one day) read as the time, without the epoch date', async () => {
  const sheets = { Shifts: [['Shift', 'Starts', 'Ends'], ['Early', { v: 0.3958333333333333, z: 'h:mm AM/PM' }, { v: 0.6666666666666666, z: 'hh:mm' }], ['Late', { v: 0.5, z: 'h:mm:ss' }, { v: 45419.375, z: 'dd/mm/yyyy hh:mm' }]] };
  for (const kind of ['xlsx', 'xls'] as const) {
    const [table] = await partition(kind, workbook(kind, sheets));
    assert.equal(table!.text, 'Shift Starts Ends Early 09:30:00 16:00:00 Late 12:00:00 2024-05-07 09:00:00', kind);
  }
  // ods stores a time as a duration ("PT09H30M00S") beside the text it shows ("9:30 AM")
  const NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
  const cell = (t: string, attrs = ''): string => `<table:table-cell${attrs}><text:p>${t}</text:p></table:table-cell>`;
  const time = (shown: string, value: string): string => cell(shown, ` office:value-type="time" office:time-value="${value}"`);
  const content = `<office:document-content ${NS}><office:body><office:spreadsheet><table:table table:name="Shifts">` +
    `<table:table-row>${cell('Shift')}${cell('Starts')}${cell('Ends')}</table:table-row>` +
    `<table:table-row>${cell('Early')}${time('9:30 AM', 'PT09H30M00S')}${time('4:00 PM', 'PT16H00M00S')}</table:table-row></table:table></office:spreadsheet></office:body></office:document-content>`;
  const [ods] = await partition('ods', zipSync({ mimetype: strToU8('application/vnd.oasis.opendocument.spreadsheet'), 'content.xml': strToU8(content) }));
  assert.equal(ods!.text, 'Shift Starts Ends Early 09:30:00 16:00:00');
});

test('xlsx date cells written as ISO text (t="d", strict OOXML and some exporters) read as serial dates read', async () => {
  const S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const R = (body: string) => strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`);
  const cell = (ref: string, v: string, t = 'd') => `<c r="${ref}" t="${t}"><v>${v}</v></c>`;
  const data = zipSync({
    'xl/workbook.xml': strToU8(`<workbook ${S}><sheets><sheet name="Log" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    'xl/_rels/workbook.xml.rels': R('<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'),
    'xl/worksheets/sheet1.xml': strToU8(`<worksheet ${S}><sheetData>` +
      `<row r="1">${cell('A1', 'Event', 'str')}${cell('B1', 'When', 'str')}</row>` +
      `<row r="2">${cell('A2', 'Audit', 'str')}${cell('B2', '2024-03-01T09:30:00Z')}</row>` +
      `<row r="3">${cell('A3', 'Review', 'str')}${cell('B3', '2024-04-15')}</row></sheetData></worksheet>`),
  });
  const [table] = await partition('xlsx', data);
  assert.equal(table!.text, 'Event When Audit 2024-03-01 09:30:00 Review 2024-04-15 00:00:00');
});
