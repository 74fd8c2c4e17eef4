// Elasticsearch and OpenSearch sources through the registry and the official clients, against the
// HTTPS stand-in cluster (trusted through CONNECTOR_CA_FILE) (lambdas/connectors/elasticsearch/test-server.ts): a scroll over the whole
// index in pages of batch_size, one text document per hit as the platform's downloader writes it,
// the store's _version as version, 429 with Retry-After retried, the store's refusals, and the
// outbound policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConnection, listSourceObjects, outputConfig, readSourceObject, validateConfig } from '../../../lambdas/connectors/registry';
import { startSearchStandIn, type SearchStandIn } from '../../../lambdas/connectors/elasticsearch/test-server';
import { collect, untext } from './helpers';
import { standInFetch, trustStandIns } from '../../support/stand-in-ca';

const KEY = 'c3JjLWtleTpzZWNyZXQtdmFsdWU=';
const NOREAD = 'bm9yZWFkOnNlY3JldA==';
let es: SearchStandIn;
let os: SearchStandIn;
let untrust: (() => void) | undefined;

const esConfig = (over: Record<string, unknown> = {}) => validateConfig('source', 'elasticsearch', { hosts: [es.url], es_api_key: KEY, index_name: 'articles', batch_size: 3, ...over });
const osConfig = (over: Record<string, unknown> = {}) => validateConfig('source', 'opensearch', { hosts: [os.url], username: 'reader', password: 'os-secret-pw', index_name: 'articles', batch_size: 3, ...over });

/** Writes documents through the store's _bulk API (so _version moves as it does on a cluster). */
async function bulk(stand: SearchStandIn, auth: string, docs: Record<string, Record<string, unknown>>) {
  const lines = Object.entries(docs).flatMap(([id, d]) => [JSON.stringify({ index: { _index: 'articles', _id: id } }), JSON.stringify(d)]);
  const res = await standInFetch(`${stand.url}/_bulk`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/x-ndjson' }, body: lines.join('\n') + '\n' });
  assert.equal(res.status, 200);
}

const seed = Object.fromEntries(
  Array.from({ length: 8 }, (_, i) => [`doc-${i}`, { title: `Article ${i}`, body: `Body text ${i}`, meta: { author: 'Ann', tags: ['x', 'y'] }, views: i * 10 }]),
);

before(async () => {
  untrust = trustStandIns(); // the stand-ins serve TLS: credentials go over TLS only
  es = await startSearchStandIn({ dialect: 'elasticsearch', apiKeys: { [KEY]: ['read', 'index'], [NOREAD]: ['index'] } });
  os = await startSearchStandIn({ dialect: 'opensearch', users: { reader: { password: 'os-secret-pw', write: true } } });
  await bulk(es, `ApiKey ${KEY}`, seed);
  await bulk(os, `Basic ${Buffer.from('reader:os-secret-pw').toString('base64')}`, seed);
});
after(async () => {
  untrust?.();
  await es?.stop();
  await os?.stop();
});

for (const [type, stand, config] of [
  ['elasticsearch', () => es, esConfig],
  ['opensearch', () => os, osConfig],
] as const) {
  test(`${type}: check counts the index with the credentials; a missing index and bad credentials fail with the store's text`, async () => {
    const ok = await checkConnection('source', type, config());
    assert.equal(ok.status, 'SUCCESS', ok.reason);
    assert.equal(ok.reason, 'index articles: 8 documents');
    const missing = await checkConnection('source', type, config({ index_name: 'nope' }));
    assert.equal(missing.status, 'FAILURE');
    assert.match(missing.reason!, /index nope not found in (Elasticsearch|OpenSearch): .*HTTP 404: index_not_found_exception: no such index \[nope\]/);
    const bad = await checkConnection('source', type, type === 'elasticsearch' ? config({ es_api_key: 'd3Jvbmc6a2V5' }) : config({ password: 'wrong-pw-77' }));
    assert.equal(bad.status, 'FAILURE');
    assert.match(bad.reason!, /HTTP 401/);
    for (const r of [missing, bad]) assert.ok(!r.reason!.includes('wrong-pw-77') && !r.reason!.includes('d3Jvbmc6a2V5') && !r.reason!.includes(KEY));
    if (type === 'opensearch') assert.equal(outputConfig('source', type, config()).password, '**********');
    else assert.equal(outputConfig('source', type, config()).es_api_key, '**********');
  });

  test(`${type}: list scrolls the whole index in pages of batch_size and clears the scroll; filename, version, record locator`, async () => {
    const n = stand().requests.length;
    const objs = await collect(listSourceObjects(type, config()));
    assert.deepEqual(objs.map((o) => o.key).sort(), Object.keys(seed).sort());
    const calls = stand().requests.slice(n).map((r) => `${r.method} ${r.path}${r.query.scroll ? '?scroll' : ''}`);
    assert.deepEqual(calls, ['POST /articles/_search?scroll', 'POST /_search/scroll', 'POST /_search/scroll', 'POST /_search/scroll', 'DELETE /_search/scroll'], '8 hits in pages of 3, then the empty page, then cleared');
    const search = stand().requests[n]!;
    assert.equal(search.body._source, false, 'listing fetches ids and versions only');
    const first = objs.find((o) => o.key === 'doc-0')!;
    assert.equal(first.filename, 'articles-doc-0.txt');
    assert.equal(first.version, '1');
    assert.deepEqual(first.dataSource, { url: `${stand().url}/articles`, version: '1', record_locator: { hosts: [stand().url], index_name: 'articles', document_id: 'doc-0' } });
  });

  test(`${type}: read is the flattened _source, values one per line; fields select and rename the document`, async () => {
    assert.equal(untext(await readSourceObject(type, config(), 'doc-2')), "Article 2\nBody text 2\nAnn\n['x', 'y']\n20");
    const some = config({ fields: ['title', 'views'] });
    assert.equal(untext(await readSourceObject(type, some, 'doc-2')), 'Article 2\n20');
    const listed = await collect(listSourceObjects(type, some));
    assert.match(listed.find((o) => o.key === 'doc-2')!.filename!, /^articles-doc-2-[0-9a-f]{8}\.txt$/);
  });

  test(`${type}: a 429 with Retry-After on a scroll page is retried; a document gone is that document's failure`, async () => {
    stand().inject(/^POST \/_search\/scroll$/, { status: 429, headers: { 'retry-after': '0' }, body: { error: { type: 'es_rejected_execution_exception', reason: 'rejected execution' }, status: 429 } }, 2);
    const objs = await collect(listSourceObjects(type, config()));
    assert.equal(objs.length, 8);
    await assert.rejects(readSourceObject(type, config(), 'doc-404'), /document doc-404 not found in index articles \((Elasticsearch|OpenSearch) answered HTTP 404\)/);
  });
}

test('elasticsearch: the version follows _version (a rewrite bumps it); a key without read gets the 403 text', async () => {
  const v = async (id: string) => (await collect(listSourceObjects('elasticsearch', esConfig()))).find((o) => o.key === id)!.version;
  assert.equal(await v('doc-3'), '1');
  await bulk(es, `ApiKey ${KEY}`, { 'doc-3': { title: 'Article 3, edited' } });
  assert.equal(await v('doc-3'), '2');
  assert.equal(await v('doc-4'), '1');
  await assert.rejects(readSourceObject('elasticsearch', esConfig({ es_api_key: NOREAD }), 'doc-1'), /Elasticsearch answered HTTP 403: security_exception: action \[indices:data\/read\/get\] is unauthorized/);
  await assert.rejects(collect(listSourceObjects('elasticsearch', esConfig({ es_api_key: NOREAD }))), /HTTP 403: security_exception/);
});

test('outbound policy: hosts resolving to loopback are refused under CONNECTORS_DENY_PRIVATE_NETWORKS', async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  try {
    const host = (u: string) => [u.replace('127.0.0.1', 'localhost')];
    const r = await checkConnection('source', 'elasticsearch', esConfig({ hosts: host(es.url) }));
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /private network address/);
    await assert.rejects(collect(listSourceObjects('elasticsearch', esConfig({ hosts: host(es.url) }))), /private network address/);
    await assert.rejects(readSourceObject('opensearch', osConfig({ hosts: host(os.url) }), 'doc-1'), /private network address/);
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});
