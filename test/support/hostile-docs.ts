// Hostile documents, generated in code (no binary fixtures) and deterministic: zip bombs in every
// zip-based format, members lying about their sizes, 190 MB sheets, gzip bombs, deep nesting in
// XML/JSON/HTML/Markdown/RTF, truncated and corrupt PDFs, zips and images, images declaring huge
// dimensions, huge CSVs, pathological e-mails. Used by test/security and by `npm run fuzz`.
// Every document must get a 2xx or a 4xx from the partition endpoint, never a 5xx or a dead service.
// The set is built once per process (the bombs take a few seconds to compress) and shared.
import { constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';

export interface HostileDocument {
  name: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

const MB = 1024 * 1024;
/** The size of the expanded parts of the bombs: the 190 MB of the security review's findings. */
export const BOMB_BYTES = 190 * MB;

const MIME = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  odp: 'application/vnd.oasis.opendocument.presentation',
  epub: 'application/epub+zip',
};

// ---- building blocks --------------------------------------------------------------------------

/** `bytes` bytes of `pattern` repeated (the pattern's length need not divide it). */
const repeat = (pattern: string, bytes: number): Buffer => Buffer.alloc(bytes, pattern);

interface Deflated {
  deflated: Buffer;
  size: number;
  crc: number;
}

const bombs = new Map<string, Deflated>();
/**
 * head + pattern repeated to about `bytes` + tail as a raw deflate stream, built without ever holding
 * the expanded bytes: about 1 MB of the pattern is compressed once with a full flush (byte-aligned,
 * no back-references across it), and that compressed block is repeated; the CRC is chained the same
 * way. Cached per process.
 */
function bombStream(head: string, pattern: string, bytes: number, tail: string): Deflated {
  const key = `${head}|${pattern}|${bytes}|${tail}`;
  let d = bombs.get(key);
  if (!d) {
    const chunk = repeat(pattern, pattern.length * Math.max(1, Math.floor(MB / pattern.length)));
    const n = Math.max(1, Math.floor((bytes - head.length - tail.length) / chunk.length));
    const flushed = { finishFlush: constants.Z_FULL_FLUSH, level: 9, memLevel: 9 };
    const c = deflateRawSync(chunk, flushed);
    let crc = crc32(head);
    for (let i = 0; i < n; i++) crc = crc32(chunk, crc);
    crc = crc32(tail, crc);
    d = {
      deflated: Buffer.concat([deflateRawSync(Buffer.from(head), flushed), ...Array<Buffer>(n).fill(c), deflateRawSync(Buffer.from(tail))]),
      size: head.length + n * chunk.length + tail.length,
      crc,
    };
    bombs.set(key, d);
  }
  return d;
}

/** A gzip member around a raw deflate stream (RFC 1952), the size trailer as given. */
function gzipOf(d: Deflated, isize = d.size): Buffer {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(d.crc >>> 0, 0);
  trailer.writeUInt32LE(isize % 2 ** 32, 4);
  return Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 255]), d.deflated, trailer]);
}

/** XML bytes: head, then `pattern` repeated to about `bytes`, then tail (one buffer, no string). */
function xmlBytes(head: string, pattern: string, bytes: number, tail: string): Buffer {
  const body = Math.max(0, bytes - head.length - tail.length);
  return Buffer.concat([Buffer.from(head), repeat(pattern, body - (body % pattern.length)), Buffer.from(tail)]);
}

interface Member {
  name: string;
  /** Plain content (deflated here unless `stored`). */
  data?: Buffer | string;
  /** Pre-deflated content with its real size and CRC. */
  raw?: Deflated;
  stored?: boolean;
  /** Size written in the headers instead of the real one (a lie). */
  declaredSize?: number;
  /** Sets general-purpose flag bit 0 (encrypted). */
  encrypted?: boolean;
  /** Replace the compressed bytes by these (a corrupt stream). */
  corruptWith?: Buffer;
}

/** A zip archive written by hand, so sizes, flags and offsets can lie. */
function zip(members: Member[], opts: { overlapping?: { name: (i: number) => string; count: number; of: Member } } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const entry = (m: Member): { central: (name: string) => Buffer } => {
    const plain = m.data === undefined ? undefined : Buffer.isBuffer(m.data) ? m.data : Buffer.from(m.data);
    const size = m.raw ? m.raw.size : plain!.length;
    const crc = m.raw ? m.raw.crc : crc32(plain!);
    let body = m.raw ? m.raw.deflated : m.stored ? plain! : deflateRawSync(plain!);
    if (m.corruptWith) body = m.corruptWith;
    const method = m.stored && !m.raw ? 0 : 8;
    const declared = m.declaredSize ?? size;
    const flags = (m.encrypted ? 1 : 0) | 0x800;
    const name = Buffer.from(m.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(declared >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    const at = offset;
    locals.push(local, name, body);
    offset += 30 + name.length + body.length;
    return {
      central: (n: string) => {
        const nm = Buffer.from(n);
        const c = Buffer.alloc(46);
        c.writeUInt32LE(0x02014b50, 0);
        c.writeUInt16LE(20, 4);
        c.writeUInt16LE(20, 6);
        c.writeUInt16LE(flags, 8);
        c.writeUInt16LE(method, 10);
        c.writeUInt32LE(crc >>> 0, 16);
        c.writeUInt32LE(body.length, 20);
        c.writeUInt32LE(declared >>> 0, 24);
        c.writeUInt16LE(nm.length, 28);
        c.writeUInt32LE(at, 42);
        return Buffer.concat([c, nm]);
      },
    };
  };
  for (const m of members) centrals.push(entry(m).central(m.name));
  if (opts.overlapping) {
    // many directory entries, one stored body: every entry expands the same bytes again
    const shared = entry(opts.overlapping.of);
    for (let i = 0; i < opts.overlapping.count; i++) centrals.push(shared.central(opts.overlapping.name(i)));
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const count = Math.min(0xffff, centrals.length);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const docxHead = `<?xml version="1.0"?><w:document ${W}><w:body>`;
const docxTail = '</w:body></w:document>';
const PARA = '<w:p><w:r><w:t>A bomb paragraph.</w:t></w:r></w:p>';
const contentTypes = (over: string) =>
  `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/>${over}</Types>`;

/** The 190 MB document.xml, deflated once. */
const bombDocumentXml = () => bombStream(docxHead, PARA, BOMB_BYTES, docxTail);
const docxWith = (document: Member) =>
  zip([{ name: '[Content_Types].xml', data: contentTypes('') }, { ...document, name: 'word/document.xml' }]);
const smallDocx = () => docxWith({ name: 'word/document.xml', data: `${docxHead}${PARA.repeat(50)}${docxTail}` });

const SHEET_HEAD = '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';
function xlsxWith(sheet: Member, extra: Member[] = []): Buffer {
  return zip([
    { name: '[Content_Types].xml', data: contentTypes('') },
    {
      name: 'xl/workbook.xml',
      data: '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Bomb" sheetId="1" r:id="rId1"/></sheets></workbook>',
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    },
    ...extra,
    { ...sheet, name: 'xl/worksheets/sheet1.xml' },
  ]);
}
const bombSheet = () => bombStream(SHEET_HEAD, '<row><c t="inlineStr"><is><t>cell text</t></is></c><c><v>42</v></c></row>', BOMB_BYTES, SHEET_TAIL);

function pptxWith(slides: Member[], ids: number): Buffer {
  const list = Array.from({ length: ids }, (_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('');
  const rels = Array.from({ length: ids }, (_, i) => `<Relationship Id="rId${i + 1}" Target="slides/slide${i + 1}.xml"/>`).join('');
  return zip([
    { name: '[Content_Types].xml', data: contentTypes('') },
    {
      name: 'ppt/presentation.xml',
      data: `<?xml version="1.0"?><p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:sldIdLst>${list}</p:sldIdLst></p:presentation>`,
    },
    { name: 'ppt/_rels/presentation.xml.rels', data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>` },
    ...slides,
  ]);
}
const SLIDE_HEAD = '<?xml version="1.0"?><p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree>';
const SLIDE_SHAPE = '<p:sp><p:txBody><a:p><a:r><a:t>Bomb text</a:t></a:r></a:p></p:txBody></p:sp>';
const SLIDE_TAIL = '</p:spTree></p:cSld></p:sld>';

const ODT_HEAD = '<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>';
const ODT_TAIL = '</office:text></office:body></office:document-content>';
const ODP_HEAD = '<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:presentation><draw:page>';
const ODP_TAIL = '</draw:page></office:presentation></office:body></office:document-content>';
const odpWith = (content: Member): Buffer => zip([{ name: 'mimetype', data: MIME.odp, stored: true }, { ...content, name: 'content.xml' }]);

function epubWith(chapter: Member, container?: string): Buffer {
  return zip([
    { name: 'mimetype', data: 'application/epub+zip', stored: true },
    {
      name: 'META-INF/container.xml',
      data: container ?? '<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>',
    },
    {
      name: 'OEBPS/content.opf',
      data: '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf"><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>',
    },
    { ...chapter, name: 'OEBPS/c1.xhtml' },
  ]);
}

/** A PDF from object bodies, with a correct xref table (so only the named defect is hostile). */
function pdf(objects: (string | Buffer)[], rootRef = '1 0 R'): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(o) ? o : Buffer.from(o, 'latin1'), Buffer.from('\nendobj\n')]);
    parts.push(b);
    length += b.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root ${rootRef} >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(parts);
}
const page = (mediaBox = '0 0 612 792', contents = '4 0 R') =>
  `<< /Type /Page /Parent 2 0 R /MediaBox [${mediaBox}] /Contents ${contents} /Resources << /Font << /F1 5 0 R >> >> >>`;
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const stream = (content: string) => `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
const textPdf = (text: string) =>
  pdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', page(), stream(`BT /F1 24 Tf 72 720 Td (${text}) Tj ET`), FONT]);

function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  // a tiny IDAT of zeros: the declared size is the lie
  const idat = deflateRawSync(Buffer.alloc(1024));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

function jpegHeader(width: number, height: number): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, Buffer.alloc(2048, 0x55), Buffer.from([0xff, 0xd9])]);
}

function bmpHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(54 + 1024);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(height, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  return b;
}

function tiff(width: number, height: number, ifds: number): Buffer {
  // little-endian; each IFD: width, height; the last one points back to the first (a loop)
  const parts: Buffer[] = [Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00])];
  const size = 2 + 2 * 12 + 4;
  for (let i = 0; i < ifds; i++) {
    const b = Buffer.alloc(size);
    b.writeUInt16LE(2, 0);
    b.writeUInt16LE(256, 2); b.writeUInt16LE(4, 4); b.writeUInt32LE(1, 6); b.writeUInt32LE(width, 10);
    b.writeUInt16LE(257, 14); b.writeUInt16LE(4, 16); b.writeUInt32LE(1, 18); b.writeUInt32LE(height, 22);
    b.writeUInt32LE(i + 1 < ifds ? 8 + (i + 1) * size : 8, 26);
    parts.push(b);
  }
  return Buffer.concat(parts);
}

const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** A compound file header followed by deterministic junk. */
const oleJunk = (bytes: number) => Buffer.concat([OLE, Buffer.from(Array.from({ length: bytes }, (_, i) => (i * 7919 + 13) % 256))]);

const EML_HEAD = 'From: a@example.com\r\nTo: b@example.com\r\nSubject: hostile\r\nMessage-ID: <h@example.com>\r\nMIME-Version: 1.0\r\n';
function nestedEml(depth: number): string {
  let inner = `${EML_HEAD}Content-Type: text/plain\r\n\r\nThe innermost message.\r\n`;
  for (let i = 0; i < depth; i++) inner = `${EML_HEAD}Content-Type: message/rfc822\r\n\r\n${inner}`;
  return inner;
}
function emlWithAttachments(count: number, attachment: Buffer, name: (i: number) => string, type: string): Buffer {
  const b64 = attachment.toString('base64').replace(/.{76}/g, '$&\r\n');
  const parts = [`${EML_HEAD}Content-Type: multipart/mixed; boundary="B"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nSee the attachments.\r\n`];
  for (let i = 0; i < count; i++) {
    parts.push(`--B\r\nContent-Type: ${type}\r\nContent-Disposition: attachment; filename="${name(i)}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64}\r\n`);
  }
  parts.push('--B--\r\n');
  return Buffer.from(parts.join(''));
}

/** The 49 MB CSV of the review's finding 5: plain rows, quoted fields with commas (a block of 1,000 rows repeated). */
export function hugeCsv(bytes = 49 * 1000 * 1000): Buffer {
  const block = Array.from({ length: 1000 }, (_, i) => `${i},"Name ${i}",${(i * 37) % 1000}.25,2024-01-${String((i % 28) + 1).padStart(2, '0')},"some text, with a comma",ABCDEF${i % 97}\n`).join('');
  const header = 'id,name,amount,date,notes,code\n';
  return Buffer.concat([Buffer.from(header), repeat(block, bytes - header.length)]);
}

// ---- the set ----------------------------------------------------------------------------------

type Maker = [name: string, filename: string, contentType: string, make: () => Buffer];

const MAKERS: Maker[] = [
  // -- zip bombs and lying zips (docx) --
  ['docx: 190 MB document.xml', 'bomb.docx', MIME.docx, () => docxWith({ name: 'word/document.xml', raw: bombDocumentXml() })],
  ['docx: 190 MB document.xml declaring 1 KB', 'liar.docx', MIME.docx, () => docxWith({ name: 'word/document.xml', raw: bombDocumentXml(), declaredSize: 1000 })],
  ['docx: 1 KB document.xml declaring 4 GB', 'claims-4gb.docx', MIME.docx, () => docxWith({ name: 'word/document.xml', data: `${docxHead}${PARA}${docxTail}`, declaredSize: 0xfffffff0 })],
  ['docx: 100,000 zip entries', 'many-entries.docx', MIME.docx, () =>
    zip([{ name: 'word/document.xml', data: `${docxHead}${PARA}${docxTail}` }, ...Array.from({ length: 100_000 }, (_, i) => ({ name: `word/e${i}.xml`, data: '', stored: true }))])],
  ['docx: 5,000 directory entries sharing one 1 MB body', 'overlapping.docx', MIME.docx, () =>
    zip([{ name: 'word/document.xml', data: `${docxHead}${PARA}${docxTail}` }], { overlapping: { name: (i) => `word/o${i}.xml`, count: 5000, of: { name: 'x', data: repeat('<a/>', MB) } } })],
  ['docx: 200,000 nested paragraphs', 'deep.docx', MIME.docx, () => docxWith({ name: 'word/document.xml', data: Buffer.concat([Buffer.from(docxHead), repeat('<w:p>', 200_000 * 5)]) })],
  ['docx: 1.5 million paragraphs (6 million tags) in 50 MB', 'many-paragraphs.docx', MIME.docx, () =>
    docxWith({ name: 'word/document.xml', data: xmlBytes(docxHead, '<w:p><w:r><w:t>x</w:t></w:r></w:p>', 50 * MB, docxTail) })],
  ['docx: truncated in the middle', 'truncated.docx', MIME.docx, () => { const d = smallDocx(); return d.subarray(0, d.length >> 1); }],
  ['docx: corrupt deflate stream', 'corrupt.docx', MIME.docx, () => docxWith({ name: 'word/document.xml', data: PARA, corruptWith: Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 31 + 7) % 256)) })],
  ['docx: member flagged encrypted', 'encrypted-member.docx', MIME.docx, () => docxWith({ name: 'word/document.xml', data: PARA, encrypted: true })],
  ['zip: a zip bomb that is not an Office file', 'bomb.zip', 'application/zip', () => zip([{ name: 'data.bin', raw: bombDocumentXml() }])],
  // -- spreadsheets --
  ['xlsx: 190 MB sheet', 'bomb.xlsx', MIME.xlsx, () => xlsxWith({ name: 's', raw: bombSheet() })],
  ['xlsx: 190 MB sheet declaring 10 KB', 'liar.xlsx', MIME.xlsx, () => xlsxWith({ name: 's', raw: bombSheet(), declaredSize: 10_000 })],
  ['xlsx: 4 million shared strings', 'strings.xlsx', MIME.xlsx, () =>
    xlsxWith({ name: 's', data: `${SHEET_HEAD}<row><c t="s"><v>0</v></c></row>${SHEET_TAIL}` }, [
      { name: 'xl/sharedStrings.xml', data: xmlBytes('<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">', '<si><t>s</t></si>', 4_000_000 * 17, '</sst>') },
    ])],
  ['xlsx: 3 million numeric cells in 50 MB', 'cells.xlsx', MIME.xlsx, () => xlsxWith({ name: 's', data: xmlBytes(SHEET_HEAD, '<row><c><v>1</v></c></row>', 50 * MB, SHEET_TAIL) })],
  ['xlsx: two cells spanning the whole grid', 'sparse.xlsx', MIME.xlsx, () =>
    xlsxWith({ name: 's', data: `${SHEET_HEAD}<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="XFD1048576"><v>2</v></c></row>${SHEET_TAIL}` })],
  // -- other zip formats --
  ['pptx: 190 MB slide', 'bomb.pptx', MIME.pptx, () =>
    pptxWith([{ name: 'ppt/slides/slide1.xml', raw: bombStream(SLIDE_HEAD, SLIDE_SHAPE, BOMB_BYTES, SLIDE_TAIL) }], 1)],
  ['pptx: 12,000 slides', 'slides.pptx', MIME.pptx, () =>
    pptxWith(Array.from({ length: 12_000 }, (_, i) => ({ name: `ppt/slides/slide${i + 1}.xml`, data: `${SLIDE_HEAD}${SLIDE_SHAPE}${SLIDE_TAIL}`, stored: true })), 12_000)],
  ['odt: 190 MB content.xml', 'bomb.odt', MIME.odt, () =>
    zip([
      { name: 'mimetype', data: MIME.odt, stored: true },
      { name: 'content.xml', raw: bombStream(ODT_HEAD, '<text:p>An odt bomb paragraph.</text:p>', BOMB_BYTES, ODT_TAIL) },
    ])],
  ['odp: 190 MB content.xml', 'bomb.odp', MIME.odp, () =>
    odpWith({ name: 'c', raw: bombStream(ODP_HEAD, '<draw:custom-shape><text:p>An odp bomb shape.</text:p></draw:custom-shape>', BOMB_BYTES, ODP_TAIL) })],
  ['odp: shapes grouped 100,000 deep', 'deep.odp', MIME.odp, () =>
    odpWith({ name: 'c', data: Buffer.concat([Buffer.from(ODP_HEAD), repeat('<draw:g>', 100_000 * 8), Buffer.from(`<draw:custom-shape><text:p>deep</text:p></draw:custom-shape>${ODP_TAIL}`)]) })],
  ['epub: 190 MB chapter', 'bomb.epub', MIME.epub, () =>
    epubWith({ name: 'c', raw: bombStream('<html><body>', '<p>An epub bomb paragraph.</p>', BOMB_BYTES, '</body></html>') })],
  ['epub: container.xml nested 100,000 deep', 'deep.epub', MIME.epub, () => epubWith({ name: 'c', data: '<html><body><p>x</p></body></html>' }, `<?xml version="1.0"?>${'<c>'.repeat(100_000)}`)],
  // -- gzip --
  ['gzip: 190 MB of text', 'bomb.txt.gz', 'application/gzip', () => gzipOf(bombStream('', 'All work and no play makes a bomb.\n', BOMB_BYTES, ''))],
  ['gzip: 190 MB of HTML', 'bomb.html.gz', 'application/gzip', () => gzipOf(bombStream('<html><body>', '<p>html bomb</p>', BOMB_BYTES, ''))],
  ['gzip: 190 MB, size trailer claiming 10 bytes', 'liar.txt.gz', 'application/gzip', () => gzipOf(bombStream('', 'lie ', BOMB_BYTES, ''), 10)],
  ['gzip: truncated', 'truncated.txt.gz', 'application/gzip', () => { const g = gzipSync(repeat('cut here ', MB)); return g.subarray(0, g.length >> 1); }],
  ['gzip: gzip inside gzip', 'nested.txt.gz.gz', 'application/gzip', () => gzipSync(gzipSync(repeat('nested ', 8 * MB)))],
  ['gzip: the docx bomb, gzipped', 'bomb.docx.gz', 'application/gzip', () => gzipSync(docxWith({ name: 'word/document.xml', raw: bombDocumentXml() }))],
  // -- JSON, XML, HTML --
  ['json: nested a million deep', 'deep.json', 'application/json', () => Buffer.concat([repeat('[', MB), repeat(']', MB)])],
  ['json: a million elements', 'elements.json', 'application/json', () => Buffer.concat([Buffer.from('['), repeat('{"type":"Title","text":"x"},', 1_000_000 * 28), Buffer.from('{"type":"Title","text":"x"}]')])],
  ['xml: nested a million deep', 'deep.xml', 'application/xml', () => Buffer.concat([Buffer.from('<?xml version="1.0"?>'), repeat('<a>', 3 * MB)])],
  ['xml: billion laughs', 'laughs.xml', 'application/xml', () =>
    Buffer.from(`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><lolz>&lol9;</lolz>`)],
  ['xml: external entity', 'xxe.xml', 'application/xml', () => Buffer.from('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>')],
  ['xml: 5 million empty elements', 'wide.xml', 'application/xml', () => Buffer.concat([Buffer.from('<?xml version="1.0"?><r>'), repeat('<a/>', 5_000_000 * 4), Buffer.from('</r>')])],
  ['html: nested 500,000 divs', 'deep.html', 'text/html', () => repeat('<div>', 500_000 * 5)],
  ['html: 2 million paragraphs', 'paragraphs.html', 'text/html', () => repeat('<p>x</p>', 2_000_000 * 8)],
  ['html: table cell spanning a million columns', 'colspan.html', 'text/html', () =>
    Buffer.from('<table><tr><td colspan="1000000" rowspan="65534">x</td></tr><tr><td>y</td></tr></table>')],
  ['html: 40 MB unclosed comment', 'comment.html', 'text/html', () => Buffer.concat([Buffer.from('<html><body><p>before</p><!--'), repeat('-- not closed ', 40 * MB)])],
  // -- delimited and plain text --
  ['csv: 49 MB', 'big.csv', 'text/csv', () => hugeCsv()],
  ['csv: 30 MB quoted field never closed', 'unclosed.csv', 'text/csv', () => Buffer.concat([Buffer.from('a,b,c\n1,"'), repeat('no closing quote, ', 30 * MB)])],
  ['csv: one row of a million columns', 'wide.csv', 'text/csv', () => Buffer.concat([repeat('x,', 2_000_000), Buffer.from('\n')])],
  ['tsv: 40 MB', 'big.tsv', 'text/tab-separated-values', () => repeat('alpha\tbeta\tgamma\t12345\n', 40 * MB)],
  ['text: one 40 MB line', 'line.txt', 'text/plain', () => repeat('nospaceatall', 40 * MB)],
  ['text: 2.5 million paragraphs', 'paragraphs.txt', 'text/plain', () => repeat('a b\n\n', 12 * MB)],
  ['markdown: blockquote nested 100,000 deep', 'deep.md', 'text/markdown', () => Buffer.from(`${'>'.repeat(100_000)} quoted\n`)],
  ['markdown: list nested 5,000 deep', 'lists.md', 'text/markdown', () => Buffer.from(Array.from({ length: 5_000 }, (_, i) => `${' '.repeat(i * 2)}- item`).join('\n'))],
  ['org: headline 100,000 stars deep', 'deep.org', 'text/org', () => Buffer.from(`${'*'.repeat(100_000)} heading\n`)],
  // -- RTF --
  ['rtf: groups nested a million deep', 'deep.rtf', 'text/rtf', () => Buffer.concat([Buffer.from('{\\rtf1 '), repeat('{', MB)])],
  ['rtf: \\bin claiming a billion bytes', 'bin.rtf', 'text/rtf', () => Buffer.from('{\\rtf1 {\\pict\\bin999999999 abc} text}')],
  ['rtf: \\uc skipping a billion characters', 'uc.rtf', 'text/rtf', () => Buffer.from('{\\rtf1 \\uc999999999\\u1234 text after}')],
  ['rtf: 40 MB of text', 'big.rtf', 'text/rtf', () => Buffer.concat([Buffer.from('{\\rtf1\\ansi '), repeat('word \\par ', 40 * MB), Buffer.from('}')])],
  // -- e-mail --
  ['eml: message/rfc822 nested 200 deep', 'nested.eml', 'message/rfc822', () => Buffer.from(nestedEml(200))],
  ['eml: 10,000 attachments', 'attachments.eml', 'message/rfc822', () => emlWithAttachments(10_000, Buffer.from('attached text'), (i) => `a${i}.txt`, 'text/plain')],
  ['eml: the docx bomb attached', 'bomb-attached.eml', 'message/rfc822', () => emlWithAttachments(1, docxWith({ name: 'word/document.xml', raw: bombDocumentXml() }), () => 'bomb.docx', MIME.docx)],
  ['eml: a 10 MB header line', 'header.eml', 'message/rfc822', () => Buffer.concat([Buffer.from(`${EML_HEAD}X-Long: `), repeat('h', 10 * MB), Buffer.from('\r\n\r\nbody\r\n')])],
  ['msg: compound file header then junk', 'junk.msg', 'application/vnd.ms-outlook', () => oleJunk(64 * 1024)],
  // -- PDF --
  ['pdf: truncated', 'truncated.pdf', 'application/pdf', () => { const p = textPdf('Truncated'); return p.subarray(0, Math.floor(p.length * 0.6)); }],
  ['pdf: content stream inflating to 190 MB', 'flate-bomb.pdf', 'application/pdf', () => {
    const z = bombStream('', 'BT /F1 12 Tf (x) Tj ET\n', BOMB_BYTES, '').deflated;
    const zlibWrapped = Buffer.concat([Buffer.from([0x78, 0x9c]), z, Buffer.alloc(4)]);
    return pdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', page(), Buffer.concat([Buffer.from(`<< /Length ${zlibWrapped.length} /Filter /FlateDecode >>\nstream\n`), zlibWrapped, Buffer.from('\nendstream')]), FONT]);
  }],
  ['pdf: page tree claiming two billion pages', 'count.pdf', 'application/pdf', () =>
    pdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 2000000000 >>', page(), stream('BT /F1 24 Tf 72 720 Td (Liar) Tj ET'), FONT])],
  ['pdf: a 200 x 200 inch page without text', 'huge-page.pdf', 'application/pdf', () =>
    pdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', page('0 0 14400 14400'), stream('0 0 m 14400 14400 l S'), FONT])],
  ['pdf: page tree that contains itself', 'loop.pdf', 'application/pdf', () =>
    pdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>', page(), stream('BT ET'), FONT])],
  ['pdf: header then junk', 'junk.pdf', 'application/pdf', () => Buffer.concat([Buffer.from('%PDF-1.7\n'), oleJunk(256 * 1024)])],
  // -- images --
  ['png: declares 100,000 x 100,000 pixels', 'huge.png', 'image/png', () => pngHeader(100_000, 100_000)],
  ['png: truncated after the header', 'truncated.png', 'image/png', () => pngHeader(800, 600).subarray(0, 40)],
  ['jpeg: declares 65,500 x 65,500 pixels', 'huge.jpg', 'image/jpeg', () => jpegHeader(65_500, 65_500)],
  ['jpeg: truncated', 'truncated.jpg', 'image/jpeg', () => jpegHeader(640, 480).subarray(0, 30)],
  ['tiff: 10,000 directories in a loop, each 60,000 x 60,000', 'loop.tiff', 'image/tiff', () => tiff(60_000, 60_000, 10_000)],
  ['bmp: declares 1,000,000 x 1,000,000 pixels', 'huge.bmp', 'image/bmp', () => bmpHeader(1_000_000, 1_000_000)],
  ['heic: brand then junk', 'junk.heic', 'image/heic', () => Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(12), oleJunk(4096)])],
  // -- legacy OLE formats --
  ['doc: compound file header then junk', 'junk.doc', 'application/msword', () => oleJunk(64 * 1024)],
  ['xls: compound file header then junk', 'junk.xls', 'application/vnd.ms-excel', () => oleJunk(64 * 1024)],
  ['ppt: compound file header then junk', 'junk.ppt', 'application/vnd.ms-powerpoint', () => oleJunk(64 * 1024)],
];

let built: Promise<HostileDocument[]> | undefined;

/** Every hostile document (at least 50), built once per process, in a fixed order. */
export function hostileDocuments(): Promise<HostileDocument[]> {
  built ??= (async () => MAKERS.map(([name, filename, contentType, make]) => ({ name, filename, contentType, data: make() })))();
  return built;
}

/** One hostile document by name (built alone, without the rest of the set). */
export function hostileDocument(name: string): HostileDocument {
  const m = MAKERS.find((x) => x[0] === name);
  if (!m) throw new Error(`no hostile document named ${name}`);
  return { name: m[0], filename: m[1], contentType: m[2], data: m[3]() };
}

export const HOSTILE_DOCUMENT_NAMES = MAKERS.map((m) => m[0]);
