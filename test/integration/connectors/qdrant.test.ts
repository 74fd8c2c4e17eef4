// Qdrant Cloud destination through the registry and the official REST client, against the local
// stand-in: points as the platform stages them (+ record_id), replace by a record_id filter,
// collection creation, batching, throttling, refusals with Qdrant's text.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConnection, deliverToDestination, outputConfig, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId } from '../../../lambdas/connectors/records/ids';
import { startQdrantStandIn, type QdrantStandIn } from '../../../lambdas/connectors/qdrant/test-server';
import { closedPort } from './helpers';
import { trustStandIns } from '../../support/stand-in-ca';
import { DIMS, element, elements, logSink, vec } from './vector-fixtures';

let qd: QdrantStandIn;
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'qdrant-cloud', { api_key: qd.apiKey, url: qd.url, collection_name: 'docs', batch_size: 50, ...over });
const mine = (collection: string, sourceKey: string) => qd.points(collection).filter((p) => p.payload.record_id === documentRecordId('src', sourceKey));

let untrust: (() => void) | undefined;
before(async () => {
  untrust = trustStandIns(); // the stand-in serves TLS: the API key goes over TLS only
  qd = await startQdrantStandIn();
  qd.createCollection('docs', DIMS);
});
after(async () => {
  untrust?.();
  await qd?.stop();
});

test('config: the platform fields, an http(s) url, batch_size ≥ 1, api_key masked', () => {
  const bad = (over: Record<string, unknown>, field: string) =>
    assert.throws(() => validateConfig('destination', 'qdrant-cloud', { api_key: 'k', url: 'https://q.example:6333', collection_name: 'c', ...over }), (e: any) =>
      e.issues.some((i: any) => i.loc.join('.') === `body.config.${field}`));
  bad({ url: 'q.example:6333' }, 'url');
  bad({ batch_size: 0 }, 'batch_size');
  bad({ collection_name: '' }, 'collection_name');
  const c = validateConfig('destination', 'qdrant-cloud', { api_key: 'secret-key', url: 'https://q.example:6333', collection_name: 'c' });
  assert.equal(c.batch_size, 50);
  assert.equal(outputConfig('destination', 'qdrant-cloud', c).api_key, '**********');
});

test('check: the key, the collection and a harmless delete; failures carry Qdrant\'s text', async () => {
  const ok = await checkConnection('destination', 'qdrant-cloud', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.match(ok.reason!, /collection docs: vector size 384 \(Cosine\), \d+ points; writes accepted/);

  const absent = await checkConnection('destination', 'qdrant-cloud', config({ collection_name: 'later' }));
  assert.equal(absent.status, 'SUCCESS');
  assert.match(absent.reason!, /collection later does not exist yet: the first write creates it/);
  assert.equal(qd.hasCollection('later'), false, 'the check creates nothing');

  const badKey = await checkConnection('destination', 'qdrant-cloud', config({ api_key: 'wrong-secret' }));
  assert.equal(badKey.status, 'FAILURE');
  assert.equal(badKey.reason, 'Qdrant rejected the API key (HTTP 401): Invalid API key or JWT');

  const readOnly = await checkConnection('destination', 'qdrant-cloud', config({ api_key: qd.readOnlyKey }));
  assert.equal(readOnly.status, 'FAILURE');
  assert.match(readOnly.reason!, /HTTP 403\): Forbidden: Write access denied/);

  const down = await checkConnection('destination', 'qdrant-cloud', config({ url: `https://127.0.0.1:${await closedPort()}` }), { timeoutMs: 8000 });
  assert.equal(down.status, 'FAILURE');
  assert.match(down.reason!, /^cannot reach 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
});

test('write: one point per element (uuid5 id, vector, platform payload + record_id); a rewrite replaces the document only', async () => {
  const first = await deliverToDestination('qdrant-cloud', config(), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(3) });
  assert.deepEqual(first, { written: 3, deleted: 0 });
  await deliverToDestination('qdrant-cloud', config(), { sourceId: 'src', sourceKey: 'b.txt', elements: elements(1, 'other') });
  const second = await deliverToDestination('qdrant-cloud', config(), { sourceId: 'src', sourceKey: 'a.txt', elements: [element(0, 'text 0'), element(7, 'seven')] });
  assert.deepEqual(second, { written: 2, deleted: 3 });

  const points = mine('docs', 'a.txt');
  assert.equal(points.length, 2);
  assert.equal(mine('docs', 'b.txt').length, 1, 'b.txt untouched');
  const title = points.find((p) => p.payload.text === 'text 0')!;
  assert.match(String(title.id), /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(title.vector.length, DIMS);
  assert.deepEqual(title.vector.slice(0, 3), vec(0).slice(0, 3));
  assert.equal(title.payload.type, 'Title');
  assert.equal(title.payload.element_id, 'el-0-6');
  assert.equal(title.payload['metadata-filename'], 'a.txt');
  assert.equal(title.payload['metadata-languages-0'], 'eng');
  assert.equal(title.payload['metadata-data_source-url'], 's3://b/a.txt');
  const serialized = JSON.parse(String(title.payload.element_serialized));
  assert.deepEqual(Object.keys(serialized).sort(), ['element_id', 'metadata', 'type']);
  assert.equal(serialized.metadata.page_number, 1);

  assert.equal(await removeDocumentRecords('qdrant-cloud', config(), { sourceId: 'src', sourceKey: 'b.txt' }), 1);
  assert.equal(mine('docs', 'b.txt').length, 0);
});

test('an absent collection is created with the embeddings size, Cosine, and a record_id payload index', async () => {
  const r = await deliverToDestination('qdrant-cloud', config({ collection_name: 'fresh' }), { sourceId: 'src', sourceKey: 'f.txt', elements: elements(2) });
  assert.equal(r.written, 2);
  assert.deepEqual(qd.collection('fresh'), { size: DIMS, distance: 'Cosine', payloadIndexes: { record_id: 'keyword' } });
  assert.equal(mine('fresh', 'f.txt').length, 2);
});

test('batches honour batch_size; 429 with Retry-After and 502 are retried', async () => {
  const sink = logSink();
  const before = qd.requests.length;
  const isUpsert = (q: { method: string; path: string }) => q.method === 'PUT' && q.path === '/collections/docs/points';
  qd.fail({ status: 429, body: { status: { error: 'Too many requests' } }, headers: { 'retry-after': '1' }, match: isUpsert });
  qd.fail({ status: 502, body: 'Bad Gateway', match: isUpsert });
  const r = await deliverToDestination('qdrant-cloud', config({ batch_size: 2 }), { sourceId: 'src', sourceKey: 'batched.txt', elements: elements(5) }, { log: sink.log });
  assert.equal(r.written, 5);
  const sent = qd.requests.slice(before).filter(isUpsert);
  assert.equal(sent.length, 5, 'three batches plus two retried attempts');
  assert.deepEqual(sent.map((q) => (q.body as any).points.length).sort(), [1, 2, 2, 2, 2]);
  assert.ok(sent.every((q) => q.query.get('wait') === 'true'));
  const retries = sink.lines.filter((l) => l.msg === 'qdrant upsert retried');
  assert.equal(retries.length, 2);
  assert.ok(retries.some((l) => l.fields!.delayMs === 1000), `Retry-After honoured: ${JSON.stringify(retries)}`);
  assert.ok(retries.some((l) => /HTTP 502: Bad Gateway/.test(String(l.fields!.error))));
  assert.equal(mine('docs', 'batched.txt').length, 5);
});

test('a point the collection refuses fails the document with Qdrant\'s message', async () => {
  await assert.rejects(
    deliverToDestination('qdrant-cloud', config(), { sourceId: 'src', sourceKey: 'bad.txt', elements: [element(0, 'short', {}, 3)] }),
    /upsert into collection docs failed: Qdrant answered HTTP 400: Wrong input: Vector dimension error: expected dim: 384, got 3/,
  );
  await assert.rejects(
    deliverToDestination('qdrant-cloud', config(), { sourceId: 'src', sourceKey: 'none.txt', elements: [{ ...element(0, 'x'), embeddings: undefined }] }),
    /no element has embeddings: add an embed node/,
  );
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS: refused before any request reaches the host', async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  const seen = qd.requests.length;
  try {
    const r = await checkConnection('destination', 'qdrant-cloud', config());
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /resolves to a private network address \(127\.0\.0\.1\)/);
    await assert.rejects(deliverToDestination('qdrant-cloud', config(), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(1) }), /private network address/);
    assert.equal(qd.requests.length, seen);
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});
