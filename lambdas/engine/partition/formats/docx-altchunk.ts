// Word's imported content (w:altChunk): a body block naming a package part of another format that
// Word converts where the block stands when it opens the file. Web applications' "export to Word"
// (html-docx-js and its kind) write the whole document this way, as a web archive (MHT: MIME with
// an HTML part) or an HTML page; other writers import plain text or RTF. The part is read here into
// elements by the reader of its format (list items counted from depth 0, as Word's own); a Word
// document imported as a chunk is left out.
import iconv from 'iconv-lite';
import type { Element } from '../../elements';
import { detectAndDecode } from './common';
import { htmlToElements } from './html';
import { textToElements } from './text';
import { rtfToHtml } from './rtf';

/** The elements of an imported part's bytes, by what the bytes are (the part's name is only a convention). */
export function altChunkElements(data: Uint8Array, languages: string[] | undefined, warn: (m: string) => void): Element[] {
  const text = detectAndDecode(data, 'utf-8');
  const start = text.trimStart();
  if (start.startsWith('{\\rtf')) return htmlToElements(rtfToHtml(start), { languages, warn, topListDepth: 0 });
  if (/^(?:MIME-Version|Content-[\w-]+)\s*:/i.test(start)) {
    const html = mimeHtml(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1'));
    return html === undefined ? [] : htmlToElements(html, { languages, warn, topListDepth: 0 });
  }
  if (/^<|<html[\s>]|<body[\s>]/i.test(start)) return htmlToElements(text, { languages, warn, topListDepth: 0 });
  // a Word document (a zip) imported whole is not read
  if (data[0] === 0x50 && data[1] === 0x4b) {
    warn('docx: a Word document imported into the body (altChunk) was left out');
    return [];
  }
  return textToElements(text, languages);
}

/**
 * The HTML of a MIME message (a web archive): the first text/html part, its transfer encoding
 * (quoted-printable, base64) undone and its charset decoded. `raw` holds the bytes as latin1.
 */
function mimeHtml(raw: string): string | undefined {
  const { headers, body } = splitPart(raw);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary\s*=\s*"?([^";\r\n]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const html = mimeHtml(part.replace(/^\r?\n/, ''));
      if (html !== undefined) return html;
    }
    return undefined;
  }
  if (!/^text\/html/i.test(type)) return undefined;
  const encoding = (headers.get('content-transfer-encoding') ?? '').trim().toLowerCase();
  const bytes =
    encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
    : encoding === 'quoted-printable' ? quotedPrintable(body)
    : Buffer.from(body, 'latin1');
  const charset = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(type)?.[1] ?? 'utf-8';
  return iconv.encodingExists(charset) ? iconv.decode(bytes, charset) : bytes.toString('utf8');
}

/** A MIME part's headers (names lowercase, folded lines joined) and its body. */
function splitPart(raw: string): { headers: Map<string, string>; body: string } {
  const end = /\r?\n\r?\n/.exec(raw);
  const head = end ? raw.slice(0, end.index) : raw;
  const body = end ? raw.slice(end.index + end[0].length) : '';
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function quotedPrintable(s: string): Buffer {
  const joined = s.replace(/=\r?\n/g, '');
  const out: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? joined.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(joined.charCodeAt(i) & 0xff);
  }
  return Buffer.from(out);
}
