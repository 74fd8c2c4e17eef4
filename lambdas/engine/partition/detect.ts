// File-type detection by content (magic bytes, zip members, OLE2 stream names, text heuristics), with
// the file extension and the caller's content type as hints. Content wins over hints for binary
// formats (a PDF named .docx is a PDF); hints decide between text formats content cannot tell apart.
import { FILETYPE_MIME, type FileType } from './types';

export interface Detection {
  /** Detected kind, or undefined when the content is of a kind the engine does not handle. */
  filetype?: FileType;
  /** The MIME type to name in an "unsupported" error. */
  mime: string;
  /** True for gzip input (the pipeline decompresses and detects again). */
  gzip?: boolean;
}

const EXT_TYPES: Record<string, FileType> = {
  pdf: 'pdf', docx: 'docx', doc: 'doc', pptx: 'pptx', ppt: 'ppt', xlsx: 'xlsx', xls: 'xls',
  csv: 'csv', tsv: 'tsv', odt: 'odt', ods: 'ods', odp: 'odp', rtf: 'rtf', epub: 'epub', html: 'html', htm: 'html',
  xml: 'xml', md: 'md', markdown: 'md', rst: 'rst', org: 'org', txt: 'txt', text: 'txt', log: 'txt',
  eml: 'eml', msg: 'msg', json: 'json', jpg: 'jpg', jpeg: 'jpg', png: 'png', tif: 'tiff', tiff: 'tiff',
  bmp: 'bmp', heic: 'heic', heif: 'heic',
};

const MIME_TYPES: Record<string, FileType> = Object.fromEntries([
  ...Object.entries(FILETYPE_MIME).map(([k, v]) => [v, k as FileType]),
  ['application/epub+zip', 'epub'],
  ['text/x-markdown', 'md'],
  ['text/x-org', 'org'],
  ['application/json', 'json'],
  ['text/xml', 'xml'],
  ['image/jpg', 'jpg'],
  ['image/heif', 'heic'],
  ['application/rtf', 'rtf'],
  ['application/x-ole-storage', 'msg'],
  ['text/tsv', 'tsv'],
]);

const TEXT_TYPES = new Set<FileType>(['csv', 'tsv', 'html', 'xml', 'md', 'rst', 'org', 'txt', 'eml', 'json', 'rtf']);

export function extensionOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export function fileTypeFromExtension(filename: string): FileType | undefined {
  return EXT_TYPES[extensionOf(filename)];
}

export function fileTypeFromMime(mime: string | undefined): FileType | undefined {
  if (!mime) return undefined;
  return MIME_TYPES[mime.split(';')[0]!.trim().toLowerCase()];
}

const startsWith = (d: Uint8Array, sig: number[], at = 0): boolean => {
  if (d.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (d[at + i] !== sig[i]) return false;
  return true;
};
const ascii = (d: Uint8Array, from: number, to: number): string => {
  let s = '';
  for (let i = from; i < Math.min(to, d.length); i++) s += String.fromCharCode(d[i]!);
  return s;
};

/** Names of the members of a zip archive, read from the central directory (no decompression). */
export function zipMemberNames(d: Uint8Array, limit = 20_000): string[] {
  const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
  // End-of-central-directory record: within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = d.length - 22; i >= Math.max(0, d.length - 65_557); i--) {
    if (d[i] === 0x50 && d[i + 1] === 0x4b && d[i + 2] === 0x05 && d[i + 3] === 0x06) { eocd = i; break; }
  }
  const names: string[] = [];
  const dec = new TextDecoder();
  if (eocd >= 0) {
    let p = view.getUint32(eocd + 16, true);
    const count = view.getUint16(eocd + 10, true);
    for (let n = 0; n < Math.min(count, limit) && p + 46 <= d.length; n++) {
      if (view.getUint32(p, true) !== 0x02014b50) break;
      const nameLen = view.getUint16(p + 28, true);
      const extra = view.getUint16(p + 30, true);
      const comment = view.getUint16(p + 32, true);
      names.push(dec.decode(d.subarray(p + 46, p + 46 + nameLen)));
      p += 46 + nameLen + extra + comment;
    }
    if (names.length) return names;
  }
  // Truncated archive: walk the local file headers instead.
  let p = 0;
  while (p + 30 <= d.length && names.length < limit && view.getUint32(p, true) === 0x04034b50) {
    const compSize = view.getUint32(p + 18, true);
    const nameLen = view.getUint16(p + 26, true);
    const extra = view.getUint16(p + 28, true);
    names.push(dec.decode(d.subarray(p + 30, p + 30 + nameLen)));
    if (compSize === 0) break; // data descriptor: sizes unknown here
    p += 30 + nameLen + extra + compSize;
  }
  return names;
}

/** Kinds that are zip containers: the caller's hint decides among them when the members do not. */
const ZIP_TYPES: FileType[] = ['docx', 'pptx', 'xlsx', 'odt', 'ods', 'odp', 'epub'];
const ODF_TYPES: FileType[] = ['odt', 'ods', 'odp'];

/**
 * The content of an ODF/EPUB container's "mimetype" member: stored (uncompressed) as the first member,
 * its size in the local header. Undefined when the first member is not such a stored mimetype.
 */
function storedMimetype(d: Uint8Array): string | undefined {
  if (d.length < 30 || ascii(d, 30, 38) !== 'mimetype') return undefined;
  const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const method = view.getUint16(8, true);
  const size = view.getUint32(18, true);
  const nameLen = view.getUint16(26, true);
  const extraLen = view.getUint16(28, true);
  if (method !== 0 || nameLen !== 8 || size === 0 || size > 200) return undefined;
  const start = 30 + nameLen + extraLen;
  return ascii(d, start, start + size).trim();
}

function detectZip(d: Uint8Array, hint?: FileType): Detection {
  // ODF/EPUB put an uncompressed "mimetype" member first; a variant (a template, a master document:
  // "...text-template", "...text-master") is read as its kind
  const mt = storedMimetype(d);
  if (mt) {
    const ft = fileTypeFromMime(mt.replace(/^(application\/vnd\.oasis\.opendocument\.[a-z]+)-[a-z-]+$/, '$1'));
    if (ft && ZIP_TYPES.includes(ft)) return { filetype: ft, mime: FILETYPE_MIME[ft] };
    if (mt.startsWith('application/vnd.oasis.opendocument')) return { mime: mt };
  }
  const names = zipMemberNames(d);
  const has = (prefix: string) => names.some((n) => n.startsWith(prefix));
  if (has('word/')) return { filetype: 'docx', mime: FILETYPE_MIME.docx };
  if (has('ppt/')) return { filetype: 'pptx', mime: FILETYPE_MIME.pptx };
  if (has('xl/')) return { filetype: 'xlsx', mime: FILETYPE_MIME.xlsx };
  if (names.includes('mimetype') && has('META-INF/')) {
    if (names.some((n) => n.endsWith('.opf') || n.endsWith('.xhtml'))) return { filetype: 'epub', mime: FILETYPE_MIME.epub };
    if (names.includes('content.xml')) {
      const ft = hint && ODF_TYPES.includes(hint) ? hint : 'odt';
      return { filetype: ft, mime: FILETYPE_MIME[ft] };
    }
  }
  if (hint && ZIP_TYPES.includes(hint)) return { filetype: hint, mime: FILETYPE_MIME[hint] };
  return { mime: 'application/zip' };
}

/** Finds a UTF-16LE string (an OLE2 directory entry name) in the compound file. */
function hasUtf16(d: Uint8Array, s: string): boolean {
  const pat = new Uint8Array(s.length * 2);
  for (let i = 0; i < s.length; i++) pat[i * 2] = s.charCodeAt(i);
  const first = pat[0]!;
  outer: for (let i = d.indexOf(first); i >= 0 && i <= d.length - pat.length; i = d.indexOf(first, i + 1)) {
    for (let j = 1; j < pat.length; j++) if (d[i + j] !== pat[j]) continue outer;
    return true;
  }
  return false;
}

function detectOle(d: Uint8Array, hint?: FileType): Detection {
  if (hasUtf16(d, '__substg1.0_') || hasUtf16(d, '__properties_version1.0')) return { filetype: 'msg', mime: FILETYPE_MIME.msg };
  if (hasUtf16(d, 'WordDocument')) return { filetype: 'doc', mime: FILETYPE_MIME.doc };
  if (hasUtf16(d, 'PowerPoint Document')) return { filetype: 'ppt', mime: FILETYPE_MIME.ppt };
  if (hasUtf16(d, 'Workbook') || hasUtf16(d, 'Book')) return { filetype: 'xls', mime: FILETYPE_MIME.xls };
  if (hint && ['doc', 'ppt', 'xls', 'msg'].includes(hint)) return { filetype: hint, mime: FILETYPE_MIME[hint] };
  return { mime: 'application/x-ole-storage' };
}

/** True when the sample looks like text (few control bytes). */
function looksLikeText(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  let bad = 0;
  for (const b of sample) if (b === 0 || (b < 9) || (b > 13 && b < 32 && b !== 27)) bad++;
  return bad / sample.length < 0.01;
}

const EMAIL_HEADER_RE = /^(from|to|subject|date|received|return-path|mime-version|message-id|delivered-to|reply-to|cc|content-type|x-[\w-]+):/i;

function detectText(text: string, hint?: FileType): FileType {
  const t = text.replace(/^\uFEFF/, '').trimStart();
  const head = t.slice(0, 4096).toLowerCase();
  if (t.startsWith('{\\rtf')) return 'rtf';
  if (t.startsWith('{') || t.startsWith('[')) {
    if (hint === 'json' || looksLikeJson(t)) return 'json';
  }
  if (t.startsWith('<')) {
    if (/<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]/.test(head)) return 'html';
    // Markdown allows HTML blocks: a README opening with a centred logo or heading in HTML is Markdown
    if (hint === 'html' || hint === 'xml' || hint === 'md') return hint;
    if (head.startsWith('<?xml') || /^<[\w:-]+[\s>]/.test(head)) {
      if (/<(div|p|table|span|br|h[1-6])[\s>/]/.test(head) && !head.startsWith('<?xml')) return 'html';
      return 'xml';
    }
  }
  const lines = t.split(/\r?\n/, 40);
  let headerLines = 0;
  for (const l of lines.slice(0, 15)) {
    if (l.trim() === '') break;
    if (EMAIL_HEADER_RE.test(l)) headerLines++;
  }
  if (headerLines >= 3 || (headerLines >= 2 && hint === 'eml')) return 'eml';
  if (hint && TEXT_TYPES.has(hint) && hint !== 'rtf') return hint;
  if (/^#{1,6}\s\S/m.test(t.slice(0, 8192)) || /^```/m.test(t.slice(0, 8192))) return 'md';
  if (/^#\+(title|author|options):/im.test(head) || /^\*+ \S/m.test(t.slice(0, 2048)) && /^#\+/m.test(head)) return 'org';
  if (/^[=\-~^"'`#*+]{4,}\s*$/m.test(t.slice(0, 4096)) && /^\S.*\n[=\-~^]{3,}\s*$/m.test(t.slice(0, 4096))) return 'rst';
  const sep = delimiterOf(lines.filter((l) => l.trim() !== ''));
  if (sep === '\t') return 'tsv';
  if (sep === ',') return 'csv';
  return 'txt';
}

function looksLikeJson(t: string): boolean {
  if (t.length > 8_000_000) return /^\s*[[{]\s*["{[]/.test(t);
  try { JSON.parse(t); return true; } catch { return false; }
}

/** A delimiter every line has the same (non-zero) count of, or undefined. */
function delimiterOf(lines: string[]): string | undefined {
  if (lines.length < 2) return undefined;
  for (const sep of ['\t', ',']) {
    const counts = lines.slice(0, 20).map((l) => l.split(sep).length - 1);
    if (counts[0]! > 0 && counts.every((c) => c === counts[0])) return sep;
  }
  return undefined;
}

function decodeSample(d: Uint8Array): string {
  const sample = d.subarray(0, 1 << 20);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(sample);
  } catch {
    // A multi-byte sequence may be cut at the end of the sample; else fall back to latin-1.
    try { return new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, Math.max(0, sample.length - 4))); } catch { /* not utf-8 */ }
    return new TextDecoder('latin1').decode(sample);
  }
}

/** Image kind from magic bytes, or undefined. */
export function sniffImage(d: Uint8Array): FileType | undefined {
  if (startsWith(d, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(d, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(d, [0x49, 0x49, 0x2a, 0x00]) || startsWith(d, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(d, [0x42, 0x4d]) && d.length > 26) return 'bmp';
  if (ascii(d, 4, 8) === 'ftyp') {
    const brand = ascii(d, 8, 12);
    if (['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1', 'heim', 'heis'].includes(brand)) return 'heic';
  }
  return undefined;
}

/** gzip's magic bytes: the pipeline decompresses such a document and partitions its content. */
export const isGzip = (data: Uint8Array): boolean => data[0] === 0x1f && data[1] === 0x8b;
/** The name a gzip's content is partitioned under (and its elements named by): the upload's without `.gz`. */
export const gunzippedName = (filename: string): string => filename.replace(/\.gz$/i, '');

/**
 * Detects the kind of a document. `filename` and `contentType` are hints: they decide among text
 * formats and for containers whose members are ambiguous; binary signatures override them.
 */
export function detectFileType(data: Uint8Array, filename = '', contentType?: string): Detection {
  const extHint = fileTypeFromExtension(filename);
  const mimeHint = fileTypeFromMime(contentType);
  const hint = mimeHint ?? extHint;
  if (data.length === 0) return { filetype: undefined, mime: 'application/x-empty' };
  if (isGzip(data)) return { mime: 'application/gzip', gzip: true };
  const pdfAt = ascii(data, 0, 1024).indexOf('%PDF-');
  if (pdfAt >= 0) return { filetype: 'pdf', mime: FILETYPE_MIME.pdf };
  const img = sniffImage(data);
  if (img) return { filetype: img, mime: FILETYPE_MIME[img] };
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04]) || startsWith(data, [0x50, 0x4b, 0x05, 0x06])) return detectZip(data, hint);
  if (startsWith(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return detectOle(data, hint);
  if (startsWith(data, [0x47, 0x49, 0x46, 0x38])) return { mime: 'image/gif' };
  if (ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP') return { mime: 'image/webp' };
  if (startsWith(data, [0x37, 0x7a, 0xbc, 0xaf])) return { mime: 'application/x-7z-compressed' };
  if (ascii(data, 0, 4) === 'Rar!') return { mime: 'application/x-rar-compressed' };
  if (startsWith(data, [0x7f, 0x45, 0x4c, 0x46])) return { mime: 'application/x-executable' };
  const sample = data.subarray(0, 64 * 1024);
  // UTF-16 text (with BOM) counts as text.
  const utf16 = startsWith(data, [0xff, 0xfe]) || startsWith(data, [0xfe, 0xff]);
  if (!utf16 && !looksLikeText(sample)) return { mime: 'application/octet-stream' };
  const text = utf16 ? new TextDecoder(data[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(sample) : decodeSample(data);
  const ft = detectText(text, hint && TEXT_TYPES.has(hint) ? hint : undefined);
  return { filetype: ft, mime: FILETYPE_MIME[ft] };
}
