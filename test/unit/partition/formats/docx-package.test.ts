// DOCX packages whose main part is not word/document.xml (Word for the web and SharePoint save
// word/document2.xml): the part the package's relationships name is read, with its own styles,
// headers and footers.
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
