import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { processPage, type PageJobOptions } from '../../../lambdas/engine/partition/pdf/pages';
import { PdfDocument } from '../../../lambdas/engine/partition/pdf/pdfium';
import { pagePoolReady, processPagesInPool, setPagePoolIdleMs, shutdownPagePool } from '../../../lambdas/engine/partition/pdf/pool';

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

  it('stay warm for the idle time they are given (the sandbox gives its own), then stop', async (t) => {
    const opts: PageJobOptions = { hiRes: false, coordinates: false, tables: false, tableHtml: false, languages: [] };
    t.mock.timers.enable({ apis: ['setTimeout'] });
    try {
      setPagePoolIdleMs(60_000);
      assert.ok(await processPagesInPool(data, [0, 1], opts));
      t.mock.timers.tick(59_000);
      assert.equal(pagePoolReady(), true, 'still warm 59 s after the last pages (the default would have stopped it at 10 s)');
      t.mock.timers.tick(2_000);
      assert.equal(pagePoolReady(), false, 'stopped once idle for 60 s');
    } finally {
      setPagePoolIdleMs(10_000);
      t.mock.timers.reset();
    }
  });
});
