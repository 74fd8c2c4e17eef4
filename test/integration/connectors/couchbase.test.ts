// Couchbase destination and source through the registry, over the Query service REST API, against
// the local stand-in (which executes only the statement shapes the connector sends): documents as the
// platform stages them (+ record_id), replace by a delete on record_id, batching, throttling and
// retriable Query errors, refusals with the service's text; the source's keyset listing to the end,
// the platform's document text, CAS versions, data_source, unreadable documents; outbound policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSucceeds, checkFails, nothingReached } from '../../support/connector-tests';
import { checkConnection, deliverToDestination, listSourceObjects, outputConfig, readSourceObject, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId, enhancedElementId } from '../../../lambdas/connectors/records/ids';
import { startCouchbaseStandIn, type CouchbaseStandIn } from '../../../lambdas/connectors/couchbase/test-server';
import { selfSignedCert } from '../../../lambdas/connectors/azure-ai-search/test-server';
import { resetConfig } from '../../../lambdas/config';
import { closedPort, collect, untext } from './helpers';
import { trustStandIns } from '../../support/stand-in-ca';
import { DIMS, element, elements, logSink, vec } from './vector-fixtures';

let cb: CouchbaseStandIn;
const PASSWORD = 'cb-secret-pw-42';
const dest = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'couchbase', { connection_string: cb.connectionString, username: 'app', password: PASSWORD, bucket: 'docs', scope: 'ingest', collection: 'elements', batch_size: 50, ...over });
const src = (over: Record<string, unknown> = {}) =>
  validateConfig('source', 'couchbase', { connection_string: cb.connectionString, username: 'app', password: PASSWORD, bucket: 'crm', collection_id: 'id', batch_size: 2, ...over });
const mine = (sourceKey: string) => [...cb.documents('docs', 'ingest', 'elements')].filter(([, v]) => v.record_id === documentRecordId('src', sourceKey));

let untrustStandIns: (() => void) | undefined;
before(async () => {
  untrustStandIns = trustStandIns(); // the stand-in serves couchbases:// (the password goes over TLS only)
  cb = await startCouchbaseStandIn({ users: { app: { password: PASSWORD }, reader: { password: 'reader-pw', readOnly: true } }, maxDocumentBytes: 64 * 1024 });
  cb.createKeyspace('docs', 'ingest', 'elements');
  cb.createKeyspace('crm');
});
after(async () => {
  untrustStandIns?.();
  await cb?.stop();
});

test('config: the platform fields, a couchbases:// connection string (couchbase:// only without a password), names without backticks, password masked', () => {
  const bad = (over: Record<string, unknown>, field: string) =>
    assert.throws(() => validateConfig('destination', 'couchbase', { connection_string: 'couchbases://cb.example', username: 'u', password: 'p', bucket: 'b', batch_size: 10, ...over }), (e: any) =>
      e.issues.some((i: any) => i.loc.join('.') === `body.config.${field}`));
  bad({ connection_string: 'mongodb://cb.example' }, 'connection_string');
  assert.throws(() => validateConfig('destination', 'couchbase', { connection_string: 'couchbase://cb.example', username: 'u', password: 'p', bucket: 'b', batch_size: 10 }),
    /body\.config\.connection_string: connection_string is a plain couchbase:\/\/ URL, which would send the password in clear text: use couchbases:\/\//);
  assert.throws(() => validateConfig('destination', 'couchbase', { connection_string: 'http://cb.example:8093', username: 'u', password: 'p', bucket: 'b', batch_size: 10 }), /plain http:\/\/ URL/);
  assert.doesNotThrow(() => validateConfig('destination', 'couchbase', { connection_string: 'couchbase://cb.example', username: 'u', password: '', bucket: 'b', batch_size: 10 }), 'clear text without a password');
  bad({ bucket: 'a`b' }, 'bucket');
  bad({ collection: '' }, 'collection');
  bad({ batch_size: 0 }, 'batch_size');
  assert.throws(() => validateConfig('source', 'couchbase', { connection_string: 'couchbases://x', username: 'u', password: 'p', bucket: 'b', batch_size: 1, collection_id: 'i`d' }));
  const c = validateConfig('destination', 'couchbase', { connection_string: 'couchbases://cb.example.cloud.couchbase.com', username: 'u', password: 'secret', bucket: 'b', batch_size: 10 });
  assert.equal(outputConfig('destination', 'couchbase', c).password, '**********');
});

test('destination check: an authenticated read and a harmless delete; failures carry the service\'s text, never the password', async () => {
  const ok = await checkSucceeds('destination', 'couchbase', dest(), 'keyspace docs.ingest.elements: deletes by record_id accepted (0 removed)');

  const badPw = await checkFails('destination', 'couchbase', dest({ password: 'wrong-password-123' }), 'Couchbase rejected the credentials (HTTP 401): Authentication Failure (code 10000)');

  const missing = await checkFails('destination', 'couchbase', dest({ collection: 'nope' }), 'Couchbase Query service (HTTP 500): Keyspace not found in CB datastore: default:docs.ingest.nope (code 12003)');
  const noBucket = await checkConnection('destination', 'couchbase', dest({ bucket: 'ghost' }));
  assert.match(noBucket.reason!, /No bucket named ghost \(code 12003\)$/);

  const reader = await checkFails('destination', 'couchbase', dest({ username: 'reader', password: 'reader-pw' }), /User does not have credentials to run DELETE queries on default:`docs`.`ingest`.`elements`. Add role query_delete .* \(code 13014\)$/);

  const closed = await closedPort();
  const failover = await checkConnection('destination', 'couchbase', dest({ connection_string: `couchbases://127.0.0.1:${closed},127.0.0.1:${cb.port}` }));
  assert.equal(failover.status, 'SUCCESS', `an unreachable first host is passed over: ${failover.reason}`);

  const down = await checkConnection('destination', 'couchbase', dest({ connection_string: `couchbases://127.0.0.1:${closed}` }), { timeoutMs: 8000 });
  assert.equal(down.status, 'FAILURE');
  assert.match(down.reason!, /^cannot reach 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  for (const r of [ok, badPw, missing, reader, down]) assert.ok(!r.reason!.includes(PASSWORD) && !r.reason!.includes('wrong-password-123'));
});

test('write: one document per element (uuid5 key, the platform\'s fields + record_id); a rewrite replaces the file only', async () => {
  const first = await deliverToDestination('couchbase', dest(), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(3) });
  assert.deepEqual(first, { written: 3, deleted: 0 });
  await deliverToDestination('couchbase', dest(), { sourceId: 'src', sourceKey: 'b.txt', elements: elements(1, 'other') });
  const second = await deliverToDestination('couchbase', dest(), { sourceId: 'src', sourceKey: 'a.txt', elements: [element(0, 'text 0'), element(7, 'seven')] });
  assert.deepEqual(second, { written: 2, deleted: 3 });

  const docs = mine('a.txt');
  assert.equal(docs.length, 2);
  assert.equal(mine('b.txt').length, 1, 'b.txt untouched');
  const [key, title] = docs.find(([, v]) => v.text === 'text 0')!;
  const recordId = documentRecordId('src', 'a.txt');
  assert.equal(key, enhancedElementId('el-0-6', recordId));
  assert.deepEqual(Object.keys(title).sort(), ['element_id', 'embedding', 'metadata', 'record_id', 'text', 'type']);
  assert.equal((title.embedding as number[]).length, DIMS);
  assert.deepEqual((title.embedding as number[]).slice(0, 3), vec(0).slice(0, 3));
  assert.equal(title.type, 'Title');
  assert.equal(title.element_id, 'el-0-6');
  assert.deepEqual((title.metadata as any).languages, ['eng']);
  assert.equal((title.metadata as any).data_source.url, 's3://b/a.txt');

  // the delete before a rewrite sees every earlier write; the record_id index was created once
  const deletes = cb.statements().filter((s) => s.statement.startsWith('DELETE'));
  assert.ok(deletes.length >= 3 && deletes.every((s) => s.body.scan_consistency === 'request_plus'));
  assert.deepEqual(cb.indexes('docs', 'ingest', 'elements'), { wps_record_id: 'record_id' });
  assert.equal(cb.statements().filter((s) => s.statement.startsWith('CREATE INDEX')).length, 1);

  assert.equal(await removeDocumentRecords('couchbase', dest(), { sourceId: 'src', sourceKey: 'b.txt' }), 1);
  assert.equal(mine('b.txt').length, 0);
});

test('batches honour batch_size; 429 with Retry-After, 503 and a Query error marked retry are retried', async () => {
  const sink = logSink();
  const seen = cb.requests.length;
  const isUpsert = (q: { body: unknown }) => String((q.body as { statement?: string })?.statement).startsWith('UPSERT');
  cb.fail({ status: 429, body: 'Too Many Requests', headers: { 'retry-after': '1' }, match: isUpsert });
  cb.fail({ status: 503, body: { requestID: 'x', errors: [{ code: 1180, msg: 'Service shutting down' }], status: 'fatal' }, match: isUpsert });
  cb.fail({ status: 500, body: { requestID: 'y', errors: [{ code: 12008, msg: 'Error performing bulk get operation - cause: temporary failure', retry: true }], status: 'fatal' }, match: isUpsert });
  const r = await deliverToDestination('couchbase', dest({ batch_size: 2 }), { sourceId: 'src', sourceKey: 'batched.txt', elements: elements(5) }, { log: sink.log });
  assert.equal(r.written, 5);
  const sent = cb.requests.slice(seen).filter(isUpsert);
  assert.equal(sent.length, 6, 'three batches plus three retried attempts');
  const sizes = sent.map((q) => (q.body as any).args.length / 2);
  assert.ok(sizes.every((n) => n === 1 || n === 2), String(sizes));
  assert.equal(sizes.filter((n) => n === 1).length + sizes.filter((n) => n === 2).length, 6);
  const retries = sink.lines.filter((l) => l.msg === 'couchbase upsert retried');
  assert.equal(retries.length, 3);
  assert.ok(retries.some((l) => l.fields!.delayMs === 1000), `Retry-After honoured: ${JSON.stringify(retries)}`);
  assert.ok(retries.some((l) => /temporary failure \(code 12008\)/.test(String(l.fields!.error))));
  assert.equal(mine('batched.txt').length, 5);
});

test('a document the service refuses fails the file with its message, at once (not retried)', async () => {
  const seen = cb.statements().length;
  await assert.rejects(
    deliverToDestination('couchbase', dest(), { sourceId: 'src', sourceKey: 'huge.txt', elements: [element(0, 'x'.repeat(100 * 1024))] }),
    /^Error: upsert into docs.ingest.elements failed: Couchbase Query service \(HTTP 500\): DML Error, .*Failed to perform UPSERT on key [0-9a-f-]{36} - cause: Value Too Large \(code 12009\)$/,
  );
  assert.equal(cb.statements().slice(seen).filter((s) => s.statement.startsWith('UPSERT')).length, 1, 'a final error is not retried');
});

test('a server before 7.6 (no sequential scans): the check says the index is missing, the first write creates it; the source names the primary index it needs', async () => {
  const old = await startCouchbaseStandIn({ users: { app: { password: PASSWORD }, reader: { password: 'reader-pw', readOnly: true } }, sequentialScans: false });
  try {
    old.createKeyspace('docs');
    const cfg = (over: Record<string, unknown> = {}) => dest({ connection_string: old.connectionString, scope: undefined, collection: undefined, ...over });
    const c = await checkConnection('destination', 'couchbase', cfg());
    assert.equal(c.status, 'SUCCESS', c.reason);
    assert.match(c.reason!, /^keyspace docs._default._default found, write permission not yet proven: no index serves a delete by record_id \(.*No index available on keyspace `default`:`docs`.`_default`.`_default` .*\(code 4000\)\); the first write creates index wps_record_id/);
    assert.deepEqual(old.indexes('docs'), {}, 'the check creates nothing');

    // without the right to create the index, the file fails with the service's reason
    await assert.rejects(
      deliverToDestination('couchbase', cfg({ username: 'reader', password: 'reader-pw' }), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(2) }),
      /cannot remove the earlier documents of the file from docs._default._default: .*(No index available|query_delete)/,
    );
    assert.deepEqual(await deliverToDestination('couchbase', cfg(), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(2) }), { written: 2, deleted: 0 });
    assert.deepEqual(old.indexes('docs'), { wps_record_id: 'record_id' });
    assert.deepEqual(await deliverToDestination('couchbase', cfg(), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(2) }), { written: 2, deleted: 2 });

    const source = src({ connection_string: old.connectionString, bucket: 'docs' });
    await checkFails('source', 'couchbase', source, /Use CREATE PRIMARY INDEX ON `default`:`docs`.`_default`.`_default` to create a primary index.*\(code 4000\)$/);
    old.createPrimaryIndex('docs');
    assert.equal((await collect(listSourceObjects('couchbase', source))).length, 2);
  } finally {
    await old.stop();
  }
});

test('couchbases://: TLS verified, a private CA trusted through CONNECTOR_CA_FILE, never skipped', async () => {
  const tls = selfSignedCert();
  const secure = await startCouchbaseStandIn({ users: { app: { password: PASSWORD } }, tls });
  const saved = process.env.CONNECTOR_CA_FILE;
  try {
    secure.createKeyspace('docs');
    const cfg = dest({ connection_string: secure.connectionString, scope: undefined, collection: undefined });
    await checkFails('destination', 'couchbase', cfg, /^cannot reach 127\.0\.0\.1:\d+: self[- ]signed certificate/);
    process.env.CONNECTOR_CA_FILE = tls.certFile;
    resetConfig();
    const trusted = await checkConnection('destination', 'couchbase', cfg);
    assert.equal(trusted.status, 'SUCCESS', trusted.reason);
    assert.deepEqual(await deliverToDestination('couchbase', cfg, { sourceId: 'src', sourceKey: 'tls.txt', elements: elements(2) }), { written: 2, deleted: 0 });
    assert.equal(secure.documents('docs').size, 2);
  } finally {
    if (saved === undefined) delete process.env.CONNECTOR_CA_FILE;
    else process.env.CONNECTOR_CA_FILE = saved;
    resetConfig();
    await secure.stop();
  }
});

function seedCrm(n: number) {
  for (let i = 0; i < n; i++) cb.put('crm', `customer::${String(i).padStart(3, '0')}`, { id: `c${i}`, name: `Customer ${i}`, active: i % 2 === 0, address: { city: 'Oslo', zip: 150 + i }, tags: ['a', "o'k"], score: 1.5, note: null });
}

test('source check: the first listing page, with the service\'s text on failure', async () => {
  const ok = await checkConnection('source', 'couchbase', src());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.match(ok.reason!, /^keyspace crm._default._default: listing allowed/);
  const bad = await checkConnection('source', 'couchbase', src({ password: 'nope-nope' }));
  assert.equal(bad.reason, 'Couchbase rejected the credentials (HTTP 401): Authentication Failure (code 10000)');
  const missing = await checkConnection('source', 'couchbase', src({ scope: 'sales' }));
  assert.equal(missing.reason, 'Couchbase Query service (HTTP 500): Keyspace not found in CB datastore: default:crm.sales._default (code 12003)');
});

test('source list: keyset pages of batch_size to the end (429 retried), CAS versions, the platform\'s filenames and data_source', async () => {
  seedCrm(7);
  cb.put('crm', 'orphan', { title: 'no id field' });
  const seen = cb.statements().length;
  const isList = (q: { body: unknown }) => String((q.body as { statement?: string })?.statement).startsWith('SELECT META(d).id AS id');
  cb.fail({ status: 429, body: { requestID: 'z', errors: [{ code: 1191, msg: 'User has more requests running than allowed' }], status: 'fatal' }, headers: { 'retry-after': '0' }, match: isList });
  const objs = await collect(listSourceObjects('couchbase', src()));
  assert.deepEqual(objs.map((o) => o.key), [...Array.from({ length: 7 }, (_, i) => `customer::00${i}`), 'orphan']);
  const pages = cb.statements().slice(seen).filter((s) => s.statement.startsWith('SELECT META(d).id AS id'));
  assert.deepEqual(pages.map((p) => [p.body.$after, p.body.$limit]), [['', 2], ['', 2], ['customer::001', 2], ['customer::003', 2], ['customer::005', 2], ['orphan', 2]]);
  const first = objs[0]!;
  assert.equal(first.filename, 'crm-c0.txt');
  assert.equal(first.version, cb.casOf('crm', 'customer::000'));
  assert.match(first.version!, /^\d{19}$/);
  assert.ok(first.size > 50);
  assert.deepEqual(first.dataSource, {
    url: `${cb.connectionString}/crm`,
    version: first.version,
    record_locator: { connection_string: cb.connectionString, bucket: 'crm', scope: '_default', collection: '_default', document_id: 'c0' },
  });
  assert.equal(objs[7]!.filename, 'crm-orphan.txt', 'no collection_id field: the document id names it');
});

test('source read: the platform\'s text (flattened values as Python str, one per line); a change moves the version; a gone document fails with a reason', async () => {
  const bytes = await readSourceObject('couchbase', src(), 'customer::001');
  assert.equal(untext(bytes), "c1\nCustomer 1\nFalse\nOslo\n151\n['a', \"o'k\"]\n1.5\nNone");
  const before = (await collect(listSourceObjects('couchbase', src()))).find((o) => o.key === 'customer::001')!.version;
  cb.put('crm', 'customer::001', { id: 'c1', name: 'Customer One' });
  const afterList = (await collect(listSourceObjects('couchbase', src()))).find((o) => o.key === 'customer::001')!;
  assert.notEqual(afterList.version, before);
  assert.equal(untext(await readSourceObject('couchbase', src(), 'customer::001')), 'c1\nCustomer One');
  await assert.rejects(readSourceObject('couchbase', src(), 'customer::999'), /^Error: document "customer::999" not found in crm._default._default/);
  await assert.rejects(readSourceObject('couchbase', src({ collection: 'gone' }), 'customer::001'), /Keyspace not found in CB datastore: default:crm._default.gone \(code 12003\)/);
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS: a name resolving to loopback is refused at connect time; nothing reaches the service', async () => {
  await nothingReached(() => cb.requests.length, async () => {
    const viaName = `couchbases://localhost:${cb.port}`;
    await checkFails('destination', 'couchbase', dest({ connection_string: viaName }), /host localhost resolves to a private network address/);
    await assert.rejects(deliverToDestination('couchbase', dest({ connection_string: viaName }), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(1) }), /private network address/);
    await assert.rejects(collect(listSourceObjects('couchbase', src({ connection_string: viaName }))), /private network address/);
    await assert.rejects(readSourceObject('couchbase', src({ connection_string: `couchbases://127.0.0.1:${cb.port}` }), 'orphan'), /private network address/);
    const meta = await checkConnection('source', 'couchbase', src({ connection_string: 'couchbases://169.254.169.254' }));
    assert.match(meta.reason!, /instance metadata address/);
  });
});
