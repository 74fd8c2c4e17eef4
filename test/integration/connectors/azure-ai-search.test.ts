// Azure AI Search destination through the registry: the official @azure/search-documents client
// over HTTPS (a self-signed stand-in trusted through CONNECTOR_CA_FILE) against a stand-in service
// that keeps what it receives and refuses documents as Azure does. Documents shaped as the
// platform's stager does, fitted to the index; rewrite replaces by record_id (search + delete);
// batches of batch_size; 503 + Retry-After and busy documents retried; refusals in Azure's words.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFails, checkSucceeds, envScope, withEnv } from '../../support/connector-tests';
import { checkConnection, deliverToDestination, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId, enhancedElementId } from '../../../lambdas/connectors/records/ids';
import { platformIndexFields, selfSignedCert, startAzureSearchStandIn, type AzureSearchStandIn } from '../../../lambdas/connectors/azure-ai-search/test-server';
import { closedPort } from './helpers';

let az: AzureSearchStandIn;
const env = envScope(['CONNECTOR_CA_FILE']);

const vec = (seed: number, dims = 384) => Array.from({ length: dims }, (_, i) => Math.round(Math.sin(seed + i) * 1e6) / 1e6);
const element = (i: number, text: string, dims = 384) => ({
  type: i === 0 ? 'Title' : 'NarrativeText',
  element_id: `el-${i}`,
  text,
  metadata: {
    filename: 'a.pdf', filetype: 'application/pdf', languages: ['eng'], page_number: 2, last_modified: '2026-01-02T03:04:05Z',
    coordinates: { system: 'PixelSpace', layout_width: 100, layout_height: 200, points: [[1, 2], [3, 4]] },
    data_source: { url: 's3://b/a.pdf', version: 7, record_locator: { path: 'a.pdf' }, date_modified: '1767323045' },
    links: [{ text: 'x', url: 'https://e.example' }], orig_elements: 'eJyrVg==', not_in_index: true,
  },
  embeddings: vec(i, dims),
});
const config = (over: Record<string, unknown> = {}) => validateConfig('destination', 'azure_ai_search', { endpoint: az.endpoint, index: 'elements', key: az.adminKey, ...over });

before(async () => {
  const tls = selfSignedCert();
  env.set({ CONNECTOR_CA_FILE: tls.certFile });
  az = await startAzureSearchStandIn({ key: tls.key, cert: tls.cert });
  az.addIndex('elements', platformIndexFields(384));
});
after(async () => {
  await az?.stop();
  env.restore();
});

test('config: https endpoint and Azure index names (422 items)', () => {
  assert.throws(() => config({ endpoint: 'http://svc.search.windows.net' }), (e: any) => JSON.stringify(e.issues).includes('endpoint'));
  assert.throws(() => config({ index: 'Elements_1' }), (e: any) => JSON.stringify(e.issues).includes('"index"'));
  assert.throws(() => config({ batch_size: 1001 }), (e: any) => JSON.stringify(e.issues).includes('batch_size'));
});

test('check: the index definition read with the admin key; missing index, query key and unreachable service fail with the reason', async () => {
  const ok = await checkSucceeds('destination', 'azure_ai_search', config(), "index elements: key id, 7 fields; embeddings of 384 dimensions; record_id filterable (rewrites replace a file's documents)");
  await checkFails('destination', 'azure_ai_search', config({ index: 'absent' }), /index absent not found: create it first .*record_id \(Edm\.String, filterable\).*Azure AI Search answered HTTP 404: No index with the name 'absent' was found/);
  const query = await checkFails('destination', 'azure_ai_search', config({ key: az.queryKey }), /Azure AI Search answered HTTP 403: .*writing needs an admin key/);
  assert.ok(!query.reason!.includes(az.queryKey), 'no key in the reason');
  // TLS is verified: without the stand-in's CA the certificate is refused.
  const untrusted = await withEnv({ CONNECTOR_CA_FILE: undefined }, () => checkConnection('destination', 'azure_ai_search', config()));
  assert.equal(untrusted.status, 'FAILURE');
  assert.match(untrusted.reason!, /cannot reach Azure AI Search: .*self-signed certificate/);
  const port = await closedPort();
  const down = await checkConnection('destination', 'azure_ai_search', config({ endpoint: `https://127.0.0.1:${port}` }), { timeoutMs: 5000 });
  assert.equal(down.status, 'FAILURE');
  assert.match(down.reason!, /cannot reach Azure AI Search: .*ECONNREFUSED/);
});

test('write: platform document shape fitted to the index; a rewrite replaces by record_id; removeRecords deletes', async () => {
  const idx = az.indexes.get('elements')!;
  idx.docs.clear();
  const doc = { sourceId: 'src', sourceKey: 'a.pdf' };
  const rid = documentRecordId('src', 'a.pdf');
  assert.deepEqual(await deliverToDestination('azure_ai_search', config(), { ...doc, elements: [element(0, 'T'), element(1, 'One'), element(2, 'Two')] }), { written: 3, deleted: 0 });
  await deliverToDestination('azure_ai_search', config(), { sourceId: 'src', sourceKey: 'b.pdf', elements: [element(0, 'Other')] });
  assert.deepEqual(await deliverToDestination('azure_ai_search', config(), { ...doc, elements: [element(0, 'T'), element(1, 'One, edited')] }), { written: 2, deleted: 1 });
  const mine = [...idx.docs.values()].filter((d) => d.record_id === rid);
  assert.deepEqual(mine.map((d) => d.text).sort(), ['One, edited', 'T']);
  const t = idx.docs.get(enhancedElementId('el-0', rid))!;
  assert.equal(t.id, enhancedElementId('el-0', rid));
  assert.equal(t.embeddings.length, 384);
  assert.equal(t.metadata.page_number, '2');
  assert.equal(t.metadata.last_modified, '2026-01-02T03:04:05.000000Z');
  assert.equal(t.metadata.coordinates.points, '[[1,2],[3,4]]');
  assert.deepEqual(t.metadata.data_source, { url: 's3://b/a.pdf', version: '7', record_locator: '{"path":"a.pdf"}', date_modified: '2026-01-02T03:04:05.000000Z' });
  assert.deepEqual(t.metadata.links, ['{"text":"x","url":"https://e.example"}']);
  assert.ok(!('orig_elements' in t.metadata) && !('not_in_index' in t.metadata), 'fields the index lacks are dropped');
  const searches = az.requests.filter((r) => r.path.endsWith('/docs/search.post.search'));
  assert.equal(searches.at(-1)!.body.filter, `record_id eq '${rid}'`);
  assert.equal(idx.docs.size, 3);
  assert.equal(await removeDocumentRecords('azure_ai_search', config(), { sourceId: 'src', sourceKey: 'b.pdf' }), 1);
  assert.equal(idx.docs.size, 2);
});

test('batches of batch_size; earlier copies beyond one search page are all found (paging followed)', async () => {
  const idx = az.indexes.get('elements')!;
  idx.docs.clear();
  const many = Array.from({ length: 1203 }, (_, i) => element(i, `t${i}`, 384));
  const before = az.requests.length;
  const r1 = await deliverToDestination('azure_ai_search', config({ batch_size: 500 }), { sourceId: 's', sourceKey: 'big.pdf', elements: many });
  assert.equal(r1.written, 1203);
  const uploads = az.requests.slice(before).filter((r) => r.path.endsWith('/docs/search.index')).map((r) => r.body.value.length);
  assert.deepEqual(uploads.sort((a, b) => a - b), [203, 500, 500]);
  const r2 = await deliverToDestination('azure_ai_search', config({ batch_size: 500 }), { sourceId: 's', sourceKey: 'big.pdf', elements: many.slice(0, 3) });
  assert.deepEqual(r2, { written: 3, deleted: 1200 });
  assert.equal(idx.docs.size, 3);
});

test('503 with Retry-After and busy documents are retried; a refused document fails the write in Azure\'s words', async () => {
  az.inject(/search\.index$/, { status: 503, headers: { 'retry-after': '1' } }, 1);
  az.busyItems(503, 2);
  const t0 = Date.now();
  const r = await deliverToDestination('azure_ai_search', config(), { sourceId: 's', sourceKey: 'r.pdf', elements: [element(0, 'A'), element(1, 'B'), element(2, 'C')] });
  assert.equal(r.written, 3);
  assert.ok(Date.now() - t0 >= 900, 'waited for Retry-After');
  await assert.rejects(
    deliverToDestination('azure_ai_search', config(), { sourceId: 's', sourceKey: 'v.pdf', elements: [element(0, 'ok'), element(1, 'short', 3)] }),
    /uploading documents: Azure AI Search answered HTTP 400: The request is invalid\. Details: The vector field 'embeddings' dimensionality must match .*Expected: '384'\. Actual: '3'/,
  );
  await assert.rejects(deliverToDestination('azure_ai_search', config({ index: 'absent' }), { sourceId: 's', sourceKey: 'v.pdf', elements: [element(0, 'x')] }), /No index with the name 'absent' was found/);
});

test('an index whose record_id is not filterable: written and overwritten by key, never duplicated', async () => {
  const fields = platformIndexFields(384).map((f) => (f.name === 'record_id' ? { ...f, filterable: false } : f));
  const idx = az.addIndex('nofilter', fields);
  for (let i = 0; i < 2; i++) await deliverToDestination('azure_ai_search', config({ index: 'nofilter' }), { sourceId: 's', sourceKey: 'n.pdf', elements: [element(0, 'A'), element(1, 'B')] });
  assert.equal(idx.docs.size, 2);
  const ok = await checkConnection('destination', 'azure_ai_search', config({ index: 'nofilter' }));
  assert.match(ok.reason!, /record_id missing or not filterable: rewrites replace documents by key only/);
});
