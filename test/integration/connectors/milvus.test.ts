// Milvus destination through the registry, driven by the official @zilliz/milvus2-sdk-node over gRPC
// against the local stand-in: rows as the platform's stager shapes them, replace by the record_id_key
// expression, schema fitting, refusals with Milvus' message, rate limits retried, batches bounded.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConnection, deliverToDestination, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId } from '../../../lambdas/connectors/records/ids';
import { platformSchema, startMilvusTestServer, type MilvusTestServer } from '../../../lambdas/connectors/milvus/test-server';
import { closedPort } from './helpers';
import { trustStandIns } from '../../support/stand-in-ca';

let mv: MilvusTestServer;
const config = (over: Record<string, unknown> = {}) => ({ uri: mv.uri, token: mv.token, collection_name: 'elements', record_id_key: 'record_id', ...over });

const vec = (seed: number, dims = 384) => Array.from({ length: dims }, (_, i) => Math.fround(Math.sin(seed + i)));
const element = (i: number, text: string, dims = 384) => ({
  type: i === 0 ? 'Title' : 'NarrativeText',
  element_id: `el-${i}-${text.length}`,
  text,
  metadata: {
    filename: 'a.txt', filetype: 'text/plain', languages: ['eng'], page_number: 2,
    data_source: { url: 's3://b/a.txt', date_modified: '2026-01-02T03:04:05Z', record_locator: { path: 'a.txt' } },
  },
  embeddings: vec(i, dims),
});

let untrust: (() => void) | undefined;
before(async () => {
  untrust = trustStandIns(); // the stand-in serves TLS: credentials go over TLS only
  mv = await startMilvusTestServer();
  mv.createCollection('elements', platformSchema(384, true));
  mv.createCollection('strict', platformSchema(384, false));
  mv.createDatabase('kb');
  mv.createCollection('chunks', platformSchema(384, true), 'kb');
  mv.createCollection('no_record', { enable_dynamic_field: false, fields: [{ name: 'id', data_type: 'Int64', is_primary_key: true, autoID: true }, { name: 'embeddings', data_type: 'FloatVector', dim: 384 }] });
});
after(async () => {
  untrust?.();
  await mv?.stop();
});

test('config: uri pattern, record_id_key shape, password with user (422 items)', () => {
  const fails = (over: Record<string, unknown>, loc: string) =>
    assert.throws(() => validateConfig('destination', 'milvus', config(over), ['body', 'config']), (e: any) => e.issues.some((i: any) => i.loc.join('.') === `body.config.${loc}`));
  fails({ uri: 'grpc://h:19530' }, 'uri');
  fails({ record_id_key: 'record id' }, 'record_id_key');
  fails({ token: undefined, user: 'root' }, 'password');
  assert.ok(validateConfig('destination', 'milvus', config({ token: undefined, user: 'root', password: 'Milvus', db_name: 'kb' }), ['body', 'config']));
});

test('check: authenticated Connect and the collection; missing collection, database, key field and bad login fail', async () => {
  const ok = await checkConnection('destination', 'milvus', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, 'collection elements: 3 fields, dynamic field on; vector field embeddings (FloatVector, dim 384)');
  const userPw = await checkConnection('destination', 'milvus', config({ token: undefined, user: 'root', password: 'Milvus', db_name: 'kb', collection_name: 'chunks' }));
  assert.equal(userPw.status, 'SUCCESS', userPw.reason);

  const missing = await checkConnection('destination', 'milvus', config({ collection_name: 'nope' }));
  assert.deepEqual(missing, { status: 'FAILURE', reason: "Collection 'nope' does not exist" });
  const noDb = await checkConnection('destination', 'milvus', config({ db_name: 'nodb' }));
  assert.match(noDb.reason!, /database not found\[database=nodb\]/);
  const noKey = await checkConnection('destination', 'milvus', config({ collection_name: 'no_record' }));
  assert.match(noKey.reason!, /collection no_record has no field record_id and no dynamic field/);

  mv.load('elements', false);
  try {
    const notLoaded = await checkConnection('destination', 'milvus', config());
    assert.match(notLoaded.reason!, /collection elements is not loaded \(LoadStateNotLoad\): .*load it first/);
    await assert.rejects(
      deliverToDestination('milvus', config(), { sourceId: 's', sourceKey: 'x.txt', elements: [element(0, 'x')] }),
      /delete record_id == ".*": collection not loaded\[collection=\d+\] \(code 101\)/,
    );
  } finally {
    mv.load('elements', true);
  }

  const login = await checkConnection('destination', 'milvus', config({ token: undefined, user: 'root', password: 'not-the-password' }));
  assert.equal(login.status, 'FAILURE');
  assert.match(login.reason!, /UNAUTHENTICATED: auth check failure/);
  assert.ok(!login.reason!.includes('not-the-password'));

  const closed = await checkConnection('destination', 'milvus', config({ uri: `https://127.0.0.1:${await closedPort()}` }));
  assert.match(closed.reason!, /cannot connect to Milvus at 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
});

test('write: flattened rows as the platform stages them; a rewrite deletes by record_id first', async () => {
  const doc = { sourceId: 'src-1', sourceKey: 'a.txt' };
  const other = { sourceId: 'src-1', sourceKey: 'b.txt' };
  assert.deepEqual(await deliverToDestination('milvus', config(), { ...doc, elements: [element(0, 'Title one'), element(1, 'Body one'), element(2, 'Body two')] }), { written: 3, deleted: 0 });
  await deliverToDestination('milvus', config(), { ...other, elements: [element(0, 'Other doc')] });
  const noVector = { ...element(3, 'no embedding'), embeddings: undefined };
  delete (noVector as { embeddings?: unknown }).embeddings;
  assert.deepEqual(await deliverToDestination('milvus', config(), { ...doc, elements: [element(0, 'Title one'), element(1, 'Body one, edited'), noVector] }), { written: 2, deleted: 3 });

  const rid = documentRecordId('src-1', 'a.txt');
  const rows = mv.rows('elements').filter((r) => r.record_id === rid).sort((a, b) => String(a.text).localeCompare(String(b.text)));
  assert.deepEqual(rows.map((r) => r.text), ['Body one, edited', 'Title one']);
  const { id, ...title } = rows[1]!;
  assert.equal(typeof id, 'number', 'auto id from Milvus');
  assert.deepEqual(title, {
    record_id: rid, embeddings: vec(0), type: 'Title', element_id: element(0, 'Title one').element_id, text: 'Title one',
    filename: 'a.txt', filetype: 'text/plain', languages: ['eng'], page_number: 2,
    data_source_url: 's3://b/a.txt', data_source_date_modified: 1767323045, data_source_record_locator_path: 'a.txt', is_continuation: false,
  });
  assert.equal(mv.rows('elements').length, 3);
  assert.equal(await removeDocumentRecords('milvus', config(), other), 1);
  assert.equal(mv.rows('elements').length, 2);
});

test('no dynamic field: rows fitted to the schema; fields_to_include and flatten_metadata off as the platform stages', async () => {
  await deliverToDestination('milvus', config({ collection_name: 'strict' }), { sourceId: 's', sourceKey: 'c.txt', elements: [element(0, 'A')] });
  assert.deepEqual(Object.keys(mv.rows('strict')[0]!).sort(), ['embeddings', 'id', 'record_id']);
  await deliverToDestination('milvus', config({ db_name: 'kb', collection_name: 'chunks', flatten_metadata: false, fields_to_include: ['text', 'embeddings', 'metadata'] }), { sourceId: 's', sourceKey: 'c.txt', elements: [element(0, 'B')] });
  const row = mv.rows('chunks', 'kb')[0]!;
  assert.deepEqual(Object.keys(row).sort(), ['embeddings', 'id', 'metadata', 'record_id', 'text']);
  assert.equal((row.metadata as { filename: string }).filename, 'a.txt');
  await assert.rejects(
    deliverToDestination('milvus', config({ fields_to_include: ['text', 'embeddings', 'nonexistent'] }), { sourceId: 's', sourceKey: 'c.txt', elements: [element(0, 'C')] }),
    /Field 'nonexistent' is missing in data!/,
  );
});

test('a row Milvus refuses fails the write with its message', async () => {
  await assert.rejects(
    deliverToDestination('milvus', config(), { sourceId: 's', sourceKey: 'd.txt', elements: [element(0, 'short vector', 3)] }),
    /insert into elements: the dim \(3\) of field data\(embeddings\) is not equal to schema dim \(384\)/,
  );
});

test('rate limits are retried; inserts go in batches of at most 1000 rows', async () => {
  mv.throttle('Delete', 1);
  mv.throttle('Insert', 1);
  const before = mv.calls.length;
  const many = Array.from({ length: 2100 }, (_, i) => element(i, `chunk ${i}`));
  const r = await deliverToDestination('milvus', config(), { sourceId: 's', sourceKey: 'big.txt', elements: many });
  assert.deepEqual(r, { written: 2100, deleted: 0 });
  const calls = mv.calls.slice(before);
  assert.equal(calls.filter((c) => c === 'Delete').length, 2, 'the throttled delete, then its retry');
  assert.equal(calls.filter((c) => c === 'Insert').length, 4, 'one throttled insert, then 3 batches of ≤ 1000');
  assert.equal(mv.rows('elements').filter((x) => x.record_id === documentRecordId('s', 'big.txt')).length, 2100);
});
