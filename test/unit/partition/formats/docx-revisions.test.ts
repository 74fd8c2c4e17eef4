// DOCX as Word shows it with its markup accepted: tracked deletions (runs, moved-from text, table
// rows) leave no trace, and a form's check box keeps its state in the text it opens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition } from './helpers';
import { docxFile } from '../../../support/word-docs';

const REV = 'w:id="1" w:author="Ann" w:date="2024-01-01T00:00:00Z"';
const run = (t: string): string => `<w:r><w:t xml:space="preserve">${t}</w:t></w:r>`;
const deleted = (t: string): string => `<w:del ${REV}><w:r><w:delText>${t}</w:delText></w:r></w:del>`;
const cell = (inner: string): string => `<w:tc><w:p>${inner}</w:p></w:tc>`;

test('docx tracked changes: a deleted table row is no row of the table; an inserted row is', async () => {
  const body =
    `<w:tbl><w:tr>${cell(run('Item'))}${cell(run('Cost'))}</w:tr>` +
    `<w:tr><w:trPr><w:del ${REV}/></w:trPr>${cell(deleted('Chairs'))}${cell(deleted('200'))}</w:tr>` +
    `<w:tr><w:trPr><w:ins ${REV}/></w:trPr>${cell(`<w:ins ${REV}>${run('Tables')}</w:ins>`)}${cell(run('450'))}</w:tr></w:tbl>`;
  const [table] = await partition('docx', docxFile(body));
  assert.equal(table?.text, 'Item Cost Tables 450');
  assert.equal(table?.metadata.text_as_html, '<table><tr><td>Item</td><td>Cost</td></tr><tr><td>Tables</td><td>450</td></tr></table>');
});

test('docx forms: a check box opening a line (legacy field or content control) stays in its text', async () => {
  const checkBox = (checked: string): string =>
    `<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:checkBox><w:default w:val="${checked}"/></w:checkBox></w:ffData></w:fldChar></w:r>` +
    `<w:r><w:instrText> FORMCHECKBOX </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;
  const control = `<w:sdt><w:sdtPr><w:alias w:val="Agree"/></w:sdtPr><w:sdtContent>${run('☐')}</w:sdtContent></w:sdt>`;
  const body =
    `<w:p>${checkBox('1')}${run(' I agree to the terms')}</w:p>` +
    `<w:p>${checkBox('0')}${run(' Send me the newsletter')}</w:p>` +
    `<w:p>${control}${run(' Call me back')}</w:p>`;
  const els = await partition('docx', docxFile(body));
  assert.deepEqual(els.map((e) => e.text), ['☒ I agree to the terms', '☐ Send me the newsletter', '☐ Call me back']);
});
