import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { processPage, type PageJobOptions } from '../../../lambdas/engine/partition/pdf/pages';
import { PdfDocument } from '../../../lambdas/engine/partition/pdf/pdfium';
import { processPagesInPool, shutdownPagePool } from '../../../lambdas/engine/partition/pdf/pool';

const repoRoot = resolve(import.meta.dirname, '../../..');
const data = new Uint8Array(readFileSync(resolve(repoRoot, '../shared/corpus/docs/failure-after-repair.pdf')));

after(async () => { await shutdownPagePool(); });

describe('PDF page workers', () => {
  it('produce the same elements as in-process extraction, in page order', async () => {
    const opts: PageJobOptions = { hiRes: false, coordinates: true, tables: true, tableHtml: true, languages: [] };
    const pages = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const pooled = await processPagesInPool(data, pages, opts);
    assert.ok(pooled, 'the worker pool starts from source (tsx)');
    const doc = await PdfDocument.open(data);
    try {
      const local = pages.map((i) => processPage(doc, i, opts));
      assert.deepEqual(pooled.map((r) => r.page), pages.map((i) => i + 1));
      const strip = (rs: typeof local) => rs.map((r) => ('elements' in r ? r.elements.map((e) => [e.type, e.text, e.metadata]) : r));
      assert.deepEqual(strip(pooled), strip(local));
    } finally {
      doc.close();
    }
  });
});
