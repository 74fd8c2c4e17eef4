// Hostile documents for the fuzz run and the security tests: truncations, lies about sizes, bombs
// and pathological nesting, built in memory (deterministic, nothing downloaded). A minimal set: the
// engineer hardening the partition engine provides the full one (≥ 50) under the same export.
import { gzipSync } from 'node:zlib';
import { zipSync, strToU8 } from 'fflate';

export interface HostileDocument {
  name: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A small valid one-page PDF with a text layer. */
function smallPdf(text: string): Buffer {
  const content = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A zip whose entries' declared uncompressed sizes are replaced by `lie` (local and central headers). */
function zipWithLyingSizes(files: Record<string, Uint8Array>, lie: number): Buffer {
  const zip = Buffer.from(zipSync(files, { level: 6 }));
  for (let i = 0; i + 4 <= zip.length; i++) {
    const sig = zip.readUInt32LE(i);
    if (sig === 0x04034b50 && i + 26 <= zip.length) zip.writeUInt32LE(lie >>> 0, i + 22);
    else if (sig === 0x02014b50 && i + 28 <= zip.length) zip.writeUInt32LE(lie >>> 0, i + 24);
  }
  return zip;
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

function docx(documentXml: Uint8Array): Record<string, Uint8Array> {
  return { '[Content_Types].xml': strToU8(CONTENT_TYPES), 'word/document.xml': documentXml };
}

/** A PNG signature and IHDR claiming `w`×`h` pixels, with no image data after it. */
function pngClaiming(w: number, h: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(w, 8);
  ihdr.writeUInt32BE(h, 12);
  ihdr.writeUInt8(8, 16);
  ihdr.writeUInt8(2, 17);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
}

export async function hostileDocuments(): Promise<HostileDocument[]> {
  const pdf = smallPdf('A hostile document suite.');
  const paragraph = '<w:p><w:r><w:t>zero</w:t></w:r></w:p>';
  const docs: HostileDocument[] = [
    { name: 'truncated PDF', filename: 'truncated.pdf', contentType: 'application/pdf', data: pdf.subarray(0, Math.floor(pdf.length / 2)) },
    { name: 'PDF header only', filename: 'header-only.pdf', contentType: 'application/pdf', data: Buffer.from('%PDF-1.7\n') },
    {
      name: 'PDF whose stream claims 2 GB',
      filename: 'lying-length.pdf',
      contentType: 'application/pdf',
      data: Buffer.from(pdf.toString('latin1').replace(/\/Length \d+/, '/Length 2147483647'), 'latin1'),
    },
    { name: 'empty PDF', filename: 'empty.pdf', contentType: 'application/pdf', data: Buffer.alloc(0) },
    {
      name: 'docx whose zip entries claim 4 GB',
      filename: 'lying-size.docx',
      contentType: DOCX,
      data: zipWithLyingSizes(docx(strToU8(`<w:document><w:body>${paragraph}</w:body></w:document>`)), 0xffffffff),
    },
    {
      name: 'docx whose document.xml inflates to 8 MB of paragraphs',
      filename: 'inflating.docx',
      contentType: DOCX,
      data: Buffer.from(zipSync(docx(strToU8(`<w:document><w:body>${paragraph.repeat(200_000)}</w:body></w:document>`)), { level: 9 })),
    },
    { name: 'docx that is random bytes', filename: 'random.docx', contentType: DOCX, data: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)) },
    { name: 'gzip of 64 MB of zeros', filename: 'zeros.txt.gz', contentType: 'application/gzip', data: gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }) },
    { name: 'JSON nested 200,000 levels', filename: 'deep.json', contentType: 'application/json', data: Buffer.from(`${'['.repeat(200_000)}${']'.repeat(200_000)}`) },
    {
      name: 'XML entity expansion (billion laughs)',
      filename: 'laughs.xml',
      contentType: 'application/xml',
      data: Buffer.from(
        `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><lolz>&lol9;</lolz>`,
      ),
    },
    { name: 'HTML nested 100,000 divs', filename: 'deep.html', contentType: 'text/html', data: Buffer.from(`<html><body>${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}</body></html>`) },
    { name: 'PNG claiming 100,000 × 100,000 pixels', filename: 'huge.png', contentType: 'image/png', data: pngClaiming(100_000, 100_000) },
    {
      name: 'e-mail with 2,000 nested multiparts',
      filename: 'nested.eml',
      contentType: 'message/rfc822',
      data: Buffer.from(
        `From: a@example.com\r\nTo: b@example.com\r\nSubject: nest\r\nMIME-Version: 1.0\r\n` +
          Array.from({ length: 2000 }, (_, i) => `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`).join('') +
          'Content-Type: text/plain\r\n\r\nbottom\r\n',
      ),
    },
    { name: 'CSV of 200,000 one-cell rows', filename: 'long.csv', contentType: 'text/csv', data: Buffer.from('a\n'.repeat(200_000)) },
    { name: 'text of one 5 MB word', filename: 'one-word.txt', contentType: 'text/plain', data: Buffer.alloc(5 * 1024 * 1024, 0x61) },
  ];
  return docs;
}
