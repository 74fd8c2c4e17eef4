// Pinecone destination through the registry and the official client, against the local REST
// stand-in (control plane + data plane): vectors as the platform stages them, replace by id prefix
// (serverless) or record_id filter (pod), index creation, batching, throttling, refusals.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConnection, deliverToDestination, outputConfig, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId } from '../../../lambdas/connectors/records/ids';
import { startPineconeStandIn, type PineconeStandIn } from '../../../lambdas/connectors/pinecone/test-server';
import { closedPort } from './helpers';
import { DIMS, element, elements, logSink, vec } from './vector-fixtures';

let pc: PineconeStandIn;
const saved = process.env.PINECONE_CONTROLLER_HOST;
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'pinecone', { api_key: pc.apiKey, index_name: 'docs', namespace: 'kb', batch_size: 50, ...over });
const upserts = (index: string) => pc.requests.filter((r) => r.method === 'POST' && r.path === `/data/${index}/vectors/upsert`);

before(async () => {
  pc = await startPineconeStandIn();
  process.env.PINECONE_CONTROLLER_HOST = pc.url;
  pc.createIndex('docs', DIMS);
});
after(async () => {
  if (saved === undefined) delete process.env.PINECONE_CONTROLLER_HOST;
  else process.env.PINECONE_CONTROLLER_HOST = saved;
  await pc?.stop();
});

test('config: the platform fields, batch_size ≥ 1, api_key masked in responses', () => {
  assert.throws(() => validateConfig('destination', 'pinecone', { api_key: 'k', index_name: 'i', namespace: 'n', batch_size: 0 }), (e: any) =>
    e.issues.some((i: any) => i.loc.join('.') === 'body.config.batch_size'));
  assert.throws(() => validateConfig('destination', 'pinecone', { api_key: 'k', index_name: ' ', namespace: 'n' }), (e: any) =>
    e.issues.some((i: any) => i.loc.join('.') === 'body.config.index_name'));
  const c = validateConfig('destination', 'pinecone', { api_key: 'secret-key', index_name: 'i', namespace: '' });
  assert.equal(c.batch_size, 50);
  assert.equal(outputConfig('destination', 'pinecone', c).api_key, '**********');
});

test('check: the key and the index through describe_index and describe_index_stats; failures carry the reason', async () => {
  const ok = await checkConnection('destination', 'pinecone', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.match(ok.reason!, /index docs: serverless, dimension 384, cosine, ready; namespace "kb" holds \d+ vectors/);
  assert.ok(pc.requests.some((r) => r.path === '/data/docs/describe_index_stats'), 'the data plane was asked');

  const absent = await checkConnection('destination', 'pinecone', config({ index_name: 'Not_There' }));
  assert.equal(absent.status, 'SUCCESS');
  assert.match(absent.reason!, /index not-there does not exist yet: the first write creates it/);

  const badKey = await checkConnection('destination', 'pinecone', config({ api_key: 'wrong-secret' }));
  assert.equal(badKey.status, 'FAILURE');
  assert.match(badKey.reason!, /rejected the API key \(HTTP 401\)/);
  assert.ok(!badKey.reason!.includes('wrong-secret'));

  process.env.PINECONE_CONTROLLER_HOST = `http://127.0.0.1:${await closedPort()}`;
  try {
    const down = await checkConnection('destination', 'pinecone', config(), { timeoutMs: 8000 });
    assert.equal(down.status, 'FAILURE');
    assert.match(down.reason!, /cannot reach 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  } finally {
    process.env.PINECONE_CONTROLLER_HOST = pc.url;
  }
});

test('write: one vector per element, ids <record_id>#<uuid5>, platform metadata; a rewrite replaces the document only', async () => {
  const doc = { sourceId: 'src', sourceKey: 'a.txt' };
  const other = { sourceId: 'src', sourceKey: 'b.txt' };
  const rid = documentRecordId('src', 'a.txt');
  const first = await deliverToDestination('pinecone', config(), { ...doc, elements: elements(3) });
  assert.deepEqual(first, { written: 3, deleted: 0 });
  await deliverToDestination('pinecone', config(), { ...other, elements: elements(1, 'other') });
  const second = await deliverToDestination('pinecone', config(), { ...doc, elements: [element(0, 'text 0'), element(5, 'new', { links: [{ text: 'x', url: 'u' }], emphasized_text_contents: ['a', 'b'] })] });
  assert.deepEqual(second, { written: 2, deleted: 3 });

  const mine = pc.vectors('docs', 'kb').filter((v) => v.id.startsWith(`${rid}#`));
  assert.equal(mine.length, 2);
  assert.equal(pc.vectors('docs', 'kb').length, 3, 'b.txt untouched');
  for (const v of mine) {
    assert.match(v.id, new RegExp(`^${rid}#[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`));
    assert.equal(v.values.length, DIMS);
    assert.equal(v.metadata!.record_id, rid);
  }
  const title = mine.find((v) => v.metadata!.text === 'text 0')!;
  assert.deepEqual(title.values.slice(0, 3), vec(0).slice(0, 3));
  assert.deepEqual(title.metadata, { element_id: 'el-0-6', text: 'text 0', type: 'Title', filename: 'a.txt', page_number: 1, record_id: rid });
  const flat = mine.find((v) => v.metadata!.text === 'new')!;
  assert.equal(flat.metadata!['emphasized_text_contents-0'], 'a', 'lists flattened with "-" as the platform does');
  assert.equal(flat.metadata!['emphasized_text_contents-1'], 'b');
  assert.equal('links' in flat.metadata!, false, 'only the platform fields are kept');

  assert.equal(await removeDocumentRecords('pinecone', config(), other), 1);
  assert.equal(pc.vectors('docs', 'kb').length, 2);
});

test('serverless replace pages through every listed id (more than one page of 100)', async () => {
  const doc = { sourceId: 's', sourceKey: 'long.pdf' };
  const rid = documentRecordId('s', 'long.pdf');
  await deliverToDestination('pinecone', config({ batch_size: 100 }), { ...doc, elements: elements(250, 'long') });
  const r = await deliverToDestination('pinecone', config(), { ...doc, elements: elements(10, 'short') });
  assert.deepEqual(r, { written: 10, deleted: 250 });
  assert.equal(pc.vectors('docs', 'kb').filter((v) => v.id.startsWith(`${rid}#`)).length, 10);
  const lists = pc.requests.filter((q) => q.path === '/data/docs/vectors/list' && q.query.get('prefix') === `${rid}#`);
  assert.ok(lists.length >= 3, `${lists.length} list pages`);
});

test('pod index: the document is replaced through a record_id metadata filter', async () => {
  pc.createIndex('pods', DIMS, 'pod');
  const cfg = config({ index_name: 'pods' });
  const doc = { sourceId: 's', sourceKey: 'p.pdf' };
  await deliverToDestination('pinecone', cfg, { ...doc, elements: elements(4) });
  const r = await deliverToDestination('pinecone', cfg, { ...doc, elements: elements(2) });
  assert.equal(r.written, 2);
  assert.equal(pc.vectors('pods', 'kb').length, 2);
  const del = pc.requests.filter((q) => q.path === '/data/pods/vectors/delete').at(-1)!;
  assert.deepEqual(del.body, { filter: { record_id: { $eq: documentRecordId('s', 'p.pdf') } }, namespace: 'kb' });
  assert.equal(pc.requests.some((q) => q.path === '/data/pods/vectors/list'), false, 'list is serverless-only');
});

test('an absent index is created (serverless, cosine, the embeddings dimension) before the first write', async () => {
  const r = await deliverToDestination('pinecone', config({ index_name: 'Auto_Made' }), { sourceId: 's', sourceKey: 'c.txt', elements: elements(2) });
  assert.equal(r.written, 2);
  const create = pc.requests.find((q) => q.method === 'POST' && q.path === '/indexes')!;
  assert.deepEqual(create.body, { name: 'auto-made', dimension: DIMS, metric: 'cosine', spec: { serverless: { cloud: 'aws', region: 'us-east-1' } } });
  assert.equal(pc.dimensionOf('auto-made'), DIMS);
  assert.equal(pc.vectors('auto-made', 'kb').length, 2);
});

test('files racing to create the same index: one create wins, both wait until it is ready, both are written', async () => {
  pc.createIndexesInitializing(3);
  // both writers find the index absent before either creates it (the race, whatever the machine's load)
  pc.gatherDescribes('raced', 2);
  try {
    const cfg = config({ index_name: 'raced' });
    const [a, b] = await Promise.all([
      deliverToDestination('pinecone', cfg, { sourceId: 's', sourceKey: 'r1.txt', elements: elements(3) }),
      deliverToDestination('pinecone', cfg, { sourceId: 's', sourceKey: 'r2.txt', elements: elements(2) }),
    ]);
    assert.deepEqual([a.written, b.written], [3, 2]);
    assert.equal(pc.requests.filter((q) => q.method === 'POST' && q.path === '/indexes' && (q.body as any).name === 'raced').length, 2, 'both tried; the second got 409');
    assert.equal(pc.vectors('raced', 'kb').length, 5);
  } finally {
    pc.createIndexesInitializing(0);
  }
});

test('batches honour batch_size; 429 with Retry-After and 503 are retried', async () => {
  const before = upserts('docs').length;
  const sink = logSink();
  pc.fail({ status: 429, body: { code: 8, message: 'Too many requests' }, headers: { 'retry-after': '1' }, match: (q) => q.path.endsWith('/vectors/upsert') });
  pc.fail({ status: 503, body: 'upstream unavailable', match: (q) => q.path.endsWith('/vectors/upsert') });
  const r = await deliverToDestination('pinecone', config({ batch_size: 2 }), { sourceId: 's', sourceKey: 'batched.txt', elements: elements(5) }, { log: sink.log });
  assert.equal(r.written, 5);
  const sent = upserts('docs').slice(before);
  assert.equal(sent.length, 5, 'three batches plus two retried attempts');
  const ok = sent.filter((q) => Array.isArray((q.body as any).vectors)).map((q) => (q.body as any).vectors.length);
  assert.deepEqual([...ok].sort(), [1, 2, 2, 2, 2]);
  const retries = sink.lines.filter((l) => l.msg === 'pinecone upsert retried');
  assert.equal(retries.length, 2);
  assert.ok(retries.some((l) => l.fields!.delayMs === 1000), `Retry-After honoured: ${JSON.stringify(retries)}`);
  assert.ok(retries.some((l) => /HTTP 503: upstream unavailable/.test(String(l.fields!.error))));
  assert.equal(pc.vectors('docs', 'kb').filter((v) => v.metadata!.record_id === documentRecordId('s', 'batched.txt')).length, 5);
});

test('a vector the index refuses fails the document with Pinecone\'s message', async () => {
  await assert.rejects(
    deliverToDestination('pinecone', config(), { sourceId: 's', sourceKey: 'bad.txt', elements: [element(0, 'short vector', {}, 3)] }),
    /upsert into index docs failed: Pinecone refused the request: Vector dimension 3 does not match the dimension of the index 384/,
  );
  await assert.rejects(
    deliverToDestination('pinecone', config(), { sourceId: 's', sourceKey: 'none.txt', elements: [{ ...element(0, 'x'), embeddings: undefined }] }),
    /no element has embeddings: add an embed node/,
  );
});

test('metadata above 40 KB is dropped (record_id kept), as the platform does', async () => {
  const big = element(1, 'y'.repeat(50_000));
  await deliverToDestination('pinecone', config(), { sourceId: 's', sourceKey: 'big.txt', elements: [big] });
  const rid = documentRecordId('s', 'big.txt');
  const v = pc.vectors('docs', 'kb').find((x) => x.id.startsWith(`${rid}#`))!;
  assert.deepEqual(v.metadata, { record_id: rid });
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS: refused before any request reaches the host', async () => {
  const savedDeny = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  const seen = pc.requests.length;
  try {
    const r = await checkConnection('destination', 'pinecone', config());
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /resolves to a private network address \(127\.0\.0\.1\)/);
    await assert.rejects(deliverToDestination('pinecone', config(), { sourceId: 's', sourceKey: 'a.txt', elements: elements(1) }), /private network address/);
    assert.equal(pc.requests.length, seen);
  } finally {
    if (savedDeny === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = savedDeny;
  }
});
