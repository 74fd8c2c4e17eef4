// Workflows writing into the vector stores through the HTTP API, against the local stand-ins that
// speak each store's wire protocol (Pinecone REST, Qdrant REST, Astra DB Data API): local source →
// partition → chunk → embed (built-in 384-dim embedder) → destination, run twice: one copy of each
// file's records, the store created with 384 dimensions, metadata present. Destinations that validate
// but point nowhere fail their check and their files with the store's reason; the jobs finish.
// One stack serves the three families (e2e time is scarce on CI).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows, EMBED_NODES, stageInput, tally } from '../support/e2e-flows';
import { startPineconeStandIn, type PineconeStandIn } from '../../lambdas/connectors/pinecone/test-server';
import { startQdrantStandIn, type QdrantStandIn } from '../../lambdas/connectors/qdrant/test-server';
import { startAstraStandIn, type AstraStandIn } from '../../lambdas/connectors/astradb/test-server';
import { closedPort } from '../integration/connectors/helpers';
import { trustStandIns } from '../support/stand-in-ca';

let stack: TestStack;
let pinecone: PineconeStandIn;
let qdrant: QdrantStandIn;
let astra: AstraStandIn;
let sourceId: string;
const inDir = join(mkdtempSync(join(tmpdir(), 'wps-vecdest-')), 'in');
const { createDestination, check, workflow, runToEnd, twice, pointNowhere } = e2eFlows(() => stack, () => sourceId);
const savedController = process.env.PINECONE_CONTROLLER_HOST;

let untrustStandIns: (() => void) | undefined;
before(async () => {
  untrustStandIns = trustStandIns();
  if (NEEDS_LOCAL) return;
  stageInput(inDir);
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
  await pointNowhere(cases, EMBED_NODES);
});
