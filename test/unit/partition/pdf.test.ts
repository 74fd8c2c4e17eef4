import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BadRequest, PayloadTooLarge, UnprocessableDocument } from '../../../lambdas/errors';
import { partitionDocument as partition } from '../../../lambdas/engine/partition/pipeline';
import { shutdownOcr } from '../../../lambdas/engine/partition/ocr/tesseract';
import { shutdownPagePool } from '../../../lambdas/engine/partition/pdf/pool';

const repoRoot = resolve(import.meta.dirname, '../../..');
const corpus = resolve(repoRoot, '../shared/corpus/docs');
const doc = (name: string) => new Uint8Array(readFileSync(resolve(corpus, name)));

after(async () => { await shutdownOcr(); await shutdownPagePool(); });

describe('PDF partitioning (fast)', () => {
  it('reads a two-column paper in column order with titles and narrative text', async () => {
    const r = await partition({ data: doc('multi-column-2p.pdf'), filename: 'multi-column-2p.pdf' }, { strategy: 'fast' });
    const els = r.elements;
    assert.equal(r.filetype, 'pdf');
    const texts = els.map((e) => e.text);
    const title = els.find((e) => e.text === 'Dense Passage Retrieval for Open-Domain Question Answering');
    assert.equal(title?.type, 'Title');
    const abstract = texts.findIndex((t) => t.startsWith('Open-domain question answering relies on efficient passage retrieval'));
    const intro = texts.findIndex((t) => t === '1 Introduction');
    const rightCol = texts.findIndex((t) => t.startsWith('Retrieval in open-domain QA is usually implemented'));
    assert.ok(abstract >= 0 && intro > abstract && rightCol > intro, 'left column (abstract, introduction) before the right column');
    assert.equal(els[abstract]!.type, 'NarrativeText');
    for (const e of els) {
      assert.equal(e.metadata.filename, 'multi-column-2p.pdf');
      assert.equal(e.metadata.filetype, 'application/pdf');
      assert.deepEqual(e.metadata.languages, ['eng']);
      assert.ok(e.metadata.page_number === 1 || e.metadata.page_number === 2);
      assert.match(e.element_id, /^[0-9a-f]{32}$/);
    }
    assert.equal(new Set(els.map((e) => e.element_id)).size, els.length);
  });

  it('reports bold and italic runs, and link annotations', async () => {
    const em = await partition({ data: doc('emphasis-text.pdf'), filename: 'emphasis-text.pdf' }, { strategy: 'fast' });
    const tags = em.elements.flatMap((e) => e.metadata.emphasized_text_tags ?? []);
    const contents = em.elements.flatMap((e) => e.metadata.emphasized_text_contents ?? []);
    assert.ok(tags.includes('b') && tags.includes('i'), `tags ${JSON.stringify(tags)}`);
    assert.ok(contents.some((c) => /bold/i.test(c)));
    const ln = await partition({ data: doc('embedded-link.pdf'), filename: 'embedded-link.pdf' }, { strategy: 'fast' });
    const urls = ln.elements.flatMap((e) => e.metadata.link_urls ?? []);
    assert.ok(urls.some((u) => u.startsWith('http://www.apple.com')), `urls ${JSON.stringify(urls)}`);
    assert.ok(urls.includes('mailto:unstructuredai@earlygrowth.com'));
    const withLink = ln.elements.find((e) => e.metadata.link_urls?.length)!;
    assert.equal(withLink.metadata.link_texts!.length, withLink.metadata.link_urls!.length);
  });

  it('detects a text-layer table with an HTML rendering', async () => {
    const r = await partition({ data: doc('all-number-table.pdf'), filename: 'all-number-table.pdf' }, { strategy: 'fast' });
    const table = r.elements.find((e) => e.type === 'Table');
    assert.ok(table, 'a Table element');
    assert.match(table.metadata.text_as_html!, /^<table><tr><td>200\.01<\/td><td>1<\/td><\/tr>/);
    // The text reads row by row, as every format writes a table. The library's expected output for
    // this file (../shared/corpus/expected/*/all-number-table.pdf.json) is column by column, the
    // order its text boxes stacked each column in: text accuracy 0.654 against it, under the
    // partition scorer's 0.8 match, so that row's table agreement stays below 1.0 on purpose.
    assert.match(table.text, /^200\.01 1 /);
    assert.ok(table.text.includes('1600.01'));
  });

  it('a bulleted list of long wrapped items under the page\'s head is no table (a manual\'s list of messages)', async () => {
    const r = await partition({ data: doc('pdf2image-memory-error-test-400p.pdf'), filename: 'manual.pdf' }, { strategy: 'fast' });
    const page = r.elements.filter((e) => e.metadata.page_number === 12);
    assert.ok(!page.some((e) => e.type === 'Table'), JSON.stringify(page.map((e) => [e.type, e.text.slice(0, 60)])));
    assert.ok(page.filter((e) => e.type === 'ListItem').length >= 10);
  });

  it('adds coordinates, page breaks, a page offset and unique ids on request', async () => {
    const r = await partition({ data: doc('multi-column-2p.pdf'), filename: 'm.pdf' }, {
      strategy: 'fast', coordinates: true, includePageBreaks: true, startingPageNumber: 10, uniqueElementIds: true,
    });
    const breaks = r.elements.filter((e) => e.type === 'PageBreak');
    assert.equal(breaks.length, 1);
    const pages = new Set(r.elements.map((e) => e.metadata.page_number));
    assert.deepEqual([...pages].sort(), [10, 11]);
    const first = r.elements.find((e) => e.type !== 'PageBreak')!;
    const c = first.metadata.coordinates!;
    assert.equal(c.system, 'PointSpace');
    assert.equal(c.points.length, 4);
    assert.ok(c.layout_width > 500 && c.layout_height > 700);
    assert.match(first.element_id, /^[0-9a-f-]{36}$/);
  });

  it('emits Image elements under hi_res and embeds requested block images', async () => {
    const r = await partition({ data: doc('embedded-images.pdf'), filename: 'embedded-images.pdf' }, { strategy: 'hi_res', extractImageBlockTypes: ['Image'] });
    const images = r.elements.filter((e) => e.type === 'Image');
    assert.equal(images.length, 3);
    for (const im of images) {
      assert.match(String(im.metadata.image_base64), /^iVBORw0KGgo/);
      assert.equal(im.metadata.image_mime_type, 'image/png');
      assert.equal(im.metadata.coordinates, undefined);
    }
    assert.equal(r.elements.filter((e) => e.metadata.image_base64).length, 3);
  });

  it('partitions a PDF whose cross-reference table needs repair', async () => {
    const r = await partition({ data: doc('failure-after-repair.pdf'), filename: 'failure-after-repair.pdf' }, { strategy: 'fast' });
    assert.ok(r.elements.length > 100);
    assert.ok(Math.max(...r.elements.map((e) => e.metadata.page_number ?? 0)) >= 70);
  });

  it('uses the text layer under strategy vlm with no provider configured, and says so', async () => {
    const saved = { o: process.env.OPENAI_API_KEY, a: process.env.ANTHROPIC_API_KEY, k: process.env.AWS_ACCESS_KEY_ID };
    delete process.env.OPENAI_API_KEY; delete process.env.ANTHROPIC_API_KEY; delete process.env.AWS_ACCESS_KEY_ID;
    try {
      const r = await partition({ data: doc('emphasis-text.pdf'), filename: 'e.pdf' }, { strategy: 'vlm', vlm: { provider: 'openai' } });
      assert.ok(r.elements.length > 0);
      for (const e of r.elements) assert.match(String(e.metadata.partitioner_note), /no provider is configured/);
      assert.ok(r.warnings.some((w) => /no provider/.test(w)));
    } finally {
      if (saved.o !== undefined) process.env.OPENAI_API_KEY = saved.o;
      if (saved.a !== undefined) process.env.ANTHROPIC_API_KEY = saved.a;
      if (saved.k !== undefined) process.env.AWS_ACCESS_KEY_ID = saved.k;
    }
  });
});

describe('PDF and pipeline errors', () => {
  const rejects = async (p: Promise<unknown>, cls: new (...a: never[]) => Error, re: RegExp) => {
    await assert.rejects(p, (err: unknown) => {
      assert.ok(err instanceof cls, `expected ${cls.name}, got ${(err as Error)?.constructor?.name}: ${(err as Error)?.message}`);
      assert.match((err as Error).message, re);
      return true;
    });
  };

  it('refuses an encrypted PDF with the open-source message', async () => {
    await rejects(partition({ data: doc('password.pdf'), filename: 'password.pdf' }), UnprocessableDocument, /^File is encrypted\. Please decrypt it with password\.$/);
  });

  it('refuses zero-byte, unsupported and undetectable uploads', async () => {
    await rejects(partition({ data: new Uint8Array(0), filename: 'empty.pdf' }), BadRequest, /empty/);
    await rejects(partition({ data: new TextEncoder().encode('GIF89a......'), filename: 'a.gif' }), BadRequest, /^File type image\/gif is not supported\.$/);
    await rejects(partition({ data: new Uint8Array([0, 1, 2, 3, 0, 0, 9, 8, 7, 0, 0, 0]), filename: 'blob' }), BadRequest, /^File type application\/octet-stream is not supported\.$/);
  });

  it('refuses truncated and corrupt PDFs with a clear 4xx error; junk after a whole PDF is ignored', async () => {
    const full = doc('multi-column-2p.pdf');
    // a PDF cut anywhere loses its cross-reference table and trailer: PDFium refuses it (error 3, format)
    for (const cut of [20, 1000, Math.floor(full.length / 2), full.length - 100]) {
      await rejects(partition({ data: full.subarray(0, cut), filename: 't.pdf' }, { strategy: 'fast' }), UnprocessableDocument, /^Invalid or damaged PDF \(PDFium error 3\)\.$/);
    }
    const whole = await partition({ data: full, filename: 't.pdf' }, { strategy: 'fast' });
    const padded = await partition({ data: Buffer.concat([full, Buffer.from('\n%% trailing junk '.repeat(50))]), filename: 't.pdf' }, { strategy: 'fast' });
    assert.deepEqual(padded.elements.map((e) => e.text), whole.elements.map((e) => e.text));
    assert.deepEqual([...new Set(whole.elements.map((e) => e.metadata.page_number))], [1, 2]);
    const junk = new Uint8Array(4096);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919) % 251;
    junk.set(new TextEncoder().encode('%PDF-1.4\n'), 0);
    await rejects(partition({ data: junk, filename: 'junk.pdf' }), UnprocessableDocument, /PDF/);
  });

  it('detects a PDF by content whatever its name', async () => {
    const r = await partition({ data: doc('emphasis-text.pdf'), filename: 'looks-like.docx', contentType: 'application/msword' }, { strategy: 'fast' });
    assert.equal(r.filetype, 'pdf');
    assert.equal(r.elements[0]!.metadata.filetype, 'application/pdf');
  });

  it('unwraps gzip uploads and refuses gzip bombs', async () => {
    const r = await partition({ data: gzipSync(doc('emphasis-text.pdf')), filename: 'e.pdf.gz' }, { strategy: 'fast' }, { gzUncompressedContentType: 'application/pdf' });
    assert.equal(r.filetype, 'pdf');
    assert.equal(r.elements[0]!.metadata.filename, 'e.pdf');
    const bomb = gzipSync(new Uint8Array(8 * 1024 * 1024));
    assert.ok(bomb.length < 20_000);
    await rejects(partition({ data: bomb, filename: 'bomb.gz' }, {}, { maxDecompressedBytes: 1024 * 1024 }), PayloadTooLarge, /exceeds/);
    await rejects(partition({ data: gzipSync(doc('emphasis-text.pdf')).subarray(0, 500), filename: 'cut.gz' }), UnprocessableDocument, /gzip/);
  });
});
