// DOCX structure: text boxes (DrawingML, VML, mc:AlternateContent read once, nesting bounded),
// headings from the style chain and outline levels, body text vs display text, one-cell tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FORMAT_PARTITIONERS } from '../../../../lambdas/engine/partition/formats/index';
import { CORPUS, cleanText, context, partition, textAccuracy } from './helpers';
import { alternateBox, docxFile, drawingBox, stylesXml, vmlBox, W_NS, wPara, wTable } from '../../../support/word-docs';

const summary = (els: { type: string; text: string; metadata: { category_depth?: number } }[]): string[] =>
  els.map((e) => `${e.type}${e.metadata.category_depth !== undefined ? `@${e.metadata.category_depth}` : ''}: ${e.text}`);

test('docx text boxes: read once (Choice, not its Fallback copy), at the anchor, typed like paragraphs', async () => {
  const box = wPara('Patients arrive at the front desk and register.') + wPara('Reportable symptoms', { num: 0 }) + wPara('Fever', { num: 1 });
  const body =
    wPara('The clinic follows the procedure drawn below.') +
    wPara('', { after: alternateBox(box) }) +
    wPara('After the box', { after: vmlBox(wPara('Only in VML')) }) +
    wPara('Drawn box only', { after: drawingBox(wPara('Only in DrawingML')) }) +
    wPara('The end of the procedure is reached here.');
  const els = await partition('docx', docxFile(body));
  assert.deepEqual(summary(els), [
    'NarrativeText: The clinic follows the procedure drawn below.',
    'NarrativeText: Patients arrive at the front desk and register.',
    'ListItem@0: Reportable symptoms',
    'ListItem@1: Fever',
    'NarrativeText: After the box',
    'NarrativeText: Only in VML',
    'NarrativeText: Drawn box only',
    'NarrativeText: Only in DrawingML',
    'NarrativeText: The end of the procedure is reached here.',
  ]);
});

test('docx text boxes: a box in a table cell is part of the cell text; a table in a box is a Table', async () => {
  const cellWithBox = wPara('Step', { after: alternateBox(wPara('inside the box')) });
  const body =
    wTable([[cellWithBox, wPara('two')], [wPara('three'), wPara('four')]]) +
    wPara('', { after: drawingBox(wTable([[wPara('a'), wPara('b')], [wPara('c'), wPara('d')]])) });
  const els = await partition('docx', docxFile(body));
  assert.deepEqual(els.map((e) => e.type), ['Table', 'Table']);
  assert.equal(els[0]!.text, 'Step inside the box two three four');
  assert.equal(els[1]!.text, 'a b c d');
});

test('docx text boxes: deep nesting (box in table in box …) stays bounded, with a warning', async () => {
  let inner = wPara('the innermost words');
  for (let i = 0; i < 60; i++) {
    inner = i % 2 ? wPara(`level ${i}`, { after: drawingBox(inner) }) : wTable([[inner, wPara(`cell ${i}`)]]);
  }
  const ctx = context('docx');
  const started = Date.now();
  const els = await FORMAT_PARTITIONERS.docx!(docxFile(wPara('Top of the document is here.') + inner), ctx);
  assert.ok(Date.now() - started < 20_000, 'bounded time'); // not a speed test: unbounded nesting would not end
  assert.equal(els[0]!.text, 'Top of the document is here.');
  assert.ok(els.length > 1, 'the outer levels are read');
  assert.ok(!cleanText(els).includes('the innermost words'), 'the deepest content is left out');
  assert.equal(ctx.warnings.filter((w) => /nested more than/.test(w)).length, 1);
});

test('docx headings: style chain (basedOn, id), outline level in the paragraph and its style; numbered headings', async () => {
  const styles = stylesXml([
    { id: 'Normal', name: 'Normal', isDefault: true },
    { id: 'Heading1', name: 'heading 1', basedOn: 'Normal', outline: 0 },
    { id: 'Heading2', name: 'heading 2', basedOn: 'Normal', outline: 1 },
    { id: 'ChapterHead', name: 'Chapter Head', basedOn: 'Heading2' },
    { id: 'Outlined', name: 'Part label', basedOn: 'Normal', outline: 2 },
    { id: 'Bullets', name: 'Bullets', basedOn: 'Normal', numbered: true },
  ]);
  const body =
    wPara('Overview', { style: 'ChapterHead' }) +
    wPara('Scope of work', { style: 'Outlined' }) +
    wPara('Budget', { outline: 0 }) +
    wPara('1 Introduction', { style: 'Heading1', num: 0 }) +
    wPara('Plain body line', { style: 'Heading1', outline: 9 }) +
    wPara('A numbered item', { num: 0 }) +
    wPara('A styled bullet', { style: 'Bullets' });
  const els = await partition('docx', docxFile(body, styles));
  assert.deepEqual(summary(els), [
    'Title@1: Overview',
    'Title@2: Scope of work',
    'Title@0: Budget',
    'Title@0: 1 Introduction',
    'NarrativeText: Plain body line',
    'ListItem@0: A numbered item',
    'ListItem@0: A styled bullet',
  ]);
});

test('docx body text: short plain lines are NarrativeText; bold, large, capitals or section numbers stay display text', async () => {
  const styles = stylesXml([{ id: 'Normal', name: 'Normal', isDefault: true, size: 22 }, { id: 'Strong', name: 'Strong', basedOn: 'Normal', bold: true }]);
  const body =
    wPara('Last updated 2024') +
    wPara('Yes') +
    wPara('Key findings', { bold: true }) +
    wPara('Summary of costs', { style: 'Strong' }) +
    wPara('Big banner line', { size: 40 }) +
    wPara('GENERAL TERMS') +
    wPara('A.\tPurpose') +
    wPara('42');
  const els = await partition('docx', docxFile(body, styles));
  assert.deepEqual(summary(els), [
    'NarrativeText: Last updated 2024',
    'NarrativeText: Yes',
    'UncategorizedText: Key findings',
    'UncategorizedText: Summary of costs',
    'UncategorizedText: Big banner line',
    'UncategorizedText: GENERAL TERMS',
    'UncategorizedText: A.\tPurpose',
    'UncategorizedText: 42',
  ]);
});

test('docx tables: a one-cell table is a frame (its list and paragraphs are read); a table with a list in a cell stays one Table', async () => {
  const frame = wTable([[wPara('First point', { num: 0 }) + wPara('Second point', { num: 0 })]]);
  const real = wTable([[wPara('Step'), wPara('Notes')], [wPara('One'), wPara('alpha', { num: 0 }) + wPara('beta', { num: 0 })]]);
  const els = await partition('docx', docxFile(frame + wPara('Text between the tables is here.') + real));
  assert.deepEqual(summary(els), ['ListItem@0: First point', 'ListItem@0: Second point', 'NarrativeText: Text between the tables is here.', 'Table: Step Notes One alpha beta']);
  assert.equal(els[3]!.metadata.text_as_html, '<table><tr><td>Step</td><td>Notes</td></tr><tr><td>One</td><td>alpha beta</td></tr></table>');
});

test('docling textbox.docx: every text box read once; text and types near the ground truth', async () => {
  const dir = path.join(CORPUS, 'docling');
  const data = new Uint8Array(readFileSync(path.join(dir, 'docs', 'textbox.docx')));
  const exp = JSON.parse(readFileSync(path.join(dir, 'expected', 'textbox.docx.json'), 'utf8')) as { type: string; text: string }[];
  const els = await partition('docx', data);
  assert.ok(textAccuracy(cleanText(els), cleanText(exp)) > 0.95);
  assert.equal(els.filter((e) => e.text === 'Case closed.').length, 1);
  assert.ok(els.filter((e) => e.type === 'ListItem').length >= 4);
});

test('docx content controls and custom XML around blocks, table rows and cells: their content is read where it stands', async () => {
  // a repeating section (w:sdt around table rows), a custom XML element around a paragraph, a row and
  // a cell, and a content control around a table: each one's text was dropped
  const sdt = (content: string) => `<w:sdt><w:sdtPr><w:alias w:val="Section"/></w:sdtPr><w:sdtContent>${content}</w:sdtContent></w:sdt>`;
  const custom = (content: string) => `<w:customXml w:element="item">${content}</w:customXml>`;
  const tc = (t: string) => `<w:tc>${wPara(t)}</w:tc>`;
  const table = `<w:tbl><w:tr>${tc('Item')}${tc('Count')}</w:tr>${sdt(`<w:tr>${tc('Pumps')}${tc('3')}</w:tr><w:tr>${tc('Seals')}${tc('12')}</w:tr>`)}` +
    `${custom(`<w:tr>${tc('Filters')}${custom(tc('7'))}</w:tr>`)}</w:tbl>`;
  const body = wPara('The parts counted this month are listed in the table below.') + table +
    custom(wPara('A paragraph wrapped in custom markup is read as well.')) + sdt(custom(wTable([[wPara('a'), wPara('b')], [wPara('c'), wPara('d')]])));
  const els = await partition('docx', docxFile(body));
  assert.deepEqual(summary(els), [
    'NarrativeText: The parts counted this month are listed in the table below.',
    'Table: Item Count Pumps 3 Seals 12 Filters 7',
    'NarrativeText: A paragraph wrapped in custom markup is read as well.',
    'Table: a b c d',
  ]);
  assert.equal(els[1]!.metadata.text_as_html, '<table><tr><td>Item</td><td>Count</td></tr><tr><td>Pumps</td><td>3</td></tr><tr><td>Seals</td><td>12</td></tr><tr><td>Filters</td><td>7</td></tr></table>');
});

test('docx list levels: a list style gives its level (its w:ilvl, else the number ending "List Bullet 2") when the paragraph gives none', async () => {
  const styles = `<w:styles ${W_NS}><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>` +
    '<w:style w:type="paragraph" w:styleId="ListBullet"><w:name w:val="List Bullet"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>' +
    '<w:style w:type="paragraph" w:styleId="ListBullet2"><w:name w:val="List Bullet 2"/><w:pPr><w:numPr><w:numId w:val="2"/></w:numPr></w:pPr></w:style>' +
    '<w:style w:type="paragraph" w:styleId="StepSub"><w:name w:val="Procedure Sub Step"/><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="3"/></w:numPr></w:pPr></w:style>' +
    '<w:style w:type="paragraph" w:styleId="StepSubNote"><w:name w:val="Sub Step Note"/><w:basedOn w:val="StepSub"/></w:style>' +
    '<w:style w:type="paragraph" w:styleId="List3"><w:name w:val="List 3"/></w:style></w:styles>';
  const body =
    wPara('Fruit we stock', { style: 'ListBullet' }) +
    wPara('Apples from the valley', { style: 'ListBullet2' }) +
    wPara('Check the seals', { style: 'StepSub' }) +
    wPara('Seals are replaced yearly', { style: 'StepSubNote' }) +
    wPara('Third level entry', { style: 'List3' }) +
    wPara('Own level wins', { style: 'ListBullet2', num: 0 });
  const els = await partition('docx', docxFile(body, styles));
  assert.deepEqual(summary(els), [
    'ListItem@0: Fruit we stock',
    'ListItem@1: Apples from the valley',
    'ListItem@1: Check the seals',
    'ListItem@1: Seals are replaced yearly',
    'ListItem@2: Third level entry',
    'ListItem@0: Own level wins',
  ]);
});

test('docx markup-compatibility choices between paragraphs, rows or cells: one branch is read, once', async () => {
  const choice = (a: string, b: string): string => `<mc:AlternateContent><mc:Choice Requires="w14">${a}</mc:Choice><mc:Fallback>${b}</mc:Fallback></mc:AlternateContent>`;
  const cell = (t: string): string => `<w:tc>${wPara(t)}</w:tc>`;
  const body =
    wPara('The committee met on Monday.') +
    choice(wPara('Minutes were approved without changes.'), wPara('Minutes were approved without changes.')) +
    `<w:tbl><w:tr>${cell('Item')}${cell('Owner')}</w:tr>${choice(`<w:tr>${cell('Budget')}${cell('Finance')}</w:tr>`, `<w:tr>${cell('Budget')}${cell('Finance')}</w:tr>`)}</w:tbl>`;
  const els = await partition('docx', docxFile(body));
  assert.deepEqual(summary(els), ['NarrativeText: The committee met on Monday.', 'NarrativeText: Minutes were approved without changes.', 'Table: Item Owner Budget Finance']);
});
