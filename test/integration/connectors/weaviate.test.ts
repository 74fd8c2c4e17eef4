// Weaviate Cloud destination through the registry, driven by the official weaviate-client against the
// local stand-in (REST + gRPC, as the client really talks): objects as the platform's stager shapes
// them, the platform's collection created when absent, replace by record_id, refusals with Weaviate's
// message, throttling retried, batches and delete rounds bounded.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConnection, deliverToDestination, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId, enhancedElementId } from '../../../lambdas/connectors/records/ids';
import { startWeaviateTestServer, type WeaviateTestServer } from '../../../lambdas/connectors/weaviate/test-server';
import { closedPort } from './helpers';
import { trustStandIns } from '../../support/stand-in-ca';

let wv: WeaviateTestServer;
const config = (over: Record<string, unknown> = {}) => ({ cluster_url: wv.url, api_key: wv.apiKey, collection: 'Elements', ...over });

const vec = (seed: number, dims = 384) => Array.from({ length: dims }, (_, i) => Math.fround(Math.sin(seed + i)));
const element = (i: number, text: string, dims = 384) => ({
  type: i === 0 ? 'Title' : 'NarrativeText',
  element_id: `el-${i}-${text.length}`,
  text,
  metadata: {
    filename: 'a.txt', filetype: 'text/plain', languages: ['eng'], page_number: 2,
    data_source: { url: 's3://b/a.txt', version: 7, date_modified: '2026-01-02T03:04:05Z', record_locator: { path: 'a.txt' } },
    coordinates: { points: [[1, 2], [3, 4]], system: 'PixelSpace' },
  },
  embeddings: vec(i, dims),
});

let untrust: (() => void) | undefined;
before(async () => {
  untrust = trustStandIns(); // the stand-in serves TLS: the API key goes over TLS only
  wv = await startWeaviateTestServer();
});
after(async () => {
  untrust?.();
  await wv?.stop();
});

test('config: cluster_url and collection shapes are 422 items', () => {
  assert.throws(() => validateConfig('destination', 'weaviate-cloud', config({ collection: '1abc' }), ['body', 'config']), (e: any) => e.issues.some((i: any) => i.loc.join('.') === 'body.config.collection'));
  assert.throws(() => validateConfig('destination', 'weaviate-cloud', config({ cluster_url: 'http://' }), ['body', 'config']), (e: any) => e.issues.some((i: any) => i.loc.join('.') === 'body.config.cluster_url'));
  assert.throws(() => validateConfig('destination', 'weaviate-cloud', { cluster_url: wv.url }, ['body', 'config']), (e: any) => e.issues.some((i: any) => i.loc.join('.') === 'body.config.api_key'));
  assert.ok(validateConfig('destination', 'weaviate-cloud', config({ collection: undefined }), ['body', 'config']));
});

test('check: authenticated calls; a wrong key, a closed port and a refused address fail with the reason', async () => {
  const ok = await checkConnection('destination', 'weaviate-cloud', config({ collection: 'NotYet' }));
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.match(ok.reason!, /Weaviate 1\.32\.5: authenticated; collection NotYet does not exist yet, the first write creates it/);

  const bad = await checkConnection('destination', 'weaviate-cloud', config({ api_key: 'wrong-key-0123456789' }));
  assert.equal(bad.status, 'FAILURE');
  assert.match(bad.reason!, /Unauthenticated: .*unauthorized: invalid api key/);
  assert.ok(!bad.reason!.includes('wrong-key-0123456789') && !bad.reason!.includes(wv.apiKey), 'no key in the reason');

  const closed = await checkConnection('destination', 'weaviate-cloud', config({ cluster_url: `https://127.0.0.1:${await closedPort()}` }), { timeoutMs: 8000 });
  assert.equal(closed.status, 'FAILURE');
  assert.match(closed.reason!, /cannot connect to Weaviate at 127\.0\.0\.1:\d+: cannot reach 127\.0\.0\.1:\d+: .*ECONNREFUSED/);

  const metadata = await checkConnection('destination', 'weaviate-cloud', config({ cluster_url: 'https://169.254.169.254:8080' }));
  assert.equal(metadata.status, 'FAILURE');
  assert.match(metadata.reason!, /instance metadata address/);
});

test('write: the platform collection is created, objects staged as the platform does, a rewrite replaces', async () => {
  const doc = { sourceId: 'src-1', sourceKey: 'a.txt' };
  const other = { sourceId: 'src-1', sourceKey: 'b.txt' };
  const first = await deliverToDestination('weaviate-cloud', config(), { ...doc, elements: [element(0, 'Title one'), element(1, 'Body one'), element(2, 'Body two')] });
  assert.deepEqual(first, { written: 3, deleted: 0 });
  const schema = wv.schema('Elements')!;
  assert.equal(schema.vectorizer, 'none');
  assert.equal(schema.vectorIndexType, 'hnsw');
  assert.deepEqual(schema.properties.slice(0, 3).map((p: any) => `${p.name}:${p.dataType[0]}`), ['record_id:text', 'text:text', 'metadata:object']);

  await deliverToDestination('weaviate-cloud', config(), { ...other, elements: [element(0, 'Other doc')] });
  const second = await deliverToDestination('weaviate-cloud', config(), { ...doc, elements: [element(0, 'Title one'), element(1, 'Body one, edited')] });
  assert.deepEqual(second, { written: 2, deleted: 3 });

  const rid = documentRecordId('src-1', 'a.txt');
  const objs = wv.objects('Elements').filter((o) => o.properties.record_id === rid).sort((a, b) => String(a.properties.text).localeCompare(String(b.properties.text)));
  assert.deepEqual(objs.map((o) => o.properties.text), ['Body one, edited', 'Title one']);
  const title = objs[1]!;
  assert.equal(title.uuid, enhancedElementId(element(0, 'Title one').element_id, rid));
  assert.deepEqual(title.vector, vec(0));
  assert.equal(title.properties.type, 'Title');
  assert.equal(title.properties.element_id, element(0, 'Title one').element_id);
  assert.deepEqual(title.properties.metadata, {
    filename: 'a.txt', filetype: 'text/plain', languages: ['eng'], page_number: '2',
    data_source: { url: 's3://b/a.txt', version: '7', date_modified: '2026-01-02T03:04:05.000000Z', record_locator: '{"path":"a.txt"}' },
    coordinates: { points: '[[1,2],[3,4]]', system: 'PixelSpace' },
  });
  assert.equal(wv.objects('Elements').length, 3, 'two objects of a.txt and one of b.txt');

  assert.equal(await removeDocumentRecords('weaviate-cloud', config(), other), 1);
  assert.equal(wv.objects('Elements').filter((o) => o.properties.record_id === documentRecordId('src-1', 'b.txt')).length, 0);

  const checked = await checkConnection('destination', 'weaviate-cloud', config());
  assert.match(checked.reason!, /collection Elements exists with \d+ properties; a dry-run delete by record_id succeeded/);
});

test('no collection named: the platform default Unstructuredautocreated', async () => {
  await deliverToDestination('weaviate-cloud', config({ collection: undefined }), { sourceId: 's', sourceKey: 'c.txt', elements: [element(0, 'x')] });
  assert.equal(wv.objects('Unstructuredautocreated').length, 1);
});

test('an object Weaviate refuses fails the write with its message', async () => {
  await assert.rejects(
    deliverToDestination('weaviate-cloud', config(), { sourceId: 's', sourceKey: 'd.txt', elements: [element(0, 'short vector', 3)] }),
    /Weaviate rejected 1 of 1 object\(s\) in Elements: new node has a vector with length 3\. Existing nodes have vectors with length 384/,
  );
});

test('throttling: REST 429 with Retry-After and gRPC RESOURCE_EXHAUSTED are retried', async () => {
  wv.throttle('rest', 1, 0);
  wv.throttle('grpc', 1);
  const before = wv.calls.length;
  const r = await deliverToDestination('weaviate-cloud', config(), { sourceId: 's', sourceKey: 'e.txt', elements: [element(0, 'throttled once')] });
  assert.equal(r.written, 1);
  const calls = wv.calls.slice(before);
  assert.ok(calls.filter((c) => c === 'grpc BatchDelete').length >= 2 || calls.filter((c) => c === 'grpc BatchObjects').length >= 2, calls.join(', '));
  assert.equal(wv.objects('Elements').filter((o) => o.properties.text === 'throttled once').length, 1);
});

test('batches of at most 300 objects; deletes repeat until no object of the record is left', async () => {
  const many = Array.from({ length: 650 }, (_, i) => element(i, `chunk ${i}`));
  const doc = { sourceId: 's', sourceKey: 'big.txt' };
  let before = wv.calls.length;
  await deliverToDestination('weaviate-cloud', config(), { ...doc, elements: many });
  assert.equal(wv.calls.slice(before).filter((c) => c === 'grpc BatchObjects').length, 3);
  wv.maxDeleteResults = 200;
  try {
    before = wv.calls.length;
    const r = await deliverToDestination('weaviate-cloud', config(), { ...doc, elements: many.slice(0, 10) });
    assert.deepEqual(r, { written: 10, deleted: 650 });
    assert.equal(wv.calls.slice(before).filter((c) => c === 'grpc BatchDelete').length, 5, '4 rounds of up to 200, then an empty one');
  } finally {
    wv.maxDeleteResults = 10_000;
  }
  assert.equal(wv.objects('Elements').filter((o) => o.properties.record_id === documentRecordId('s', 'big.txt')).length, 10);
});
