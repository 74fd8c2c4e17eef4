// The official `unstructured-client` SDK against the local service, unchanged: it sends
// unstructured-api-key, strategy=hi_res and split_pdf_* fields, and splits PDFs of 4+ pages into
// concurrent page-range calls carrying starting_page_number.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UnstructuredClient } from 'unstructured-client';
import { Strategy } from 'unstructured-client/sdk/models/shared/index.js';
import { REMOTE, startTestStack, type TestStack } from '../support/local-stack';
import { authService } from '../../lambdas/services/core';

const corpus = resolve(process.cwd(), '../shared/corpus/docs');
let stack: TestStack;
let client: UnstructuredClient;
let partitionCalls = 0;

before(async () => {
  stack = await startTestStack({
    authMode: 'keyed',
    onRequest: (r) => {
      if (r.path === '/general/v0/general') partitionCalls++;
    },
  });
  const key = REMOTE ? (process.env.WPS_E2E_API_KEY ?? '') : (await authService().createKey('sdk-account', 'sdk-user')).key;
  client = new UnstructuredClient({ serverURL: stack.url, security: { apiKeyAuth: key } });
});
after(async () => {
  await stack?.close();
});

test('partitions a text document through the SDK', async () => {
  const res = await client.general.partition({
    partitionParameters: {
      files: { content: readFileSync(resolve(corpus, 'fake-text.txt')), fileName: 'fake-text.txt' },
      strategy: Strategy.Fast,
    },
  });
  const elements = res as unknown as { type: string; text: string; metadata: { filename: string } }[];
  assert.ok(Array.isArray(elements) && elements.length > 0, JSON.stringify(res).slice(0, 300));
  assert.equal(elements[0]!.metadata.filename, 'fake-text.txt');
});

test('splits a multi-page PDF into page-range calls and stitches pages in order', async () => {
  const pdf = readFileSync(resolve(corpus, 'multi-column.pdf')); // 13 pages
  const before = partitionCalls;
  const split = (await client.general.partition({
    partitionParameters: {
      files: { content: pdf, fileName: 'multi-column.pdf' },
      strategy: Strategy.Fast,
      splitPdfPage: true,
      splitPdfConcurrencyLevel: 3,
    },
  })) as unknown as { metadata: { page_number?: number } }[];
  if (!REMOTE) assert.ok(partitionCalls - before >= 2, `expected several page-range calls, saw ${partitionCalls - before}`);
  const whole = (await client.general.partition({
    partitionParameters: { files: { content: pdf, fileName: 'multi-column.pdf' }, strategy: Strategy.Fast, splitPdfPage: false },
  })) as unknown as { metadata: { page_number?: number } }[];
  const pages = (els: { metadata: { page_number?: number } }[]) => els.map((e) => e.metadata.page_number ?? 0);
  assert.ok(split.length > 0);
  assert.equal(Math.max(...pages(split)), 13);
  assert.deepEqual([...new Set(pages(split))], [...new Set(pages(whole))]);
  const sorted = [...pages(split)].sort((a, b) => a - b);
  assert.deepEqual(pages(split), sorted, 'page numbers continue across the split calls in order');
});

test('a bad key is rejected through the SDK', { skip: REMOTE && !process.env.WPS_E2E_API_KEY && 'the deployment under test is not keyed' }, async () => {
  const bad = new UnstructuredClient({ serverURL: stack.url, security: { apiKeyAuth: 'wrong' } });
  await assert.rejects(
    bad.general.partition({
      partitionParameters: { files: { content: Buffer.from('hello'), fileName: 'a.txt' }, strategy: Strategy.Fast },
    }),
    (err: { statusCode?: number }) => err.statusCode === 401,
  );
});
