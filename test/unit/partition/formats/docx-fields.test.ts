// DOCX fields (w:fldChar begin / separate / end): the result Word shows, once; never the instruction,
// nor the results of fields nested in an instruction; a legacy check box field as its box.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition } from './helpers';
import { docxFile } from '../../../support/word-docs';

const run = (t: string): string => `<w:r><w:t xml:space="preserve">${t}</w:t></w:r>`;
const mark = (type: string, inner = ''): string => `<w:r><w:fldChar w:fldCharType="${type}">${inner}</w:fldChar></w:r>`;
const instr = (t: string): string => `<w:r><w:instrText xml:space="preserve">${t}</w:instrText></w:r>`;
/** A complex field: its instruction (text or nested fields) and the result Word last computed. */
const field = (instruction: string, result: string): string => mark('begin') + instruction + mark('separate') + result + mark('end');
const para = (inner: string): string => `<w:p>${inner}</w:p>`;

test('docx fields: nested fields in an instruction (IF with MERGEFIELD, a formula over PAGE) show only the outer result', async () => {
  const body =
    para(run('Dear ') + field(instr(' IF ') + field(instr(' MERGEFIELD Title '), run('«Title»')) + instr(' = "Dr" "Doctor" "Colleague" '), run('Colleague')) + run(', the meeting moved to Tuesday.')) +
    para(run('There are ') + field(instr(' = ') + field(instr(' NUMPAGES '), run('12')) + instr(' - 2 '), run('10')) + run(' pages of annexes in this report.')) +
    para(run('Page ') + field(instr(' PAGE '), run('3')) + run(' of ') + field(instr(' NUMPAGES '), run('12')));
  const els = await partition('docx', docxFile(body));
  assert.deepEqual(els.map((e) => e.text), [
    'Dear Colleague, the meeting moved to Tuesday.',
    'There are 10 pages of annexes in this report.',
    'Page 3 of 12',
  ]);
});

test('docx fields: a table of contents field spanning paragraphs shows its entries; legacy form fields show their value and box', async () => {
  const entry = (t: string, page: string): string => `<w:hyperlink w:anchor="_Toc${page}">${run(t)}<w:r><w:tab/></w:r>${field(instr(` PAGEREF _Toc${page} \\h `), run(page))}</w:hyperlink>`;
  const checkBox = (checked: string): string => mark('begin', `<w:ffData><w:checkBox>${checked}</w:checkBox></w:ffData>`) + instr(' FORMCHECKBOX ') + mark('end');
  const body =
    para(mark('begin') + instr(' TOC \\o "1-3" \\h ') + mark('separate') + entry('Scope', '2')) +
    para(entry('Budget', '4') + mark('end')) +
    para(run('Applicant: ') + mark('begin', '<w:ffData><w:textInput/></w:ffData>') + instr(' FORMTEXT ') + mark('separate') + run('Jane Doe') + mark('end')) +
    para(run('Insured: ') + checkBox('<w:default w:val="1"/>') + run(' yes ') + checkBox('<w:default w:val="1"/><w:checked w:val="0"/>') + run(' no'));
  const els = await partition('docx', docxFile(body));
  assert.deepEqual(els.map((e) => e.text), ['Scope\t2', 'Budget\t4', 'Applicant: Jane Doe', 'Insured: ☒ yes ☐ no']);
});
