// The sync endpoint's JSON answer (runPartitionRequest) forwards the partition sandbox's JSON text
// without parsing and rebuilding it: the bytes must stay exactly what the element-by-element
// JSON.stringify of the in-process pipeline gives, for one file and for several, on corpus PDFs
// (short ones in-process, long ones through the page workers), and the response limit still holds.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runPartitionRequest } from '../../../lambdas/domain/partition-request';
import { PayloadTooLarge } from '../../../lambdas/errors';
import { partitionDocument } from '../../../lambdas/engine/partition/pipeline';
import { shutdownPartitionSandbox } from '../../../lambdas/engine/partition/index';
import { shutdownPagePool } from '../../../lambdas/engine/partition/pdf/pool';

const corpus = resolve(import.meta.dirname, '../../../../shared/corpus/docs');
const PDFS = ['embedded-link.pdf', 'layout-parser-paper-fast.pdf', 'korean-text-with-tables.pdf', 'multi-column.pdf', 'fr_olap.pdf', 'failure-after-repair.pdf'];
const upload = (name: string) => ({ filename: name, contentType: 'application/pdf', data: new Uint8Array(readFileSync(resolve(corpus, name))) });

/** What the endpoint answered before: the in-process pipeline's elements, one JSON.stringify each. */
async function reference(name: string): Promise<string> {
  const { elements } = await partitionDocument(upload(name), { strategy: 'fast' });
  return `[${elements.map((e) => JSON.stringify(e)).join(',')}]`;
}

after(async () => {
  await shutdownPartitionSandbox();
  await shutdownPagePool();
});

describe('sync partition answer (JSON, no chunking)', () => {
  it('is byte-identical to the element-by-element serialisation, one file at a time', async () => {
    for (const name of PDFS) {
      const out = await runPartitionRequest([upload(name)], { strategy: ['fast'] });
      assert.equal(out.contentType, 'application/json');
      const expected = await reference(name);
      assert.ok(expected.length > 2, `${name}: the reference has elements`);
      assert.ok(out.body === expected, `${name}: the answer differs from the reference (${out.body.length} vs ${expected.length} characters)`);
    }
  });

  it('is byte-identical for several files in one request (an array per file)', async () => {
    const names = ['embedded-link.pdf', 'multi-column.pdf', 'fr_olap.pdf'];
    const out = await runPartitionRequest(names.map(upload), { strategy: ['fast'] });
    const expected = `[${(await Promise.all(names.map(reference))).join(',')}]`;
    assert.ok(out.body === expected, `the answer differs from the reference (${out.body.length} vs ${expected.length} characters)`);
  });

  it('still refuses an answer above the response limit with a 413 naming it', async () => {
    const size = Buffer.byteLength(await reference('multi-column.pdf'));
    await assert.rejects(runPartitionRequest([upload('multi-column.pdf')], { strategy: ['fast'] }, size - 1), (err: unknown) => {
      assert.ok(err instanceof PayloadTooLarge);
      assert.match((err as Error).message, /response limit \(at multi-column\.pdf\)/);
      return true;
    });
    const fits = await runPartitionRequest([upload('multi-column.pdf')], { strategy: ['fast'] }, size);
    assert.equal(Buffer.byteLength(fits.body), size);
  });
});
