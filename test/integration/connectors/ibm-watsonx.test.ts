// IBM watsonx.data (Iceberg) destination through the registry, against stand-ins that speak the wire
// protocols the platform's connector uses: IBM IAM's token exchange and the Iceberg REST catalog
// (enforcing commit requirements: a stale commit is 409), with data files and manifests in the local
// S3 emulator (s3rver). Read back independently of the writer: the catalog's metadata file, the Avro
// manifest list and manifests, the Parquet files with hyparquet: one copy after a rewrite, the
// record_id delete, vectors and metadata present, field ids in the Parquet schema.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { configIssues } from '../../support/connector-tests';
import { parquetMetadataAsync } from 'hyparquet';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { checkConnection, deliverToDestination, outputConfig, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId } from '../../../lambdas/connectors/records/ids';
import { encodeContainer, MANIFEST_ENTRY_SCHEMA, MANIFEST_FILE_SCHEMA, manifestEntryType, manifestFileType } from '../../../lambdas/connectors/ibm-watsonx/avro';
import { IcebergCatalog } from '../../../lambdas/connectors/ibm-watsonx/catalog';
import { ObjectStore } from '../../../lambdas/connectors/ibm-watsonx/store';
import { toParquet } from '../../../lambdas/connectors/ibm-watsonx/table';
import { platformFields, readIcebergTable, S3_CREDENTIALS, startWatsonxStandIn, type WatsonxStandIn } from '../../../lambdas/connectors/ibm-watsonx/test-server';
import { watsonxConfig } from '../../support/watsonx-config';
import { DIMS, element, elements, logSink, vec, writeThenRewrite } from './vector-fixtures';
import { trustStandIns } from '../../support/stand-in-ca';

let wx: WatsonxStandIn;
const NS = 'unstructured';
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'ibm_watsonx_s3', { ...watsonxConfig(wx, NS, 'elements'), ...over });
const rid = (key: string) => documentRecordId('src', key);
const doc = (sourceKey: string, els = elements(3)) => ({ sourceId: 'src', sourceKey, elements: els });

let untrust: (() => void) | undefined;
before(async () => {
  untrust = trustStandIns(); // the stand-in serves TLS: the API key and bearer token go over TLS only
  wx = await startWatsonxStandIn();
  for (const t of ['elements', 'mixed', 'concurrent', 'strict', 'throttled']) wx.createTable(NS, t, platformFields());
  wx.createTable(NS, 'v1', platformFields(), { formatVersion: 1 });
  wx.createTable(NS, 'partitioned', platformFields(), { partitioned: true });
});
after(async () => {
  await wx?.stop();
  untrust?.();
});

test('config: the platform fields, retry bounds, the API key and HMAC secret masked', () => {
  const issue = (over: Record<string, unknown>) => configIssues(() => config(over)) || undefined;
  assert.match(issue({ max_retries: 1 })!, /max_retries: max_retries must be between 2 and 500/);
  assert.match(issue({ max_retries_connection: 101 })!, /max_retries_connection: max_retries_connection must be between 2 and 100/);
  assert.match(issue({ table: undefined })!, /table: Field required/);
  const c = config();
  assert.deepEqual([c.max_retries, c.max_retries_connection, c.record_id_key], [50, 10, 'record_id']);
  const out = outputConfig('destination', 'ibm_watsonx_s3', c);
  assert.equal(out.iam_api_key, '**********');
  assert.equal(out.secret_access_key, '**********');
});

test('check: IAM token, namespace and table in the catalog, the table location listed; failures carry the service text', async () => {
  const ok = await checkConnection('destination', 'ibm_watsonx_s3', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.match(ok.reason!, /^table unstructured\.elements of catalog iceberg_data: Iceberg v2, 14 columns, (no snapshot yet|snapshot \d+ \(\d+ records\)); location s3:\/\/watsonx-lake\/warehouse\/unstructured\/elements listed \(\d+ objects\)$/);

  const key = await checkConnection('destination', 'ibm_watsonx_s3', config({ iam_api_key: 'wrong-api-key-value' }));
  assert.equal(key.status, 'FAILURE');
  assert.equal(key.reason, 'IBM IAM token request failed: BXNIM0415E: Provided API key could not be found. (HTTP 400)');
  const ns = await checkConnection('destination', 'ibm_watsonx_s3', config({ namespace: 'nope' }));
  assert.deepEqual([ns.status, ns.reason], ['FAILURE', "Namespace 'nope' does not exist"]);
  const table = await checkConnection('destination', 'ibm_watsonx_s3', config({ table: 'nope' }));
  assert.deepEqual([table.status, table.reason], ['FAILURE', "Table 'nope' does not exist in namespace 'unstructured'"]);
  const cat = await checkConnection('destination', 'ibm_watsonx_s3', config({ catalog: 'other' }));
  assert.equal(cat.status, 'FAILURE');
  assert.equal(cat.reason, "GET /v1/config of catalog 'other' failed: NotFoundException: Catalog other not found (HTTP 404)");
  const hmac = await checkConnection('destination', 'ibm_watsonx_s3', config({ access_key_id: 'WRONGKEY', secret_access_key: 'wrong-hmac-secret' }));
  assert.equal(hmac.status, 'FAILURE');
  assert.match(hmac.reason!, /^ListObjectsV2 s3:\/\/watsonx-lake\/warehouse\/unstructured\/elements on the object storage failed: InvalidAccessKeyId: The AWS Access Key Id you provided does not exist in our records\. \(HTTP 403\)$/);
  assert.ok(!hmac.reason!.includes('wrong-hmac-secret'));
  // One attempt in a check (the platform's precheck uses max_retries=1): a 503 is the FAILURE, not a retry.
  wx.inject(/^HEAD \/mds\/iceberg\/v1\/iceberg_data\/namespaces\/unstructured$/, { status: 503, body: { error: { message: 'catalog is restarting', type: 'ServiceUnavailableException', code: 503 } } });
  const busy = await checkConnection('destination', 'ibm_watsonx_s3', config());
  assert.deepEqual([busy.status, busy.reason], ['FAILURE', "HEAD namespace 'unstructured' failed: Service Unavailable (HTTP 503)"]);
  const v1 = await checkConnection('destination', 'ibm_watsonx_s3', config({ table: 'v1' }));
  assert.deepEqual([v1.status, v1.reason], ['FAILURE', 'the table is Iceberg format version 1; this writer writes format version 2 tables']);
  const part = await checkConnection('destination', 'ibm_watsonx_s3', config({ table: 'partitioned' }));
  assert.deepEqual([part.status, part.reason], ['FAILURE', 'the table is partitioned; this writer writes unpartitioned tables']);
});

test('write: a snapshot per document; a rewrite deletes the document\'s file and appends the new rows; one copy; rows as the platform stages them', async () => {
  await writeThenRewrite('ibm_watsonx_s3', config);

  const t = await readIcebergTable(wx, NS, 'elements');
  assert.equal(t.metadata.snapshots!.length, 3);
  assert.deepEqual(t.metadata.snapshots!.map((s) => s.summary.operation), ['append', 'append', 'overwrite']);
  const last = t.metadata.snapshots![2]!;
  assert.deepEqual([last.summary['deleted-data-files'], last.summary['deleted-records'], last.summary['added-records'], last.summary['total-records']], ['1', '3', '2', '3']);
  assert.equal(BigInt(last['parent-snapshot-id']!), BigInt(t.metadata.snapshots![1]!['snapshot-id']));
  assert.equal(BigInt(t.metadata['last-sequence-number']!), 3n);
  assert.equal(t.entries.length, 2, "b.txt's file and a.txt's new file are live");

  // The commit pyiceberg sends: requirements on the table uuid and the main branch, add-snapshot + set-snapshot-ref.
  const commit = wx.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/tables/elements')).at(-1)!;
  assert.deepEqual(commit.body.requirements.map((r: any) => r.type), ['assert-table-uuid', 'assert-ref-snapshot-id']);
  assert.equal(BigInt(commit.body.requirements[1]['snapshot-id']), BigInt(t.metadata.snapshots![1]!['snapshot-id']));
  assert.deepEqual(commit.body.updates.map((u: any) => u.action), ['add-snapshot', 'set-snapshot-ref']);

  const mine = t.rows.filter((r) => r.record_id === rid('a.txt')).sort((x, y) => x.text.localeCompare(y.text));
  assert.deepEqual(mine.map((r) => r.text), ['Body one, edited', 'Title one']);
  const title = mine[1]!;
  assert.equal(title.embeddings.length, DIMS);
  assert.deepEqual(title.embeddings.slice(0, 3), vec(0).slice(0, 3).map((x) => Math.fround(x)));
  assert.deepEqual([title.type, title.element_id, title.filename, title.filetype, title.url, title.page_number], ['Title', 'el-0-9', 'a.txt', 'text/plain', 's3://b/a.txt', '1']);
  assert.equal(title.date_modified, Date.parse('2026-01-02T03:04:05Z') / 1000);
  assert.deepEqual(title.languages, ['eng']);
  assert.deepEqual(JSON.parse(title.record_locator), { path: 'a.txt' });
  assert.match(title.id, /^[0-9a-f-]{36}$/);
  assert.equal(t.rows.length, 3, 'two rows of a.txt and one of b.txt');

  // Parquet columns carry the Iceberg field ids (readers project by id).
  const s3 = new S3Client({ endpoint: wx.s3Endpoint, forcePathStyle: true, region: 'us-east-1', credentials: S3_CREDENTIALS });
  const m = /^s3:\/\/([^/]+)\/(.*)$/.exec(t.entries[0]!.data_file.file_path)!;
  const bytes = await (await s3.send(new GetObjectCommand({ Bucket: m[1], Key: m[2] }))).Body!.transformToByteArray();
  s3.destroy();
  const meta = await parquetMetadataAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  const ids = meta.schema.filter((s) => s.field_id !== undefined).map((s) => `${s.name}:${s.field_id}`);
  assert.deepEqual(ids.slice(0, 7), ['id:1', 'record_id:2', 'element_id:3', 'text:4', 'type:5', 'embeddings:6', 'element:100']);
  assert.ok(ids.includes('languages:9') && ids.includes('element:101'));

  assert.equal(await removeDocumentRecords('ibm_watsonx_s3', config(), { sourceId: 'src', sourceKey: 'b.txt' }), 1);
  const gone = await readIcebergTable(wx, NS, 'elements');
  assert.deepEqual(gone.rows.map((r) => r.record_id), [rid('a.txt'), rid('a.txt')]);
  assert.equal(gone.metadata.snapshots!.at(-1)!.summary.operation, 'delete');
});

test("copy-on-write: a data file mixing documents (another engine's) is rewritten without the document's rows", async () => {
  const c = config({ table: 'mixed' }) as any;
  const catalog = new IcebergCatalog(c);
  const store = new ObjectStore(c);
  try {
    const { metadata } = await catalog.loadTable();
    const fields = platformFields();
    const cols = fields.filter((f) => ['id', 'record_id', 'element_id', 'text'].includes(f.name));
    const rows = [
      { id: 'x1', record_id: rid('x.txt'), element_id: 'x1', text: 'x one' },
      { id: 'y1', record_id: rid('y.txt'), element_id: 'y1', text: 'y one' },
      { id: 'x2', record_id: rid('x.txt'), element_id: 'x2', text: 'x two' },
    ];
    const bytes = toParquet(cols, rows);
    const dataPath = `${metadata.location}/data/mixed.parquet`;
    await store.put(dataPath, bytes);
    const snapshotId = 7_000_000_000_000_000_001n; // beyond 2^53, as other engines' ids are
    const entry = { status: 1, snapshot_id: snapshotId, sequence_number: null, file_sequence_number: null, data_file: { content: 0, file_path: dataPath, file_format: 'PARQUET', partition: {}, record_count: 3n, file_size_in_bytes: BigInt(bytes.byteLength), lower_bounds: null, upper_bounds: null, key_metadata: null, split_offsets: null, equality_ids: null, sort_order_id: null } };
    const manifest = await encodeContainer(manifestEntryType, MANIFEST_ENTRY_SCHEMA, [entry], { 'format-version': '2', content: 'data' });
    const manifestPath = `${metadata.location}/metadata/other-m0.avro`;
    await store.put(manifestPath, manifest);
    const list = await encodeContainer(manifestFileType, MANIFEST_FILE_SCHEMA, [{ manifest_path: manifestPath, manifest_length: BigInt(manifest.byteLength), partition_spec_id: 0, content: 0, sequence_number: 1n, min_sequence_number: 1n, added_snapshot_id: snapshotId, added_files_count: 1, existing_files_count: 0, deleted_files_count: 0, added_rows_count: 3n, existing_rows_count: 0n, deleted_rows_count: 0n, partitions: null, key_metadata: null }], { 'format-version': '2' });
    const listPath = `${metadata.location}/metadata/snap-other.avro`;
    await store.put(listPath, list);
    await catalog.commit(
      [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': null }],
      [
        { action: 'add-snapshot', snapshot: { 'snapshot-id': snapshotId, 'sequence-number': 1, 'timestamp-ms': Date.now(), 'manifest-list': listPath, summary: { operation: 'append' } } },
        { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': snapshotId },
      ],
    );
  } finally {
    store.close();
  }
  const r = await deliverToDestination('ibm_watsonx_s3', config({ table: 'mixed' }), doc('x.txt', [element(0, 'x new')]));
  assert.deepEqual(r, { written: 1, deleted: 2 });
  const t = await readIcebergTable(wx, NS, 'mixed');
  assert.deepEqual(t.rows.map((row) => row.text).sort(), ['x new', 'y one']);
  assert.equal(BigInt(t.metadata.snapshots!.at(-1)!['parent-snapshot-id']!), 7_000_000_000_000_000_001n, 'the 63-bit parent id kept exactly');
  // The other engine's file is DELETED in the rewritten manifest; its y row lives on in a new file.
  assert.ok(!t.entries.some((e) => e.data_file.file_path.endsWith('/mixed.parquet')));
});

test('concurrent documents into one table: stale commits get 409 and are planned again; nothing is lost or doubled', async () => {
  const sink = logSink();
  const keys = ['c1.txt', 'c2.txt', 'c3.txt', 'c4.txt'];
  await Promise.all(keys.map((k) => deliverToDestination('ibm_watsonx_s3', config({ table: 'concurrent' }), doc(k, elements(3, k)), { log: sink.log })));
  // A rerun of one of them while another writer commits in between: its first commit is stale.
  wx.beforeNextCommit(() => deliverToDestination('ibm_watsonx_s3', config({ table: 'concurrent' }), doc('c5.txt', elements(1, 'c5'))).then(() => undefined));
  await deliverToDestination('ibm_watsonx_s3', config({ table: 'concurrent' }), doc('c1.txt', elements(2, 'c1 again')), { log: sink.log });
  const t = await readIcebergTable(wx, NS, 'concurrent');
  assert.equal(t.rows.length, 3 * 3 + 2 + 1);
  assert.equal(t.rows.filter((r) => r.record_id === rid('c1.txt')).length, 2);
  assert.ok(sink.lines.some((l) => l.msg === 'ibm_watsonx_s3 commit conflict; retrying'), 'a stale commit met 409 and was retried');
  const stale = wx.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/tables/concurrent'));
  assert.ok(stale.length > keys.length + 2, 'more commit requests than commits');
});

test('a value that does not fit the column type refuses the record with the reason; the earlier copy stays', async () => {
  await deliverToDestination('ibm_watsonx_s3', config({ table: 'strict' }), doc('s.txt', [element(0, 'fine')]));
  await assert.rejects(
    deliverToDestination('ibm_watsonx_s3', config({ table: 'strict' }), doc('s.txt', [element(0, 'fine'), element(1, 'bad', { is_continuation: 'perhaps' })])),
    /the table refused a record \(element el-1-3\): column is_continuation is boolean in the table schema, the value "perhaps" does not fit/,
  );
  assert.deepEqual((await readIcebergTable(wx, NS, 'strict')).rows.map((r) => r.text), ['fine']);
});

test('throttling: a 429 with Retry-After from the catalog and a 503 on commit are retried', async () => {
  const sink = logSink();
  wx.inject(/^GET \/mds\/iceberg\/v1\/iceberg_data\/namespaces\/unstructured\/tables\/throttled$/, { status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'Slow down', type: 'TooManyRequestsException', code: 429 } } });
  wx.inject(/^POST \/mds\/iceberg\/v1\/iceberg_data\/namespaces\/unstructured\/tables\/throttled$/, { status: 503, headers: { 'retry-after': '0' }, body: { error: { message: 'Service unavailable', type: 'ServiceUnavailableException', code: 503 } } });
  const r = await deliverToDestination('ibm_watsonx_s3', config({ table: 'throttled' }), doc('t.txt', elements(2)), { log: sink.log });
  assert.deepEqual(r, { written: 2, deleted: 0 });
  assert.deepEqual(sink.lines.filter((l) => l.msg === 'ibm_watsonx_s3 catalog call retried').map((l) => l.fields!.status), [429, 503]);
  assert.equal((await readIcebergTable(wx, NS, 'throttled')).rows.length, 2);
});

test('a revoked IAM token (401 from the catalog) is exchanged for a fresh one once; the write goes through', async () => {
  await deliverToDestination('ibm_watsonx_s3', config({ table: 'throttled' }), doc('r.txt', elements(1)));
  const before = wx.requests.length;
  wx.revokeTokens();
  const r = await deliverToDestination('ibm_watsonx_s3', config({ table: 'throttled' }), doc('r.txt', elements(2)));
  assert.deepEqual(r, { written: 2, deleted: 1 });
  const gets = wx.requests.slice(before).filter((q) => q.method === 'GET').map((q) => q.path.replace(/\?.*/, ''));
  assert.deepEqual(gets, ['/mds/iceberg/v1/config', '/mds/iceberg/v1/config', '/mds/iceberg/v1/iceberg_data/namespaces/unstructured/tables/throttled'], 'the first call was refused (401), then repeated with a new token');
});

test('a write to a catalog that answers 4xx fails the file with the catalog text (no secret)', async () => {
  await assert.rejects(deliverToDestination('ibm_watsonx_s3', config({ table: 'nope' }), doc('n.txt')), (e: Error) => e.message === "load table 'unstructured.nope' failed: NoSuchTableException: Table does not exist: unstructured.nope (HTTP 404)");
  await assert.rejects(deliverToDestination('ibm_watsonx_s3', config({ table: 'v1' }), doc('n.txt')), /format version 1/);
});

test('outbound policy: with private networks denied, a catalog name resolving to loopback is refused', async () => {
  // A check with the policy off caches this key's IAM token, so below the first connection is the catalog's.
  assert.equal((await checkConnection('destination', 'ibm_watsonx_s3', config())).status, 'SUCCESS');
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  try {
    const before = wx.requests.length;
    const c = await checkConnection('destination', 'ibm_watsonx_s3', config({ iceberg_endpoint: wx.endpoint.replace('127.0.0.1', 'localhost') }));
    assert.equal(c.status, 'FAILURE');
    assert.match(c.reason!, /^GET \/v1\/config of catalog 'iceberg_data' at https:\/\/localhost:\d+\/mds\/iceberg failed: .*(loopback|private|not allowed)/i);
    assert.equal(wx.requests.length, before, 'no request reached the catalog');
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});
