// The partition caps (limits.ts), each at its boundary: zip members checked by declared size and
// stopped at it when they lie, entry counts, XML depth and tags, CSV cells (and a CSV far past the
// old stack limit), text paragraphs, e-mail attachments, gzip; and the typed errors that cross the
// sandbox's process boundary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { zipSync, strToU8 } from 'fflate';
import { PayloadTooLarge, RateLimited, UnprocessableDocument, ValidationError, BadRequest } from '../../../lambdas/errors';
import { appendAll } from '../../../lambdas/engine/elements';
import { readZip, zipEntries } from '../../../lambdas/engine/partition/formats/zip';
import { parseXml } from '../../../lambdas/engine/partition/formats/common';
import { parseDelimited } from '../../../lambdas/engine/partition/formats/spreadsheet';
import { textToElements } from '../../../lambdas/engine/partition/formats/text';
import { partitionDocument } from '../../../lambdas/engine/partition/pipeline';
import { deserializeError, serializeError } from '../../../lambdas/engine/partition/sandbox-protocol';
import { sandboxSettings } from '../../../lambdas/engine/partition/sandbox';
import * as limits from '../../../lambdas/engine/partition/limits';

/** A one-member zip whose headers declare `declared` bytes for `content` (deflated). */
function lyingZip(name: string, content: Buffer, declared: number): Uint8Array {
  const body = deflateRawSync(content);
  const nm = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc32(content) >>> 0, 14);
  local.writeUInt32LE(body.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(nm.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc32(content) >>> 0, 16);
  central.writeUInt32LE(body.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(nm.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + nm.length, 12);
  end.writeUInt32LE(30 + nm.length + body.length, 16);
  return new Uint8Array(Buffer.concat([local, nm, body, central, nm, end]));
}

test('zip: a member inflating past its declared size stops there and is refused; an honest one is read', () => {
  const content = Buffer.alloc(1_000_000, 'x');
  assert.throws(() => readZip(lyingZip('word/document.xml', content, 1000), 'docx'), (e: Error) => e instanceof UnprocessableDocument && /inflates beyond its declared size of 1000 bytes/.test(e.message));
  assert.equal(readZip(lyingZip('word/document.xml', content, content.length), 'docx').get('word/document.xml')!.length, content.length);
});

test('zip: declared sizes over the member or total caps are refused before inflating', () => {
  const small = Buffer.from('<x/>');
  assert.throws(() => readZip(lyingZip('a.xml', small, limits.MAX_ZIP_ENTRY_BYTES + 1), 'docx'), (e: Error) => e instanceof PayloadTooLarge && /exceeds the limit of 64 MB/.test(e.message));
  assert.doesNotThrow(() => readZip(lyingZip('a.xml', small, limits.MAX_ZIP_ENTRY_BYTES), 'docx'));
  const two = zipSync({ 'a.xml': new Uint8Array(600), 'b.xml': new Uint8Array(600) });
  assert.throws(() => readZip(two, 'docx', () => true, { maxEntries: 10, maxEntryBytes: 1000, maxTotalBytes: 1000 }), /uncompressed size exceeds the limit/);
  assert.equal(readZip(two, 'docx', (n) => n === 'a.xml', { maxEntries: 10, maxEntryBytes: 1000, maxTotalBytes: 1000 }).size, 1, 'only wanted members count');
});

test('zip: the entry count cap reads the directory, not the members', () => {
  const many = zipSync(Object.fromEntries(Array.from({ length: limits.MAX_ZIP_ENTRIES + 1 }, (_, i) => [`e${i}`, strToU8('')])));
  assert.throws(() => zipEntries(many, 'docx'), /entry count \(10001\) exceeds the limit of 10,000 entries/);
  assert.equal(zipEntries(zipSync({ a: strToU8('1') }), 'docx').length, 1);
});

test('XML: nesting past MAX_XML_DEPTH and tags past MAX_XML_NODES are refused while parsing', () => {
  const deep = (n: number) => '<a>'.repeat(n) + '</a>'.repeat(n);
  assert.doesNotThrow(() => parseXml(deep(limits.MAX_XML_DEPTH)));
  assert.throws(() => parseXml(deep(limits.MAX_XML_DEPTH + 1)), /nesting exceeds the limit of 1,000 levels/);
  const wide = (n: number) => `<r>${'<a/>'.repeat(n - 1)}</r>`;
  assert.doesNotThrow(() => parseXml(wide(limits.MAX_XML_NODES)));
  assert.throws(() => parseXml(wide(limits.MAX_XML_NODES + 1)), /number of elements exceeds the limit of 1,000,000/);
  // entities are never expanded from a DTD
  assert.doesNotMatch(JSON.stringify(parseXml('<!DOCTYPE r [<!ENTITY x "boom">]><r>&x;</r>')), /boom/);
});

test('CSV: a million rows parse (no argument spread), RFC 4180 quoting holds, and the cell cap refuses more', () => {
  const rows = parseDelimited('id,text\n' + Array.from({ length: 1_000_000 }, (_, i) => `${i},"a ""quoted"", field"`).join('\n'), ',');
  assert.equal(rows.length, 1_000_001);
  assert.deepEqual(rows[5], ['4', 'a "quoted", field']);
  assert.deepEqual(parseDelimited('a,b,\r\n\r\n"x\ny",2', ','), [['a', 'b', ''], ['x\ny', '2']]);
  assert.throws(() => parseDelimited('a,b\nc,d\n', ',', 3), (e: Error) => e instanceof PayloadTooLarge && /cell count exceeds the limit of 3 cells/.test(e.message));
});

test('CSV of 200,000 rows partitions as one Table (the old row spread overflowed the stack)', async () => {
  const csv = 'a,b\n' + Array.from({ length: 200_000 }, (_, i) => `${i},v${i}`).join('\n');
  const r = await partitionDocument({ data: Buffer.from(csv), filename: 'rows.csv' });
  assert.equal(r.elements.length, 1);
  assert.equal(r.elements[0]!.type, 'Table');
  assert.match(String(r.elements[0]!.metadata.text_as_html), /^<table><tr><td>a<\/td><td>b<\/td><\/tr><tr><td>0<\/td><td>v0<\/td><\/tr>/);
});

test('text: paragraphs past MAX_ELEMENTS are refused before elements are made; elements past it from any format too', async () => {
  assert.throws(() => textToElements('p\n\n'.repeat(limits.MAX_ELEMENTS + 1)), /paragraph count \(200001\) exceeds the limit of 200,000 elements/);
  assert.equal(textToElements('p\n\n'.repeat(1000)).length, 1000);
  const json = JSON.stringify(Array.from({ length: limits.MAX_ELEMENTS + 1 }, () => ({ type: 'Title', text: 'x' })));
  await assert.rejects(partitionDocument({ data: Buffer.from(json), filename: 'e.json' }), /element count \(200001\) exceeds the limit of 200,000 elements/);
});

test('gzip: content past MAX_GUNZIP_BYTES is a 413 (zlib stops at the limit)', async () => {
  const data = gzipSync(Buffer.alloc(4096, 'a'));
  await assert.rejects(partitionDocument({ data, filename: 'a.txt.gz' }, {}, { maxDecompressedBytes: 1024 }), (e: Error) => e instanceof PayloadTooLarge && /gzip content exceeds the limit/.test(e.message));
  assert.equal((await partitionDocument({ data, filename: 'a.txt.gz' })).elements.length, 1);
});

test('e-mail: more than MAX_EMAIL_ATTACHMENTS attachments is a 413 when attachments are partitioned', async () => {
  const eml = (n: number) =>
    Buffer.from(
      'From: a@example.com\r\nTo: b@example.com\r\nSubject: s\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="B"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nBody text here.\r\n' +
        Array.from({ length: n }, (_, i) => `--B\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename="a${i}.txt"\r\n\r\nattachment ${i}\r\n`).join('') +
        '--B--\r\n',
    );
  await assert.rejects(partitionDocument({ data: eml(limits.MAX_EMAIL_ATTACHMENTS + 1), filename: 'm.eml' }, { processAttachments: true }), /attachment count \(51\) exceeds the limit of 50 attachments/);
  const ok = await partitionDocument({ data: eml(2), filename: 'm.eml' }, { processAttachments: true });
  assert.ok(ok.elements.some((e) => e.metadata.attached_to_filename === 'm.eml'));
});

test('appendAll appends a million items where push(...items) overflows the stack', () => {
  const items = Array.from({ length: 1_000_000 }, (_, i) => i);
  assert.throws(() => [].push(...(items as never[])), RangeError);
  assert.equal(appendAll([] as number[], items).length, 1_000_000);
});

test('sandbox: typed errors survive the process boundary; settings have per-runtime defaults and refuse nonsense', () => {
  for (const e of [new PayloadTooLarge('big'), new UnprocessableDocument('bad'), new BadRequest('no'), new RateLimited('slow', 7), ValidationError.single(['body', 'x'], 'm')]) {
    const back = deserializeError(serializeError(e));
    assert.equal(back.constructor, e.constructor);
    assert.equal(back.message, e.message);
  }
  assert.equal((deserializeError(serializeError(new RateLimited('slow', 7))) as RateLimited).retryAfterSeconds, 7);
  assert.deepEqual((deserializeError(serializeError(ValidationError.single(['body', 'x'], 'm'))) as ValidationError).issues, [{ loc: ['body', 'x'], msg: 'm', type: 'value_error' }]);
  assert.equal(deserializeError(serializeError(new TypeError('x'))).constructor, Error, 'other errors stay plain (a 500)');
  assert.equal(sandboxSettings({}).timeoutS, 120);
  assert.equal(sandboxSettings({ AWS_LAMBDA_FUNCTION_NAME: 'f', AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '3008' }).timeoutS, 25, 'inside API Gateway 29 s');
  assert.equal(sandboxSettings({ AWS_LAMBDA_FUNCTION_NAME: 'f', AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024' }).maxRssMb, 819);
  assert.equal(sandboxSettings({ PARTITION_JOB_TIMEOUT_S: '60' }).jobTimeoutS, 60);
  assert.throws(() => sandboxSettings({ PARTITION_MAX_HEAP_MB: 'lots' }), /PARTITION_MAX_HEAP_MB must be a non-negative number/);
});

test('markdown nested past MAX_MARKDOWN_NESTING is read as plain text with a warning (marked is super-linear in list depth); shallow lists still render', async () => {
  const lists = Array.from({ length: 5_000 }, (_, i) => `${' '.repeat(i * 2)}- item ${i}`).join('\n');
  const deep = await partitionDocument({ data: Buffer.from(lists), filename: 'lists.md' });
  assert.match(deep.warnings.join('\n'), /Markdown nested deeper than 200 levels .*: read as plain text/);
  assert.match(deep.elements.map((e) => e.text).join('\n'), /item 4999/);
  const quotes = await partitionDocument({ data: Buffer.from(`${'>'.repeat(100_000)} quoted\n`), filename: 'deep.md' });
  assert.match(quotes.warnings.join('\n'), /read as plain text/);
  const shallow = await partitionDocument({ data: Buffer.from('# Title\n\n- one\n  - two\n    - three\n\n> a quote\n'), filename: 's.md' });
  assert.deepEqual(shallow.warnings, []);
  assert.deepEqual(shallow.elements.map((e) => e.type).slice(0, 4), ['Title', 'ListItem', 'ListItem', 'ListItem']);
  assert.equal(shallow.elements[4]?.text, 'a quote');
});
