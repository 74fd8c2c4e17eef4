// Word's imported content (w:altChunk): a body block naming a package part of another format that
// Word converts where the block stands when it opens the file. Web applications' "export to Word"
// (html-docx-js and its kind) write the whole document this way, as a web archive (MHT: MIME with
// an HTML part) or an HTML page; other writers import plain text or RTF. The part is read here into
// elements by the reader of its format (list items counted from depth 0, as Word's own); a Word
// document imported as a chunk is left out.
import { simpleParser } from 'mailparser';
import type { Element } from '../../elements';
import { detectAndDecode } from './common';
import { htmlToElements } from './html';
import { textToElements } from './text';
import { rtfToHtml } from './rtf';

const MIME_START = /^\s*(?:MIME-Version|Content-[\w-]+)\s*:/i;

/**
 * Imported parts that are web archives (MIME: an HTML part, quoted-printable or base64, in its own
 * charset) replaced by their HTML, decoded by the e-mail reader's MIME parser, so the document's
 * reader (synchronous) meets HTML. An archive without an HTML part imports nothing.
 */
export async function decodeWebArchives(files: Map<string, Uint8Array>, isImported: (name: string) => boolean): Promise<void> {
  for (const [name, data] of files) {
    if (!isImported(name) || !MIME_START.test(Buffer.from(data.subarray(0, 200)).toString('latin1'))) continue;
    const parsed = await simpleParser(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { skipImageLinks: true, skipTextToHtml: true });
    files.set(name, new Uint8Array(Buffer.from(parsed.html || '', 'utf8')));
  }
}

/** The elements of an imported part's bytes, by what the bytes are (the part's name is only a convention). */
export function altChunkElements(data: Uint8Array, languages: string[] | undefined, warn: (m: string) => void): Element[] {
  const text = detectAndDecode(data, 'utf-8');
  const start = text.trimStart();
  if (start.startsWith('{\\rtf')) return htmlToElements(rtfToHtml(start), { languages, warn, topListDepth: 0 });
  if (/^<|<html[\s>]|<body[\s>]/i.test(start)) return htmlToElements(text, { languages, warn, topListDepth: 0 });
  // a Word document (a zip) imported whole is not read
  if (data[0] === 0x50 && data[1] === 0x4b) {
    warn('docx: a Word document imported into the body (altChunk) was left out');
    return [];
  }
  return textToElements(text, languages);
}
