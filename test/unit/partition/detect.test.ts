import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { zipSync, strToU8 } from 'fflate';
import { detectFileType, zipMemberNames } from '../../../lambdas/engine/partition/detect';

const bytes = (...xs: number[]) => new Uint8Array(xs);
const text = (s: string) => new TextEncoder().encode(s);
function utf16(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 2);
  for (let i = 0; i < s.length; i++) out[i * 2] = s.charCodeAt(i);
  return out;
}
function ole(streamName: string): Uint8Array {
  const d = new Uint8Array(2048);
  d.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  d.set(utf16(streamName), 1024);
  return d;
}

describe('detectFileType', () => {
  it('recognises binary signatures regardless of the name', () => {
    assert.equal(detectFileType(text('%PDF-1.7\n...'), 'report.docx').filetype, 'pdf');
    assert.equal(detectFileType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0), 'x.jpg').filetype, 'png');
    assert.equal(detectFileType(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0), 'x').filetype, 'jpg');
    assert.equal(detectFileType(bytes(0x49, 0x49, 0x2a, 0, 8, 0, 0, 0), 'x').filetype, 'tiff');
    const heic = new Uint8Array(32);
    heic.set(text('ftypheic'), 4);
    assert.equal(detectFileType(heic, 'x').filetype, 'heic');
    assert.equal(detectFileType(text('{\\rtf1\\ansi hello}'), 'x.txt').filetype, 'rtf');
  });

  it('tells Office Open XML, ODF and EPUB apart by zip members', () => {
    const docx = zipSync({ '[Content_Types].xml': strToU8('<x/>'), 'word/document.xml': strToU8('<w/>') });
    const pptx = zipSync({ '[Content_Types].xml': strToU8('<x/>'), 'ppt/presentation.xml': strToU8('<p/>') });
    const xlsx = zipSync({ '[Content_Types].xml': strToU8('<x/>'), 'xl/workbook.xml': strToU8('<x/>') });
    const odt = zipSync({ mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }], 'content.xml': strToU8('<x/>') });
    const epub = zipSync({ mimetype: [strToU8('application/epub+zip'), { level: 0 }], 'META-INF/container.xml': strToU8('<x/>') });
    assert.deepEqual(zipMemberNames(docx).sort(), ['[Content_Types].xml', 'word/document.xml']);
    assert.equal(detectFileType(docx, 'a.pdf').filetype, 'docx');
    assert.equal(detectFileType(pptx, 'a').filetype, 'pptx');
    assert.equal(detectFileType(xlsx, 'a').filetype, 'xlsx');
    assert.equal(detectFileType(odt, 'a').filetype, 'odt');
    assert.equal(detectFileType(epub, 'a').filetype, 'epub');
    const ods = zipSync({ mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }], 'content.xml': strToU8('<x/>') });
    assert.deepEqual(detectFileType(ods, 'a'), { filetype: 'ods', mime: 'application/vnd.oasis.opendocument.spreadsheet' });
    // the mimetype member is read to its own size, whatever member follows it
    const odf = (mime: string) => zipSync({ mimetype: [strToU8(mime), { level: 0 }], 'content.xml': strToU8('<x/>'), 'META-INF/manifest.xml': strToU8('<x/>') });
    assert.deepEqual(detectFileType(odf('application/vnd.oasis.opendocument.presentation'), 'a'), { filetype: 'odp', mime: 'application/vnd.oasis.opendocument.presentation' });
    assert.equal(detectFileType(odf('application/vnd.oasis.opendocument.presentation-template'), 'a.otp').filetype, 'odp');
    assert.equal(detectFileType(odf('application/vnd.oasis.opendocument.text-master'), 'a.odm').filetype, 'odt');
    assert.deepEqual(detectFileType(odf('application/vnd.oasis.opendocument.graphics'), 'a.odg'), { mime: 'application/vnd.oasis.opendocument.graphics' });
    // a compressed mimetype member (against the spec): the members and the caller's hint decide
    const deflated = zipSync({ mimetype: strToU8('application/vnd.oasis.opendocument.presentation'), 'content.xml': strToU8('<x/>'), 'META-INF/manifest.xml': strToU8('<x/>') }, { level: 9 });
    assert.equal(detectFileType(deflated, 'a.odp').filetype, 'odp');
    assert.equal(detectFileType(deflated, 'a').filetype, 'odt');
    const other = detectFileType(zipSync({ 'a.txt': strToU8('hi') }), 'a.zip');
    assert.equal(other.filetype, undefined);
    assert.equal(other.mime, 'application/zip');
  });

  it('tells OLE2 documents apart by stream names', () => {
    assert.equal(detectFileType(ole('WordDocument'), 'x').filetype, 'doc');
    assert.equal(detectFileType(ole('Workbook'), 'x').filetype, 'xls');
    assert.equal(detectFileType(ole('PowerPoint Document'), 'x').filetype, 'ppt');
    assert.equal(detectFileType(ole('__substg1.0_0037001F'), 'x.doc').filetype, 'msg');
  });

  it('classifies text by content, with the extension deciding between plain-text kinds', () => {
    assert.equal(detectFileType(text('<!DOCTYPE html><html><body><p>x</p></body></html>'), 'a.txt').filetype, 'html');
    assert.equal(detectFileType(text('<?xml version="1.0"?><root><a>1</a></root>'), 'a').filetype, 'xml');
    assert.equal(detectFileType(text('[{"type":"Title","text":"x"}]'), 'a').filetype, 'json');
    assert.equal(detectFileType(text('From: a@b.c\nTo: d@e.f\nSubject: hi\n\nbody'), 'mail').filetype, 'eml');
    assert.equal(detectFileType(text('a,b,c\n1,2,3\n4,5,6\n'), 'data').filetype, 'csv');
    assert.equal(detectFileType(text('a\tb\n1\t2\n'), 'data').filetype, 'tsv');
    assert.equal(detectFileType(text('# Title\n\nSome *markdown*.'), 'notes').filetype, 'md');
    assert.equal(detectFileType(text('Title\n=====\n\nBody text.'), 'readme').filetype, 'rst');
    assert.equal(detectFileType(text('just some words'), 'notes.org').filetype, 'org');
    assert.equal(detectFileType(text('just some words'), 'notes').filetype, 'txt');
  });

  it('reports unsupported and empty inputs without a file type', () => {
    assert.equal(detectFileType(new Uint8Array(0), 'a.pdf').filetype, undefined);
    const gif = detectFileType(text('GIF89a....'), 'a.gif');
    assert.equal(gif.filetype, undefined);
    assert.equal(gif.mime, 'image/gif');
    const bin = detectFileType(bytes(0, 1, 2, 3, 4, 5, 0, 0, 7, 8), 'a.bin');
    assert.equal(bin.filetype, undefined);
    assert.equal(detectFileType(bytes(0x1f, 0x8b, 8, 0), 'a.gz').gzip, true);
  });
});

describe('detectFileType: Markdown opening with HTML', () => {
  it('keeps a .md file whose first block is an HTML block (a centred logo) as Markdown', () => {
    const readme = '<p align="center">\n  <img src="logo.svg" alt="Logo">\n</p>\n\n# fastqueue\n\nA tiny job queue.\n';
    assert.equal(detectFileType(text(readme), 'README.md').filetype, 'md');
    assert.equal(detectFileType(text('<div align="center"><h1>Tool</h1></div>\n\n## Install\n'), 'notes.markdown').filetype, 'md');
    // a whole HTML document saved as .md is still HTML
    assert.equal(detectFileType(text('<!DOCTYPE html><html><body><p>x</p></body></html>'), 'page.md').filetype, 'html');
    // without the extension, a fragment of HTML is HTML
    assert.equal(detectFileType(text(readme), 'README').filetype, 'html');
  });
});
