// Workflows writing into the vector stores through the HTTP API, against the local stand-ins that
// speak each store's wire protocol (Pinecone REST, Qdrant REST, Astra DB Data API): local source →
// partition → chunk → embed (built-in 384-dim embedder) → destination, run twice: one copy of each
// file's records, the store created with 384 dimensions, metadata present. Destinations that validate
// but point nowhere fail their check and their files with the store's reason; the jobs finish.
// One stack serves the three families (e2e time is scarce on CI).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { startPineconeStandIn, type PineconeStandIn } from '../../lambdas/connectors/pinecone/test-server';
import { startQdrantStandIn, type QdrantStandIn } from '../../lambdas/connectors/qdrant/test-server';
import { startAstraStandIn, type AstraStandIn } from '../../lambdas/connectors/astradb/test-server';
import { closedPort } from '../integration/connectors/helpers';
import { trustStandIns } from '../support/stand-in-ca';

const corpus = resolve(process.cwd(), '../shared/corpus/docs');
let stack: TestStack;
let pinecone: PineconeStandIn;
let qdrant: QdrantStandIn;
let astra: AstraStandIn;
let sourceId: string;
const inDir = join(mkdtempSync(join(tmpdir(), 'wps-vecdest-')), 'in');
const savedController = process.env.PINECONE_CONTROLLER_HOST;

const nodes = [
  { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
  { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 500 } },
  { name: 'Embedder', type: 'embed', subtype: 'local', settings: { model_name: 'builtin-hashed-char-ngrams-384' } },
];

let untrustStandIns: (() => void) | undefined;
before(async () => {
  untrustStandIns = trustStandIns();
  if (NEEDS_LOCAL) return;
  mkdirSync(join(inDir, 'sub'), { recursive: true });
  copyFileSync(join(corpus, 'fake-text.txt'), join(inDir, 'fake-text.txt'));
  copyFileSync(join(corpus, 'README.md'), join(inDir, 'sub', 'README.md'));
  [pinecone, qdrant, astra] = await Promise.all([startPineconeStandIn(), startQdrantStandIn(), startAstraStandIn()]);
  process.env.PINECONE_CONTROLLER_HOST = pinecone.url;
  stack = await startTestStack();
  sourceId = (await stack.call('POST', '/api/v1/sources/', { body: { name: 'in', type: 'local', config: { remote_url: inDir } } })).body.id;
});
after(async () => {
  untrustStandIns?.();
  await stack?.close();
  await Promise.all([pinecone?.stop(), qdrant?.stop(), astra?.stop()]);
  if (savedController === undefined) delete process.env.PINECONE_CONTROLLER_HOST;
  else process.env.PINECONE_CONTROLLER_HOST = savedController;
});

async function createDestination(name: string, type: string, config: Record<string, unknown>, secretField: string) {
  const dest = await stack.call('POST', '/api/v1/destinations/', { body: { name, type, config } });
  assert.equal(dest.status, 200, dest.text);
  assert.equal(dest.body.config[secretField], '**********');
  return dest.body.id as string;
}

async function check(destinationId: string) {
  await stack.call('POST', `/api/v1/destinations/${destinationId}/connection-check`);
  return eventually(async () => {
    const r = await stack.call('GET', `/api/v1/destinations/${destinationId}/connection-check`);
    return r.body.status !== 'SCHEDULED' ? r.body : undefined;
  }, 'connection check');
}

async function workflow(name: string, destinationId: string): Promise<string> {
  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name, workflow_type: 'custom', reprocess_all: true, workflow_nodes: nodes, source_id: sourceId, destination_id: destinationId },
  });
  assert.equal(wf.status, 200, wf.text);
  return wf.body.id;
}

async function runToEnd(workflowId: string) {
  const run = await stack.call('POST', `/api/v1/workflows/${workflowId}/run`);
  assert.equal(run.status, 202, run.text);
  return eventually(async () => {
    const r = await stack.call('GET', `/api/v1/jobs/${run.body.id}`);
    return ['COMPLETED', 'FAILED', 'STOPPED'].includes(r.body.status) ? r.body : undefined;
  }, 'workflow job', 180_000);
}

/** Runs the workflow twice; returns the per-file record counts after each run. */
async function twice(workflowId: string, countByFile: () => Record<string, number>) {
  const counts: Record<string, number>[] = [];
  for (let i = 0; i < 2; i++) {
    const job = await runToEnd(workflowId);
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    counts.push(countByFile());
  }
  assert.deepEqual(Object.keys(counts[0]!).sort(), ['README.md', 'fake-text.txt']);
  for (const n of Object.values(counts[0]!)) assert.ok(n >= 1);
  assert.deepEqual(counts[1], counts[0], 'the second run replaced each file, not duplicated it');
}

function tally<T>(items: T[], fileOf: (x: T) => unknown): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of items) out[String(fileOf(x))] = (out[String(fileOf(x))] ?? 0) + 1;
  return out;
}

test('pinecone: two runs leave one copy of each file in an index created with 384 dimensions', { skip: NEEDS_LOCAL }, async () => {
  const id = await createDestination('pc', 'pinecone', { api_key: pinecone.apiKey, index_name: 'workflow-docs', namespace: 'kb', batch_size: 20 }, 'api_key');
  const c = await check(id);
  assert.equal(c.status, 'SUCCESS', c.reason);
  await twice(await workflow('to-pinecone', id), () => tally(pinecone.vectors('workflow-docs', 'kb'), (v) => v.metadata?.filename));
  assert.equal(pinecone.dimensionOf('workflow-docs'), 384);
  const vectors = pinecone.vectors('workflow-docs', 'kb');
  assert.equal(new Set(vectors.map((v) => v.id)).size, vectors.length);
  const sample = vectors.find((v) => v.metadata?.filename === 'fake-text.txt')!;
  assert.equal(sample.values.length, 384);
  assert.equal(sample.metadata!.type, 'CompositeElement');
  assert.ok(String(sample.metadata!.text).length > 0 && sample.metadata!.element_id);
  assert.ok(sample.id.startsWith(`${sample.metadata!.record_id}#`));
});

test('qdrant-cloud: two runs leave one copy of each file in a collection created with size 384', { skip: NEEDS_LOCAL }, async () => {
  const id = await createDestination('qd', 'qdrant-cloud', { api_key: qdrant.apiKey, url: qdrant.url, collection_name: 'workflow_docs', batch_size: 20 }, 'api_key');
  const c = await check(id);
  assert.equal(c.status, 'SUCCESS', c.reason);
  await twice(await workflow('to-qdrant', id), () => tally(qdrant.points('workflow_docs'), (p) => p.payload['metadata-filename']));
  assert.equal(qdrant.collection('workflow_docs')!.size, 384);
  const sample = qdrant.points('workflow_docs').find((p) => p.payload['metadata-filename'] === 'fake-text.txt')!;
  assert.equal(sample.vector.length, 384);
  assert.equal(sample.payload.type, 'CompositeElement');
  assert.equal(sample.payload['metadata-filetype'], 'text/plain');
  assert.ok(sample.payload.record_id && sample.payload.element_serialized && String(sample.payload.text).length > 0);
});

test('astradb: two runs leave one copy of each file in a collection created with dimension 384', { skip: NEEDS_LOCAL }, async () => {
  const id = await createDestination('astra', 'astradb', { api_endpoint: astra.url, token: astra.token, collection_name: 'workflow_docs', batch_size: 20 }, 'token');
  const c = await check(id);
  assert.equal(c.status, 'SUCCESS', c.reason);
  await twice(await workflow('to-astra', id), () => tally(astra.documents('workflow_docs'), (d) => (d.metadata as any)?.metadata?.filename));
  assert.deepEqual(astra.collection('workflow_docs'), { dimension: 384, metric: 'cosine' });
  const sample = astra.documents('workflow_docs').find((d) => (d.metadata as any)?.metadata?.filename === 'fake-text.txt')!;
  assert.equal(sample.$vector!.length, 384);
  assert.equal((sample.metadata as any).type, 'CompositeElement');
  assert.equal((sample.metadata as any).metadata.filetype, 'text/plain');
  assert.ok(sample.record_id && String(sample.content).length > 0);
});

test('destinations that point nowhere: FAILURE checks, files failed with the store\'s reason, jobs finished', { skip: NEEDS_LOCAL }, async () => {
  const port = await closedPort();
  const cases = [
    { type: 'qdrant-cloud', config: { api_key: 'qd-secret', url: `https://127.0.0.1:${port}`, collection_name: 'c' }, secret: 'qd-secret', reason: /cannot reach 127\.0\.0\.1:\d+: .*ECONNREFUSED/ },
    { type: 'astradb', config: { api_endpoint: `https://127.0.0.1:${port}`, token: 'AstraCS:astra-secret', collection_name: 'c' }, secret: 'astra-secret', reason: /cannot reach 127\.0\.0\.1:\d+: .*ECONNREFUSED/ },
    { type: 'pinecone', config: { api_key: 'pc-secret-rejected', index_name: 'docs', namespace: '' }, secret: 'pc-secret-rejected', reason: /rejected the API key \(HTTP 401\)/ },
  ];
  for (const k of cases) {
    const dest = await stack.call('POST', '/api/v1/destinations/', { body: { name: `${k.type}-nowhere`, type: k.type, config: k.config } });
    assert.equal(dest.status, 200, dest.text);
    const c = await check(dest.body.id);
    assert.equal(c.status, 'FAILURE', k.type);
    assert.match(c.reason, k.reason);
    assert.ok(!c.reason.includes(k.secret), 'no secret in the reason');
    const job = await runToEnd(await workflow(`${k.type}-nowhere`, dest.body.id));
    assert.equal(job.status, 'FAILED', k.type);
    const failed = await stack.call('GET', `/api/v1/jobs/${job.id}/failed-files`);
    assert.equal(failed.status, 200);
    assert.equal(failed.body.failed_files.length, 2);
    for (const f of failed.body.failed_files) {
      assert.match(f.error, new RegExp(`${k.type} destination: `));
      assert.match(f.error, k.reason);
      assert.ok(!f.error.includes(k.secret));
    }
  }
});
