// Elasticsearch and OpenSearch destinations through the registry, with the official clients
// talking HTTPS (trusted through CONNECTOR_CA_FILE) to a stand-in cluster that keeps what it receives (lambdas/connectors/elasticsearch/
// test-server.ts): records as the platform stages them, replace by record_id (one copy after N
// writes), batches by count and bytes, 429s retried (Retry-After honoured), a refused record fails
// the write with the store's reason, checks that prove credentials and the index, SigV4 verified.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConnection, deliverToDestination, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId, enhancedElementId } from '../../../lambdas/connectors/records/ids';
import { indexBody } from '../../../lambdas/connectors/elasticsearch/stage';
import { startSearchStandIn, type SearchStandIn } from '../../../lambdas/connectors/elasticsearch/test-server';
import { closedPort } from './helpers';
import { standInFetch, trustStandIns } from '../../support/stand-in-ca';

const KEY = 'VnVhQ2ZHY0JDZGJrUW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw==';
const READER = 'cmVhZGVyOnJlYWRvbmx5';
let es: SearchStandIn;
let os: SearchStandIn;
let osIam: SearchStandIn;
let untrust: (() => void) | undefined;
const AWS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'eu-west-1', service: 'es' };

const vec = (seed: number, dims = 384) => Array.from({ length: dims }, (_, i) => Math.round(Math.sin(seed + i) * 1e6) / 1e6);
const element = (i: number, text: string, dims = 384) => ({
  type: i === 0 ? 'Title' : 'NarrativeText',
  element_id: `el-${i}`,
  text,
  metadata: { filename: 'a.txt', filetype: 'text/plain', languages: ['eng'], page_number: 1, data_source: { url: 's3://b/a.txt', record_locator: { path: 'a.txt' } } },
  embeddings: vec(i, dims),
});
const esConfig = (over: Record<string, unknown> = {}) => validateConfig('destination', 'elasticsearch', { hosts: [es.url], index_name: 'elements', es_api_key: KEY, ...over });
const osConfig = (over: Record<string, unknown> = {}) => validateConfig('destination', 'opensearch', { hosts: [os.url], index_name: 'elements', username: 'writer', password: 'w-secret-pw', ...over });

before(async () => {
  untrust = trustStandIns(); // the stand-ins serve TLS: credentials go over TLS only
  es = await startSearchStandIn({ dialect: 'elasticsearch', apiKeys: { [KEY]: ['all'], [READER]: ['read', 'view_index_metadata'] } });
  os = await startSearchStandIn({ dialect: 'opensearch', users: { writer: { password: 'w-secret-pw', write: true }, reader: { password: 'r-pw', write: false } } });
  osIam = await startSearchStandIn({ dialect: 'opensearch', aws: [AWS] });
});
after(async () => {
  untrust?.();
  await Promise.all([es?.stop(), os?.stop(), osIam?.stop()]);
});

test('config: hosts and index names the stores accept, batch ranges, AWS keys in pairs (422 items)', () => {
  const loc = (e: any) => e.issues.map((i: any) => i.loc.join('.'));
  assert.throws(() => esConfig({ index_name: 'Elements' }), (e: any) => loc(e).includes('body.config.index_name') || loc(e).includes('config.index_name'));
  assert.throws(() => esConfig({ hosts: ['https://elastic:pw@es.example.com'] }), (e: any) => /credentials in the URL/.test(JSON.stringify(e.issues)));
  assert.throws(() => esConfig({ batch_size: 0 }), (e: any) => JSON.stringify(e.issues).includes('batch_size'));
  assert.throws(() => osConfig({ aws_access_key_id: 'AKID' }), (e: any) => JSON.stringify(e.issues).includes('aws_secret_access_key'));
  assert.equal(esConfig({ hosts: ['es.example.com'] }).index_name, 'elements');
});

test('elasticsearch check: missing index fails naming what to create; an existing index and the key privileges pass', async () => {
  const missing = await checkConnection('destination', 'elasticsearch', esConfig({ index_name: 'absent' }));
  assert.equal(missing.status, 'FAILURE');
  assert.match(missing.reason!, /index absent not found in Elasticsearch: create it first .*dense_vector/);
  es.indices.clear();
  await (await standInFetch(`${es.url}/elements`, { method: 'PUT', headers: { authorization: `ApiKey ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(indexBody('elasticsearch', 384)) })).text();
  const ok = await checkConnection('destination', 'elasticsearch', esConfig());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, 'index elements: embeddings dense_vector(384), record_id keyword; the API key may index, delete and read');
  const reader = await checkConnection('destination', 'elasticsearch', esConfig({ es_api_key: READER }));
  assert.equal(reader.status, 'FAILURE');
  assert.match(reader.reason!, /the API key lacks the index, delete privilege on index elements/);
  const bad = await checkConnection('destination', 'elasticsearch', esConfig({ es_api_key: 'bm9wZTpub3Bl-wrong-key' }));
  assert.equal(bad.status, 'FAILURE');
  assert.match(bad.reason!, /Elasticsearch answered HTTP 401: security_exception: unable to authenticate with provided credentials/);
  assert.ok(!bad.reason!.includes('bm9wZTpub3Bl-wrong-key'), 'the key is not in the reason');
  const port = await closedPort();
  const down = await checkConnection('destination', 'elasticsearch', esConfig({ hosts: [`https://127.0.0.1:${port}`] }), { timeoutMs: 5000 });
  assert.equal(down.status, 'FAILURE');
  assert.match(down.reason!, /cannot reach Elasticsearch: .*ECONNREFUSED/);
});

test('elasticsearch write: platform record shape, created index sized to the vectors, rewrite replaces by record_id', async () => {
  es.indices.clear();
  const doc = { sourceId: 'src', sourceKey: 'a.txt' };
  const rid = documentRecordId('src', 'a.txt');
  const first = await deliverToDestination('elasticsearch', esConfig({ index_name: 'fresh' }), { ...doc, elements: [element(0, 'Title'), element(1, 'One'), element(2, 'Two')] });
  assert.deepEqual(first, { written: 3, deleted: 0 });
  assert.deepEqual(es.indices.get('fresh')!.mappings.properties.embeddings, { type: 'dense_vector', dims: 384, index: true, similarity: 'cosine' });
  assert.equal(es.indices.get('fresh')!.mappings.properties.record_id.type, 'keyword');
  await deliverToDestination('elasticsearch', esConfig({ index_name: 'fresh' }), { sourceId: 'src', sourceKey: 'b.txt', elements: [element(0, 'Other')] });

  const second = await deliverToDestination('elasticsearch', esConfig({ index_name: 'fresh' }), { ...doc, elements: [element(0, 'Title'), element(1, 'One, edited')] });
  assert.deepEqual(second, { written: 2, deleted: 1 }, 'the element the new copy lacks is removed; the others are overwritten in place');
  const mine = es.docs('fresh').filter((d) => d.record_id === rid);
  assert.deepEqual(mine.map((d) => d.text).sort(), ['One, edited', 'Title']);
  const title = mine.find((d) => d.text === 'Title')!;
  assert.equal(title._id, enhancedElementId('el-0', rid));
  assert.deepEqual(Object.keys(title).sort(), ['_id', 'element_id', 'embeddings', 'metadata', 'record_id', 'text', 'type']);
  assert.equal(title.type, 'Title');
  assert.equal(title.embeddings.length, 384);
  assert.deepEqual(title.metadata, { filename: 'a.txt', filetype: 'text/plain', languages: ['eng'], page_number: 1, 'data_source-url': 's3://b/a.txt', 'data_source-record_locator-path': 'a.txt' });
  assert.equal(es.docs('fresh').length, 3, 'two of a.txt, one of b.txt');
  const del = es.requests.filter((r) => r.path === '/fresh/_delete_by_query').at(-1)!;
  assert.deepEqual(del.body.query.bool.filter, [{ match_phrase: { record_id: rid } }]);
  assert.equal(del.body.query.bool.must_not[0].ids.values.length, 2);

  assert.equal(await removeDocumentRecords('elasticsearch', esConfig({ index_name: 'fresh' }), { sourceId: 'src', sourceKey: 'b.txt' }), 1);
  assert.equal(es.docs('fresh').length, 2);
});

test("a user's index with record_id as text (the platform docs' example) is replaced exactly, sparing look-alike records", async () => {
  es.indices.clear();
  es.indices.set('docs', { mappings: { properties: { record_id: { type: 'text' } } }, settings: {}, docs: new Map() });
  const rid = documentRecordId('s', 'x.txt');
  // A foreign document sharing one token of the uuid: the platform's old `match` delete hit it.
  const lookAlike = `${rid.split('-')[0]}-0000-0000-0000-000000000000`;
  es.indices.get('docs')!.docs.set('foreign', { record_id: lookAlike, text: 'not ours' });
  for (let run = 0; run < 3; run++) await deliverToDestination('elasticsearch', esConfig({ index_name: 'docs' }), { sourceId: 's', sourceKey: 'x.txt', elements: run === 2 ? [element(0, 'A')] : [element(0, 'A'), element(1, 'B')] });
  assert.deepEqual(es.docs('docs').map((d) => d.text).sort(), ['A', 'not ours']);
});

test('batches honour batch_size and batch_size_bytes; concurrency bounded by num_threads', async () => {
  es.indices.clear();
  const els = Array.from({ length: 23 }, (_, i) => element(i, `text ${i}`, 8));
  const before = es.requests.length;
  es.bulkDelayMs = 100;
  es.peakBulkInFlight = 0;
  await deliverToDestination('elasticsearch', esConfig({ index_name: 'b1', batch_size: 5, num_threads: 2 }), { sourceId: 's', sourceKey: 'n.txt', elements: els });
  es.bulkDelayMs = 0;
  assert.equal(es.peakBulkInFlight, 2, 'two requests in flight, never more');
  const sizes = es.requests.slice(before).filter((r) => r.path === '/_bulk').map((r) => r.body.trim().split('\n').length / 2);
  assert.deepEqual(sizes.sort(), [3, 5, 5, 5, 5]);
  const before2 = es.requests.length;
  await deliverToDestination('elasticsearch', esConfig({ index_name: 'b2', batch_size: 500, batch_size_bytes: 2_000 }), { sourceId: 's', sourceKey: 'n.txt', elements: els });
  const bodies = es.requests.slice(before2).filter((r) => r.path === '/_bulk').map((r) => Buffer.byteLength(r.body));
  assert.ok(bodies.length > 3, `several requests (${bodies.length})`);
  assert.ok(bodies.every((b) => b <= 2_000 + 600), `each request near the byte budget: ${bodies.join(',')}`);
  assert.equal(es.docs('b2').length, 23);
});

test('throttling: a 429 request with Retry-After and 429 items are retried; a refused record fails with the store reason', async () => {
  es.indices.clear();
  const cfg = esConfig({ index_name: 'thr' });
  es.inject(/^POST \/_bulk$/, { status: 429, headers: { 'retry-after': '1' }, body: { error: { type: 'es_rejected_execution_exception', reason: 'rejected execution' }, status: 429 } }, 1);
  es.rejectItems(429, 2);
  const t0 = Date.now();
  const r = await deliverToDestination('elasticsearch', cfg, { sourceId: 's', sourceKey: 't.txt', elements: [element(0, 'A'), element(1, 'B'), element(2, 'C')] });
  assert.equal(r.written, 3);
  assert.ok(Date.now() - t0 >= 900, 'waited for Retry-After');
  assert.equal(es.docs('thr').length, 3);

  await assert.rejects(
    deliverToDestination('elasticsearch', cfg, { sourceId: 's', sourceKey: 'u.txt', elements: [element(0, 'ok'), element(1, 'short vector', 3)] }),
    /Elasticsearch refused 1 of 2 records; first: element el-1 .*HTTP 400 document_parsing_exception: .*different number of dimensions \[3\] than defined in the mapping \[384\]/,
  );
});

test('opensearch: basic auth check, knn_vector index created, rewrite replaces; read-only user and bad password fail with the reason', async () => {
  const missing = await checkConnection('destination', 'opensearch', osConfig());
  assert.equal(missing.status, 'FAILURE');
  assert.match(missing.reason!, /index elements not found in OpenSearch: create it first .*knn_vector/);
  const doc = { sourceId: 'src', sourceKey: 'a.txt', elements: [element(0, 'A'), element(1, 'B')] };
  assert.deepEqual(await deliverToDestination('opensearch', osConfig(), doc), { written: 2, deleted: 0 });
  const idx = os.indices.get('elements')!;
  assert.deepEqual(idx.settings, { index: { knn: true } });
  assert.deepEqual(idx.mappings.properties.embeddings, { type: 'knn_vector', dimension: 384 });
  assert.deepEqual(await deliverToDestination('opensearch', osConfig(), { ...doc, elements: [element(0, 'A')] }), { written: 1, deleted: 1 });
  assert.deepEqual(os.docs('elements').map((d) => d.text), ['A']);

  const ok = await checkConnection('destination', 'opensearch', osConfig());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, 'index elements: embeddings knn_vector(384), record_id keyword; delete_by_query allowed (basic auth as writer)');
  const reader = await checkConnection('destination', 'opensearch', osConfig({ username: 'reader', password: 'r-pw' }));
  assert.equal(reader.status, 'FAILURE');
  assert.match(reader.reason!, /OpenSearch answered HTTP 403: security_exception: no permissions for \[indices:data\/write\/delete\/byquery\] and User \[name=reader/);
  const bad = await checkConnection('destination', 'opensearch', osConfig({ password: 'wrong-password-1' }));
  assert.equal(bad.status, 'FAILURE');
  assert.match(bad.reason!, /OpenSearch answered HTTP 401: Unauthorized/);
  assert.ok(!bad.reason!.includes('wrong-password-1'));
  await assert.rejects(deliverToDestination('opensearch', osConfig({ username: 'reader', password: 'r-pw' }), doc), /OpenSearch refused 2 of 2 records; first: .*HTTP 403 security_exception/);
});

test('opensearch SigV4: requests signed with the tenant keys (verified by the stand-in); wrong secret refused', async () => {
  const cfg = (over: Record<string, unknown> = {}) =>
    validateConfig('destination', 'opensearch', { hosts: [osIam.url], index_name: 'iam', aws_access_key_id: AWS.accessKeyId, aws_secret_access_key: AWS.secretAccessKey, aws_region: 'eu-west-1', aws_service: 'es', ...over });
  assert.deepEqual(await deliverToDestination('opensearch', cfg(), { sourceId: 's', sourceKey: 'a.txt', elements: [element(0, 'A')] }), { written: 1, deleted: 0 });
  assert.equal(osIam.docs('iam').length, 1);
  const ok = await checkConnection('destination', 'opensearch', cfg());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.match(ok.reason!, /\(SigV4\)$/);
  const wrong = await checkConnection('destination', 'opensearch', cfg({ aws_secret_access_key: 'not-the-secret-key' }));
  assert.equal(wrong.status, 'FAILURE');
  assert.match(wrong.reason!, /OpenSearch answered HTTP 403: The request signature we calculated does not match/);
  assert.ok(!wrong.reason!.includes('not-the-secret-key'));
  const noRegion = await checkConnection('destination', 'opensearch', cfg({ aws_region: null }));
  assert.equal(noRegion.status, 'FAILURE');
  assert.match(noRegion.reason!, /cannot tell the AWS region of 127\.0\.0\.1:\d+ for SigV4/);
});

test('OpenSearch Serverless (aoss): no _delete_by_query, so the rewrite pages a search and bulk-deletes; the check probes a write', async () => {
  const key = { ...AWS, service: 'aoss' };
  const aoss = await startSearchStandIn({ dialect: 'opensearch', aws: [key], serverless: true });
  try {
    const cfg = validateConfig('destination', 'opensearch', { hosts: [aoss.url], index_name: 'vectors', aws_access_key_id: key.accessKeyId, aws_secret_access_key: key.secretAccessKey, aws_region: key.region, aws_service: 'aoss' });
    const doc = { sourceId: 's', sourceKey: 'a.txt' };
    assert.deepEqual(await deliverToDestination('opensearch', cfg, { ...doc, elements: [element(0, 'A'), element(1, 'B'), element(2, 'C')] }), { written: 3, deleted: 0 });
    assert.deepEqual(await deliverToDestination('opensearch', cfg, { ...doc, elements: [element(0, 'A')] }), { written: 1, deleted: 2 });
    assert.deepEqual(aoss.docs('vectors').map((d) => d.text), ['A']);
    assert.ok(!aoss.requests.some((r) => r.path.endsWith('/_delete_by_query')), 'no _delete_by_query sent');
    const ok = await checkConnection('destination', 'opensearch', cfg);
    assert.equal(ok.status, 'SUCCESS', ok.reason);
    assert.match(ok.reason!, /writes allowed \(SigV4, serverless\)$/);
  } finally {
    await aoss.stop();
  }
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS: a cluster on a private address is refused before any request', async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  const seen = es.requests.length + os.requests.length;
  try {
    const r = await checkConnection('destination', 'elasticsearch', esConfig());
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /resolves to a private network address \(127\.0\.0\.1\)/);
    await assert.rejects(deliverToDestination('opensearch', osConfig(), { sourceId: 's', sourceKey: 'p.txt', elements: [element(0, 'A')] }), /private network address/);
    assert.equal(es.requests.length + os.requests.length, seen, 'nothing reached the stand-ins');
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});
