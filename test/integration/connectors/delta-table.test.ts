// Delta Lake destination through the registry: Parquet data files and `_delta_log` JSON commits
// written to S3 (the local S3 emulator, s3rver, with S3's put-if-absent added) through the AWS SDK,
// read back by an independent reader (its own log replay, DuckDB's read_parquet): rows as the
// platform's stager builds them, a rewrite replaces the document in one commit, mixed files
// rewritten without the document, concurrent commits serialised by put-if-absent, records that do
// not fit the schema refused, tables this writer cannot write refused, S3's own failure reasons.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { configIssues } from '../../support/connector-tests';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { checkConnection, deliverToDestination, outputConfig, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId } from '../../../lambdas/connectors/records/ids';
import { commit } from '../../../lambdas/connectors/delta/log';
import { DeltaStore } from '../../../lambdas/connectors/delta/store';
import { schemaString, toParquet, type Field } from '../../../lambdas/connectors/delta/table';
import { readDeltaTable, s3Admin, startDeltaS3, S3_CREDENTIALS } from '../../../lambdas/connectors/delta/test-server';
import { DIMS, element, elements, logSink, vec, writeThenRewrite } from './vector-fixtures';

let s3: { endpoint: string; stop(): Promise<void> };
const BUCKET = 'lake';
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'delta_table', {
    table_uri: `s3://${BUCKET}/tables/elements/`,
    aws_region: 'us-east-1',
    aws_access_key_id: S3_CREDENTIALS.accessKeyId,
    aws_secret_access_key: S3_CREDENTIALS.secretAccessKey,
    ...over,
  });
const rid = (key: string) => documentRecordId('src', key);
const doc = (sourceKey: string, els = elements(3)) => ({ sourceId: 'src', sourceKey, elements: els });
const read = (prefix = 'tables/elements/') => readDeltaTable(s3.endpoint, BUCKET, prefix);

before(async () => {
  s3 = await startDeltaS3([BUCKET]);
});
after(async () => {
  await s3?.stop();
});

test('config: s3:// table_uri (the platform pattern), no service bucket, no dot segments; the secret key masked', () => {
  const issue = (over: Record<string, unknown>) => configIssues(() => config(over)) || undefined;
  assert.match(issue({ table_uri: '/tmp/table' })!, /table_uri: String should match pattern/);
  assert.match(issue({ table_uri: 's3://wps-data/t/' })!, /table_uri: s3:\/\/wps-data is the service's own storage bucket/);
  assert.match(issue({ table_uri: 's3://lake/a/../b/' })!, /table_uri: .*may not contain '\.' or '\.\.' segments/);
  assert.equal(outputConfig('destination', 'delta_table', config()).aws_secret_access_key, '**********');
});

test('S3 emulator: a PUT with If-None-Match: * of an existing key is 412 PreconditionFailed, as S3 answers', async () => {
  const admin = s3Admin(s3.endpoint);
  try {
    await admin.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'cond/x', Body: 'one', IfNoneMatch: '*' }));
    await assert.rejects(admin.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'cond/x', Body: 'two', IfNoneMatch: '*' })), (e: any) => e.name === 'PreconditionFailed' && e.$metadata.httpStatusCode === 412);
  } finally {
    admin.destroy();
  }
});

test('check: the folder is writable and in aws_region; wrong region, key or bucket fail with the reason', async () => {
  const fresh = await checkConnection('destination', 'delta_table', config({ table_uri: `s3://${BUCKET}/checked/` }));
  assert.equal(fresh.status, 'SUCCESS', fresh.reason);
  assert.equal(fresh.reason, `s3://${BUCKET}/checked/: writable; no Delta table there yet (created on the first write)`);
  const region = await checkConnection('destination', 'delta_table', config({ aws_region: 'eu-west-1' }));
  assert.equal(region.status, 'FAILURE');
  assert.equal(region.reason, `Wrong AWS region provided: bucket '${BUCKET}' resides in 'us-east-1', but configuration specifies 'eu-west-1'.`);
  const key = await checkConnection('destination', 'delta_table', config({ aws_access_key_id: 'AKIAWRONG', aws_secret_access_key: 'wrong-secret-value' }));
  assert.equal(key.status, 'FAILURE');
  assert.match(key.reason!, /PutObject on s3:\/\/lake\/tables\/elements\/ failed: InvalidAccessKeyId: The AWS Access Key Id you provided does not exist in our records\. \(HTTP 403\)/);
  assert.ok(!key.reason!.includes('wrong-secret-value'));
  const bucket = await checkConnection('destination', 'delta_table', config({ table_uri: 's3://no-such-bucket/t/' }));
  assert.equal(bucket.status, 'FAILURE');
  assert.match(bucket.reason!, /NoSuchBucket: The specified bucket does not exist/);
});

test('write: one commit per document; a rewrite removes its earlier file and adds the new one; rows as the platform stages them', async () => {
  await writeThenRewrite('delta_table', config);

  const t = await read();
  assert.equal(t.version, 2);
  assert.deepEqual(Object.keys(t.commits[0]!.reduce((o, a) => ({ ...o, ...a }), {})).sort(), ['add', 'commitInfo', 'metaData', 'protocol']);
  assert.deepEqual(t.commits[0]!.find((a) => a.protocol)!.protocol, { minReaderVersion: 1, minWriterVersion: 2 });
  const v2 = t.commits[2]!;
  assert.equal(v2.filter((a) => a.remove).length, 1, 'the earlier file of a.txt removed');
  assert.equal(v2.filter((a) => a.add).length, 1);
  assert.equal(JSON.parse(v2.find((a) => a.add)!.add.stats).minValues.record_id, rid('a.txt'));
  assert.equal(t.activeFiles.length, 2);
  const types = Object.fromEntries(t.schema.map((f) => [f.name, f.type]));
  assert.deepEqual(types.embeddings, { type: 'array', elementType: 'double', containsNull: true });
  assert.deepEqual([types.page_number, types.text, types.record_id, types.data_source_record_locator], ['long', 'string', 'string', 'string']);
  assert.deepEqual(types.languages, { type: 'array', elementType: 'string', containsNull: true });

  const mine = t.rows.filter((r) => r.record_id === rid('a.txt')).sort((x, y) => x.text.localeCompare(y.text));
  assert.deepEqual(mine.map((r) => r.text), ['Body one, edited', 'Title one']);
  const title = mine[1]!;
  assert.equal(title.embeddings.length, DIMS);
  assert.deepEqual(title.embeddings.slice(0, 3), vec(0).slice(0, 3));
  assert.deepEqual([title.type, title.element_id, title.filename, title.filetype, title.data_source_url, title.data_source_date_modified], ['Title', 'el-0-9', 'a.txt', 'text/plain', 's3://b/a.txt', '2026-01-02T03:04:05Z']);
  assert.equal(Number(title.page_number), 1);
  assert.deepEqual(title.languages, ['eng']);
  assert.deepEqual(JSON.parse(title.data_source_record_locator), { path: 'a.txt' });
  assert.equal(t.rows.length, 3, 'two rows of a.txt and one of b.txt');

  assert.equal(await removeDocumentRecords('delta_table', config(), { sourceId: 'src', sourceKey: 'b.txt' }), 1);
  const after = await read();
  assert.deepEqual(after.rows.map((r) => r.record_id), [rid('a.txt'), rid('a.txt')]);
  const ok = await checkConnection('destination', 'delta_table', config());
  assert.match(ok.reason!, /^s3:\/\/lake\/tables\/elements\/: Delta table at version 3, 1 data files, \d+ columns$/);
});

test('a data file mixing documents (another engine, no stats) is rewritten without the document\'s rows', async () => {
  const prefix = 'tables/mixed/';
  const cfg = config({ table_uri: `s3://${BUCKET}/${prefix}` });
  const fields: Field[] = ['record_id', 'element_id', 'text'].map((name) => ({ name, type: 'string', nullable: true, metadata: {} }));
  const store = new DeltaStore(cfg as any);
  const bytes = toParquet(fields, [
    { record_id: rid('x.txt'), element_id: 'x1', text: 'x one' },
    { record_id: rid('y.txt'), element_id: 'y1', text: 'y one' },
    { record_id: rid('x.txt'), element_id: 'x2', text: 'x two' },
  ]);
  await store.put('part-mixed.parquet', bytes);
  await commit(store, 0, [
    { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
    { metaData: { id: 'm', format: { provider: 'parquet', options: {} }, schemaString: schemaString(fields), partitionColumns: [], configuration: {} } },
    { add: { path: 'part-mixed.parquet', partitionValues: {}, size: bytes.byteLength, modificationTime: Date.now(), dataChange: true } },
  ]);
  store.close();
  const r = await deliverToDestination('delta_table', cfg, doc('x.txt', [element(0, 'x new')]));
  assert.deepEqual(r, { written: 1, deleted: 2 });
  const t = await read(prefix);
  assert.deepEqual(t.rows.map((row) => row.text).sort(), ['x new', 'y one']);
});

test('concurrent documents into one table: put-if-absent serialises the commits, nothing is lost', async () => {
  const cfg = config({ table_uri: `s3://${BUCKET}/tables/concurrent/` });
  const sink = logSink();
  const keys = ['c1.txt', 'c2.txt', 'c3.txt', 'c4.txt', 'c5.txt'];
  await Promise.all(keys.map((k) => deliverToDestination('delta_table', cfg, doc(k, elements(4, k)), { log: sink.log })));
  const t = await read('tables/concurrent/');
  assert.equal(t.version, keys.length - 1, 'one commit per document');
  assert.equal(t.rows.length, 4 * keys.length);
  assert.ok(sink.lines.some((l) => l.msg === 'delta_table commit conflict; retrying'), 'racing writers met a taken version and retried');
});

test('a value that does not fit the table schema refuses the record; the earlier copy stays', async () => {
  const cfg = config({ table_uri: `s3://${BUCKET}/tables/strict/` });
  await deliverToDestination('delta_table', cfg, doc('s.txt', [element(0, 'fine')]));
  await assert.rejects(
    deliverToDestination('delta_table', cfg, doc('s.txt', [element(0, 'fine'), element(1, 'bad', { page_number: 'iv' })])),
    /the table refused a record \(element el-1-3\): column page_number is long in the table schema, the value "iv" does not fit/,
  );
  assert.deepEqual((await read('tables/strict/')).rows.map((r) => r.text), ['fine']);
});

test('a table needing Delta features this writer lacks (deletion vectors) is refused, check and write', async () => {
  const prefix = 'tables/dv/';
  const cfg = config({ table_uri: `s3://${BUCKET}/${prefix}` });
  const store = new DeltaStore(cfg as any);
  await commit(store, 0, [
    { protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['deletionVectors'], writerFeatures: ['deletionVectors'] } },
    { metaData: { id: 'dv', format: { provider: 'parquet', options: {} }, schemaString: schemaString([]), partitionColumns: [], configuration: {} } },
  ]);
  store.close();
  const reason = /the table needs Delta reader version 3 and writer version 7 \(features: deletionVectors\); this writer implements reader 1 and writer 2/;
  const c = await checkConnection('destination', 'delta_table', cfg);
  assert.equal(c.status, 'FAILURE');
  assert.match(c.reason!, reason);
  await assert.rejects(deliverToDestination('delta_table', cfg, doc('d.txt')), reason);
});

test('outbound policy: with private networks denied, the S3 endpoint on loopback is refused', async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  try {
    const c = await checkConnection('destination', 'delta_table', config());
    assert.equal(c.status, 'FAILURE');
    assert.match(c.reason!, /PutObject on s3:\/\/lake\/tables\/elements\/ failed: .*(loopback|private|not allowed|refused)/i);
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});

test('a table summarised by a checkpoint (older commits cleaned up) is replayed from it; the rewrite removes the checkpointed file', async () => {
  const prefix = 'tables/checkpointed/';
  const cfg = config({ table_uri: `s3://${BUCKET}/${prefix}` });
  const fields: Field[] = ['record_id', 'element_id', 'text'].map((name) => ({ name, type: 'string', nullable: true, metadata: {} }));
  const store = new DeltaStore(cfg as any);
  const bytes = toParquet(fields, [{ record_id: rid('cp.txt'), element_id: 'old', text: 'old text' }]);
  await store.put('part-old.parquet', bytes);
  // A checkpoint at version 4 as Spark/delta-rs write it (one action struct column per row), made
  // with DuckDB; commits 0-4 themselves are gone, as after log cleanup.
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const { mkdtempSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const file = join(mkdtempSync(join(tmpdir(), 'wps-cp-')), 'cp.parquet');
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const P = `STRUCT(minReaderVersion INTEGER, minWriterVersion INTEGER)`;
  const M = `STRUCT(id VARCHAR, format STRUCT(provider VARCHAR, options MAP(VARCHAR, VARCHAR)), schemaString VARCHAR, partitionColumns VARCHAR[], configuration MAP(VARCHAR, VARCHAR), createdTime BIGINT)`;
  const A = `STRUCT(path VARCHAR, partitionValues MAP(VARCHAR, VARCHAR), size BIGINT, modificationTime BIGINT, dataChange BOOLEAN, stats VARCHAR)`;
  const stats = JSON.stringify({ numRecords: 1, minValues: { record_id: rid('cp.txt') }, maxValues: { record_id: rid('cp.txt') } });
  const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
  await conn.run(`COPY (
      SELECT {'minReaderVersion': 1, 'minWriterVersion': 2}::${P} AS protocol, NULL::${M} AS metaData, NULL::${A} AS add
      UNION ALL SELECT NULL, {'id': 'cp', 'format': {'provider': 'parquet', 'options': MAP {}}, 'schemaString': ${lit(schemaString(fields))}, 'partitionColumns': [], 'configuration': MAP {'delta.checkpointInterval': '5'}, 'createdTime': 0}::${M}, NULL
      UNION ALL SELECT NULL, NULL, {'path': 'part-old.parquet', 'partitionValues': MAP {}, 'size': ${bytes.byteLength}, 'modificationTime': 0, 'dataChange': true, 'stats': ${lit(stats)}}::${A}
    ) TO '${file}' (FORMAT parquet)`);
  conn.closeSync();
  db.closeSync();
  await store.put('_delta_log/00000000000000000004.checkpoint.parquet', readFileSync(file));
  await store.put('_delta_log/_last_checkpoint', Buffer.from(JSON.stringify({ version: 4, size: 3 })));
  store.close();

  const r = await deliverToDestination('delta_table', cfg, doc('cp.txt', [element(0, 'new text')]));
  assert.deepEqual(r, { written: 1, deleted: 1 });
  const commit5 = (await read(prefix)).commits.at(-1)!;
  assert.deepEqual(commit5.find((a) => a.remove)!.remove.path, 'part-old.parquet');
  const c = await checkConnection('destination', 'delta_table', cfg);
  assert.match(c.reason!, /Delta table at version 5, 1 data files/);
});

test('S3 throttling (503 SlowDown) on a data file or a commit is retried with back-off; the write lands once', async () => {
  const { createServer, request } = await import('node:http');
  const upstream = new URL(s3.endpoint);
  let throttled = 0;
  // A pass-through proxy in front of the emulator that answers the first PUT of a data file and
  // the first PUT of a commit with S3's SlowDown, as S3 does under load.
  const seen = new Set<string>();
  const proxy = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    const kind = req.method === 'PUT' ? (/\.parquet$/.test(path) ? 'data' : /_delta_log\/\d{20}\.json$/.test(path) ? 'commit' : '') : '';
    if (kind && !seen.has(kind)) {
      seen.add(kind);
      throttled++;
      req.resume();
      res.writeHead(503, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>');
      return;
    }
    const up = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const saved = process.env.AWS_ENDPOINT_URL_S3;
  process.env.AWS_ENDPOINT_URL_S3 = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  try {
    const cfg = config({ table_uri: `s3://${BUCKET}/tables/throttled/` });
    assert.deepEqual(await deliverToDestination('delta_table', cfg, doc('t.txt', elements(3))), { written: 3, deleted: 0 });
  } finally {
    process.env.AWS_ENDPOINT_URL_S3 = saved;
    proxy.closeAllConnections();
    await new Promise<void>((r) => proxy.close(() => r()));
  }
  assert.equal(throttled, 2);
  const t = await read('tables/throttled/');
  assert.deepEqual([t.version, t.rows.length], [0, 3]);
});
