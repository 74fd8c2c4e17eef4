// Astra DB destination through the registry and the official Data API client (astra-db-ts), against
// the local Data API stand-in: documents as the platform stages them, replace by deleteMany on
// record_id, collection creation, batching, throttling, refusals with the Data API's text.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { checkConnection, deliverToDestination, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId } from '../../../lambdas/connectors/records/ids';
import { startAstraStandIn, type AstraStandIn } from '../../../lambdas/connectors/astradb/test-server';
import { closedPort } from './helpers';
import { DIMS, element, elements, logSink, vec } from './vector-fixtures';
import { trustStandIns } from '../../support/stand-in-ca';

let astra: AstraStandIn;
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'astradb', { api_endpoint: astra.url, token: astra.token, collection_name: 'docs', ...over });
const mine = (sourceKey: string, collection = 'docs', keyspace?: string) =>
  astra.documents(collection, keyspace).filter((d) => d.record_id === documentRecordId('src', sourceKey));
const inserts = () => astra.requests.filter((r) => (r.body as any)?.insertMany);

let untrustStandIns: (() => void) | undefined;
before(async () => {
  untrustStandIns = trustStandIns();
  astra = await startAstraStandIn({ keyspaces: ['default_keyspace', 'ks2'] });
  astra.createCollection('docs', DIMS);
});
after(async () => {
  untrustStandIns?.();
  await astra?.stop();
});

test('check: findCollections with the token, the collection and a harmless deleteMany; failures carry the Data API text', async () => {
  const ok = await checkConnection('destination', 'astradb', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, 'collection docs in keyspace default_keyspace: vector dimension 384 (cosine); writes accepted');
  const find = astra.requests.find((r) => (r.body as any)?.findCollections)!;
  assert.equal(find.path, '/api/json/v1/default_keyspace');
  assert.equal(find.headers.token, astra.token);

  const absent = await checkConnection('destination', 'astradb', config({ collection_name: 'later', keyspace: 'ks2' }));
  assert.equal(absent.status, 'SUCCESS');
  assert.match(absent.reason!, /collection later does not exist in keyspace ks2 yet: the first write creates it/);
  assert.equal(astra.collection('later', 'ks2'), undefined, 'the check creates nothing');

  const badToken = await checkConnection('destination', 'astradb', config({ token: 'AstraCS:wrong-secret' }));
  assert.equal(badToken.status, 'FAILURE');
  assert.match(badToken.reason!, /UNAUTHENTICATED_REQUEST: Role unauthorized for operation/);
  assert.ok(!badToken.reason!.includes('wrong-secret'));

  const readOnly = await checkConnection('destination', 'astradb', config({ token: astra.readOnlyToken }));
  assert.equal(readOnly.status, 'FAILURE');
  assert.match(readOnly.reason!, /collection docs refused a delete: .*UNAUTHORIZED: Role unauthorized for operation: deleteMany/);

  const keyspace = await checkConnection('destination', 'astradb', config({ keyspace: 'nope' }));
  assert.equal(keyspace.status, 'FAILURE');
  assert.match(keyspace.reason!, /KEYSPACE_DOES_NOT_EXIST: Unknown keyspace 'nope'/);

  const down = await checkConnection('destination', 'astradb', config({ api_endpoint: `https://127.0.0.1:${await closedPort()}` }), { timeoutMs: 8000 });
  assert.equal(down.status, 'FAILURE');
  assert.match(down.reason!, /cannot reach 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  const notUrl = await checkConnection('destination', 'astradb', config({ api_endpoint: 'not a url' }));
  assert.equal(notUrl.status, 'FAILURE');
  assert.match(notUrl.reason!, /is not a URL/);
});

test('write: one document per element as the platform stages it; a rewrite replaces the file only', async () => {
  const orig = deflateSync(Buffer.from(JSON.stringify([{ type: 'Title', element_id: 'o1', text: 'dropped', metadata: { filename: 'a.txt', text_as_html: '<p/>', page_number: 1 } }]))).toString('base64');
  const first = await deliverToDestination('astradb', config(), { sourceId: 'src', sourceKey: 'a.txt', elements: [element(0, 'é'.repeat(5000), { orig_elements: orig }), ...elements(2).slice(1)] });
  assert.deepEqual(first, { written: 2, deleted: 0 });
  await deliverToDestination('astradb', config(), { sourceId: 'src', sourceKey: 'b.txt', elements: elements(1, 'other') });
  const second = await deliverToDestination('astradb', config(), { sourceId: 'src', sourceKey: 'a.txt', elements: [element(0, 'é'.repeat(5000), { orig_elements: orig })] });
  assert.deepEqual(second, { written: 1, deleted: 2 });

  const docs = mine('a.txt');
  assert.equal(docs.length, 1);
  assert.equal(mine('b.txt').length, 1, 'b.txt untouched');
  const d = docs[0]!;
  assert.match(d._id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(Buffer.byteLength(String(d.content)), 8000, 'content cut to 8000 bytes on a character boundary');
  assert.equal(d.vectorEncoding, 'binary', 'binary_encode_vectors defaults to true');
  assert.equal(d.$vector!.length, DIMS);
  assert.ok(Math.abs(d.$vector![1]! - vec(0)[1]!) < 1e-6);
  const md = d.metadata as any;
  assert.deepEqual(Object.keys(md).sort(), ['element_id', 'metadata', 'type']);
  assert.equal(md.type, 'Title');
  assert.equal(md.metadata.filename, 'a.txt');
  assert.equal('orig_elements' in md.metadata, false);
  assert.deepEqual(md.metadata.original_elements, [{ type: 'Title', element_id: 'o1', metadata: { filename: 'a.txt', page_number: 1 } }]);

  assert.equal(await removeDocumentRecords('astradb', config(), { sourceId: 'src', sourceKey: 'b.txt' }), 1);
  assert.equal(mine('b.txt').length, 0);
});

test('flatten_metadata and binary_encode_vectors=false shape the document as the platform does', async () => {
  await deliverToDestination('astradb', config({ flatten_metadata: true, binary_encode_vectors: false }), { sourceId: 'src', sourceKey: 'flat.txt', elements: elements(1) });
  const d = mine('flat.txt')[0]!;
  assert.equal(d.vectorEncoding, 'array');
  assert.deepEqual(d.$vector, vec(0));
  const md = d.metadata as any;
  assert.equal(md.filename, 'a.txt');
  assert.equal(md.type, 'Title');
  assert.equal('metadata' in md, false);
});

test('an absent collection is created with the embeddings dimension (cosine) in the configured keyspace', async () => {
  const r = await deliverToDestination('astradb', config({ collection_name: 'fresh', keyspace: 'ks2' }), { sourceId: 'src', sourceKey: 'f.txt', elements: elements(3) });
  assert.equal(r.written, 3);
  assert.deepEqual(astra.collection('fresh', 'ks2'), { dimension: DIMS, metric: 'cosine' });
  assert.equal(mine('f.txt', 'fresh', 'ks2').length, 3);
});

test('batches honour batch_size; 429 with Retry-After and 500 are retried without duplicates', async () => {
  const sink = logSink();
  const before = inserts().length;
  const isInsert = (q: { body: unknown }) => Boolean((q.body as any)?.insertMany);
  astra.fail({ status: 429, body: 'rate limited', headers: { 'retry-after': '1' }, match: isInsert });
  astra.fail({ status: 500, body: 'internal error', match: isInsert });
  const r = await deliverToDestination('astradb', config({ batch_size: 2 }), { sourceId: 'src', sourceKey: 'batched.txt', elements: elements(5) }, { log: sink.log });
  assert.equal(r.written, 5);
  const sent = inserts().slice(before);
  assert.equal(sent.length, 5, 'three batches plus two retried attempts');
  assert.deepEqual(sent.map((q) => (q.body as any).insertMany.documents.length).sort(), [1, 2, 2, 2, 2]);
  const retries = sink.lines.filter((l) => l.msg === 'astra insertMany retried');
  assert.equal(retries.length, 2);
  assert.ok(retries.some((l) => l.fields!.delayMs === 1000), `Retry-After honoured: ${JSON.stringify(retries)}`);
  assert.ok(retries.some((l) => /HTTP 500: internal error/.test(String(l.fields!.error))));
  assert.equal(mine('batched.txt').length, 5);
});

test('a document the collection refuses fails the file with the Data API\'s message', async () => {
  await assert.rejects(
    deliverToDestination('astradb', config(), { sourceId: 'src', sourceKey: 'bad.txt', elements: [element(0, 'short', {}, 3)] }),
    /insertMany into collection docs failed: Astra DB refused: VECTOR_SIZE_MISMATCH: Length of vector parameter different from declared '\$vector' dimension: expected 384, got 3/,
  );
  await assert.rejects(
    deliverToDestination('astradb', config(), { sourceId: 'src', sourceKey: 'none.txt', elements: [{ ...element(0, 'x'), embeddings: undefined }] }),
    /no element has embeddings: add an embed node/,
  );
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS: refused before any request reaches the host', async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  const seen = astra.requests.length;
  try {
    const r = await checkConnection('destination', 'astradb', config());
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /resolves to a private network address \(127\.0\.0\.1\)/);
    await assert.rejects(deliverToDestination('astradb', config(), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(1) }), /private network address/);
    assert.equal(astra.requests.length, seen);
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});
