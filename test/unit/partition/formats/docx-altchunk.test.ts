// DOCX imported content (w:altChunk): a web application's "export to Word" writes its document as a
// web archive (MHT) or an HTML page the body imports; its text, headings, lists and tables are read
// where the chunk stands, between the body's own paragraphs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition } from './helpers';
import { docxFile, wPara } from '../../../support/word-docs';

const RELS = (targets: Record<string, string>): string =>
  '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  Object.entries(targets).map(([id, target]) => `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/aFChunk" Target="${target}"/>`).join('') +
  '</Relationships>';
const summary = (els: { type: string; text: string; metadata: { category_depth?: number } }[]): string[] =>
  els.map((e) => `${e.type}${e.metadata.category_depth !== undefined ? `@${e.metadata.category_depth}` : ''}: ${e.text}`);

const PAGE =
  '<html><head><meta charset="utf-8"></head><body><h1>Trip Itinerary</h1>' +
  '<p>Our group leaves from Lisbon on the morning of June 4 and returns a week later.</p>' +
  '<ol><li>Arrive in Lisbon and check in.</li><li>Visit Sintra — café stop at noon.</li></ol>' +
  '<table><tr><th>Day</th><th>City</th></tr><tr><td>1</td><td>Lisbon</td></tr></table></body></html>';

/** The page as a web archive: one quoted-printable text/html part, lines soft-broken at 40 characters. */
function webArchive(html: string): string {
  const qp = [...Buffer.from(html, 'utf8')].map((b) => (b > 126 || b === 61 ? `=${b.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(b))).join('');
  const lines = qp.match(/.{1,40}(?:=[0-9A-F]{2})?/g) ?? [];
  return 'MIME-Version: 1.0\r\nContent-Type: multipart/related;\r\n    type="text/html";\r\n    boundary="----=mhtDocumentPart"\r\n\r\n\r\n' +
    '------=mhtDocumentPart\r\nContent-Type: text/html;\r\n    charset="utf-8"\r\nContent-Transfer-Encoding: quoted-printable\r\n' +
    'Content-Location: file:///C:/fake/document.html\r\n\r\n' + lines.join('=\r\n') + '\r\n\r\n------=mhtDocumentPart--\r\n';
}

const EXPECTED = [
  'Title@0: Trip Itinerary',
  'NarrativeText: Our group leaves from Lisbon on the morning of June 4 and returns a week later.',
  'ListItem@0: Arrive in Lisbon and check in.',
  'ListItem@0: Visit Sintra — café stop at noon.',
  'Table: Day City 1 Lisbon',
];

test('docx altChunk: a web archive imported as the whole body (html-docx-js) gives its content', async () => {
  const file = docxFile('<w:altChunk r:id="htmlChunk"/><w:sectPr/>', undefined, {
    'word/_rels/document.xml.rels': RELS({ htmlChunk: '/afchunk.mht' }),
    'afchunk.mht': webArchive(PAGE),
  });
  assert.deepEqual(summary(await partition('docx', file)), EXPECTED);
});

test('docx altChunk: an HTML page and a text part imported between paragraphs are read in place', async () => {
  const body = wPara('The itinerary below was pasted from the booking site.') + '<w:altChunk r:id="rIdA"/>' +
    wPara('Prices are confirmed one week before departure.') + '<w:altChunk r:id="rIdB"/>';
  const file = docxFile(body, undefined, {
    'word/_rels/document.xml.rels': RELS({ rIdA: 'chunks/page.html', rIdB: 'notes.txt' }),
    'word/chunks/page.html': PAGE,
    'word/notes.txt': 'Travel insurance is included for every traveller.',
  });
  assert.deepEqual(summary(await partition('docx', file)), [
    'NarrativeText: The itinerary below was pasted from the booking site.',
    ...EXPECTED,
    'NarrativeText: Prices are confirmed one week before departure.',
    'NarrativeText: Travel insurance is included for every traveller.',
  ]);
});

test('docx altChunk: a web archive whose HTML part is base64 in a single-byte charset reads its accents', async () => {
  const latin1 = Buffer.from('<html><body><p>Caf\u00e9 cr\u00e8me served at the d\u00e9j\u00e0 vu bistro every morning.</p></body></html>', 'latin1').toString('base64');
  const mht = 'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="b1"\r\n\r\n--b1\r\nContent-Type: text/html; charset="iso-8859-1"\r\n' +
    'Content-Transfer-Encoding: base64\r\n\r\n' + latin1.replace(/.{76}/g, '$&\r\n') + '\r\n--b1--\r\n';
  const file = docxFile('<w:altChunk r:id="c1"/><w:sectPr/>', undefined, { 'word/_rels/document.xml.rels': RELS({ c1: 'chunk.mht' }), 'word/chunk.mht': mht });
  assert.deepEqual(summary(await partition('docx', file)), ['NarrativeText: Caf\u00e9 cr\u00e8me served at the d\u00e9j\u00e0 vu bistro every morning.']);
});
