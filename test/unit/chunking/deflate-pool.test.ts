import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { makeElement } from '../../../lambdas/engine/elements';
import { chunkElements, chunkElementsAsync, decodeOrigElements } from '../../../lambdas/engine/chunking/index';
import { deflateJsonsToBase64, MIN_POOLED_PAYLOADS, shutdownDeflatePool } from '../../../lambdas/engine/chunking/deflate-pool';
import { originalsJson } from '../../../lambdas/engine/chunking/orig-elements';

after(() => shutdownDeflatePool());

// -- enough sections for the pooled path; non-ASCII text checks the one-byte-per-character transfer --
const doc = Array.from({ length: 3 * MIN_POOLED_PAYLOADS }, (_, i) => [
  makeElement('Title', `Section ${i} — Überblick 한국어`, { filename: 'doc.pdf', page_number: 1 + (i >> 3), languages: ['eng'] }),
  makeElement('NarrativeText', `Paragraph ${i} `.repeat(30 + (i % 7)), { filename: 'doc.pdf', page_number: 1 + (i >> 3), languages: ['eng'] }),
]).flat();

test('pooled compression gives the same chunks and bytes as in-thread compression', async () => {
  const sync = chunkElements(doc, { strategy: 'by_title' });
  assert.ok(sync.length >= MIN_POOLED_PAYLOADS);
  const pooled = await chunkElementsAsync(doc, { strategy: 'by_title' });
  assert.deepEqual(pooled, sync);
  const orig = decodeOrigElements(pooled[0]!.metadata.orig_elements!);
  assert.equal(orig[0]!.text, 'Section 0 — Überblick 한국어');
});

test('originals JSON is ASCII (Python ensure_ascii), as the pooled transfer requires', () => {
  const json = originalsJson(doc.slice(0, 2));
  assert.ok(/^[\x00-\x7f]*$/.test(json));
  assert.match(json, /\\u2014 \\u00dcberblick \\ud55c\\uad6d\\uc5b4/);
});

test('each text comes back as its own zlib stream, in order', async () => {
  const texts = Array.from({ length: 100 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(i * 37) }));
  const out = await deflateJsonsToBase64(texts, texts.length);
  assert.deepEqual(out.map((b) => inflateSync(Buffer.from(b, 'base64')).toString('latin1')), texts);
});

test('a worker stopped mid-call loses nothing: its batches are deflated in-thread', async () => {
  const texts = Array.from({ length: 400 }, (_, i) => `[${'{"k": "v"}, '.repeat(200 + i)}0]`);
  const pending = deflateJsonsToBase64(texts, texts.length);
  await shutdownDeflatePool();
  const out = await pending;
  assert.equal(out.length, texts.length);
  assert.deepEqual(out.map((b) => inflateSync(Buffer.from(b, 'base64')).toString('latin1')), texts);
});

test('CHUNK_DEFLATE_WORKERS=0 deflates in-thread with the same result', async () => {
  process.env.CHUNK_DEFLATE_WORKERS = '0';
  try {
    const sync = chunkElements(doc, { strategy: 'basic' });
    assert.deepEqual(await chunkElementsAsync(doc, { strategy: 'basic' }), sync);
  } finally {
    delete process.env.CHUNK_DEFLATE_WORKERS;
  }
});
