// Databricks Volume Delta Tables destination through the registry. The official driver
// (@databricks/sql) talks Thrift TCLIService over HTTP to a SQL warehouse stand-in that decodes it
// with the driver's own generated code and runs the statements on DuckDB; the staged JSON goes
// through the Files API of the workspace stand-in. Read-back is from the engine's table.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { configIssues } from '../../support/connector-tests';
import { checkConnection, deliverToDestination, outputConfig, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { startDatabricksStandIn, type DatabricksStandIn } from '../../../lambdas/connectors/databricks/test-server';
import { documentRecordId } from '../../../lambdas/connectors/records/ids';
import { elements } from './vector-fixtures';
import { trustStandIns } from '../../support/stand-in-ca';

const SECRET = 'dbx-sp-secret-value';
const PAT = 'dapi-personal-token-value';
const TYPE = 'databricks_volume_delta_tables';
let dbx: DatabricksStandIn;
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', TYPE, {
    server_hostname: dbx.url,
    http_path: '/sql/1.0/warehouses/wh1',
    client_id: 'sp-app-id',
    client_secret: SECRET,
    catalog: 'main',
    database: 'analytics',
    volume: 'staging',
    volume_path: 'tmp',
    table_name: 'elements',
    ...over,
  });
const rows = (table = 'elements') => dbx.warehouse!.query('main', 'analytics', `SELECT id, record_id, element_id, text, type, CAST(len(embeddings) AS INTEGER) AS dims, metadata FROM "${table}" ORDER BY text`);

let untrustStandIns: (() => void) | undefined;
before(async () => {
  untrustStandIns = trustStandIns();
  dbx = await startDatabricksStandIn({
    clients: { 'sp-app-id': SECRET },
    tokens: { [PAT]: 'someone@example.com' },
    volumes: ['main.default.staging'],
    warehouse: { id: 'wh1', catalogs: { main: ['default', 'analytics'], hive_metastore: ['default'] } },
  });
});
after(async () => {
  untrustStandIns?.();
  await dbx?.stop();
});

test('config: platform fields; one form of auth; secrets masked; names confined', () => {
  const c = config();
  assert.equal(c.schema, 'default');
  assert.equal(outputConfig('destination', TYPE, c).client_secret, '**********');
  assert.equal(outputConfig('destination', TYPE, config({ client_id: undefined, client_secret: undefined, token: PAT })).token, '**********');
  const issue = (over: Record<string, unknown>) => configIssues(() => config(over)) || undefined;
  assert.match(issue({ token: PAT })!, /token: give either token or client_id and client_secret, not both/);
  assert.match(issue({ client_secret: undefined })!, /token: one form of auth is required/);
  assert.match(issue({ table_name: 'a/b' })!, /table_name: table_name must be one Unity Catalog name/);
  assert.match(issue({ server_hostname: 'https://169.254.169.254' })!, /server_hostname: .*metadata/);
});

test('check: the platform precheck over the warehouse (catalog, database) plus volume and table; failures in Databricks\' words', async () => {
  const ok = await checkConnection('destination', TYPE, config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, 'warehouse /sql/1.0/warehouses/wh1: catalog main, database analytics; table elements will be created; staging volume main.default.staging exists');
  const sent = dbx.warehouse!.statements.map((s) => s.sql);
  assert.deepEqual(sent.slice(0, 5), ['SHOW CATALOGS', 'USE CATALOG `main`', 'SHOW DATABASES', 'USE DATABASE `analytics`', 'SHOW TABLES']);
  const pat = await checkConnection('destination', TYPE, config({ client_id: undefined, client_secret: undefined, token: PAT }));
  assert.equal(pat.status, 'SUCCESS', pat.reason);
  const noCatalog = await checkConnection('destination', TYPE, config({ catalog: 'nope' }));
  assert.equal(noCatalog.status, 'FAILURE');
  assert.match(noCatalog.reason!, /Catalog nope not found in main, hive_metastore/);
  const noDb = await checkConnection('destination', TYPE, config({ database: 'nope' }));
  assert.match(noDb.reason!, /Database nope not found in default, analytics/);
  const badPat = await checkConnection('destination', TYPE, config({ client_id: undefined, client_secret: undefined, token: 'dapi-wrong-token' }));
  assert.equal(badPat.status, 'FAILURE');
  assert.match(badPat.reason!, /401/);
  assert.ok(!badPat.reason!.includes('dapi-wrong-token'));
  const wrongSecret = await checkConnection('destination', TYPE, config({ client_secret: 'not-the-secret' }));
  assert.match(wrongSecret.reason!, /invalid_client: Client authentication failed/);
  assert.ok(!wrongSecret.reason!.includes('not-the-secret'));
  const noVolume = await checkConnection('destination', TYPE, config({ volume: 'gone' }));
  assert.match(noVolume.reason!, /volume main\.default\.gone not found/);
});

test('write: table created as the platform does, rows with id/record_id/embeddings/metadata; a rewrite deletes by record_id first (one copy); staged file removed', async () => {
  const doc = { sourceId: 'src', sourceKey: 'sub/a.txt' };
  const recA = documentRecordId('src', 'sub/a.txt');
  const first = await deliverToDestination(TYPE, config(), { ...doc, elements: elements(3) });
  assert.equal(first.written, 3);
  const second = await deliverToDestination(TYPE, config(), { ...doc, elements: elements(2, 'again') });
  assert.deepEqual(second, { written: 2, deleted: 3 });
  const got = await rows();
  assert.deepEqual(got.map((r) => r.text), ['again 0', 'again 1']);
  assert.ok(got.every((r) => r.record_id === recA && r.dims === 384));
  assert.equal(JSON.parse(String(got[0]!.metadata)).data_source.record_locator.path, 'a.txt');
  assert.notEqual(got[0]!.id, got[0]!.element_id, 'id is the enhanced element id');
  const sent = dbx.warehouse!.statements.map((s) => s.sql);
  assert.ok(sent.some((s) => s.startsWith('CREATE TABLE IF NOT EXISTS `elements` (id STRING NOT NULL PRIMARY KEY, record_id STRING NOT NULL')));
  const del = sent.lastIndexOf(`DELETE FROM \`elements\` WHERE record_id = '${recA}'`);
  const ins = sent.findLastIndex((s) => s.startsWith('INSERT INTO `elements` ('));
  assert.ok(del >= 0 && ins > del, 'the delete comes before the insert');
  assert.match(sent[ins]!, /SELECT .*PARSE_JSON\(metadata\).* FROM json\.`\/Volumes\/main\/default\/staging\/tmp\/sub\/a\.txt\.json`$/);
  const puts = dbx.requests.filter((r) => r.method === 'PUT' && r.path.includes('a.txt.json'));
  assert.equal(puts.length, 2);
  assert.equal(dbx.files.size, 0, 'the staged upload was removed');
  // Another file's records are left alone; removeRecords drops one file's records.
  // A source key with a quote and a backslash: literals escaped as Databricks reads them.
  await deliverToDestination(TYPE, config(), { sourceId: 'src', sourceKey: "it's\\b.txt", elements: elements(1, 'bee') });
  assert.equal((await rows()).length, 3);
  assert.equal(await removeDocumentRecords(TYPE, config(), doc), 2);
  assert.deepEqual((await rows()).map((r) => r.record_id), [documentRecordId('src', "it's\\b.txt")]);
});

test('429 with Retry-After on the warehouse is retried (the driver does not retry ExecuteStatement/OpenSession: the whole file write is); a statement the warehouse rejects fails the file with its message', async () => {
  dbx.fail({ status: 429, headers: { 'retry-after': '1' }, body: 'slow down', match: (r) => r.path.startsWith('/sql/') });
  const before = dbx.requests.length;
  await deliverToDestination(TYPE, config(), { sourceId: 'src', sourceKey: 'c.txt', elements: elements(1, 'sea') });
  assert.ok(dbx.requests.slice(before).filter((r) => r.path.startsWith('/sql/')).length > 1);
  assert.ok((await rows()).some((r) => r.record_id === documentRecordId('src', 'c.txt')));
  // A user table without the columns the stager writes: the INSERT is refused, in the warehouse's words.
  await dbx.warehouse!.query('main', 'analytics', 'CREATE TABLE narrow (id VARCHAR, record_id VARCHAR)');
  await assert.rejects(
    deliverToDestination(TYPE, config({ table_name: 'narrow' }), { sourceId: 'src', sourceKey: 'd.txt', elements: elements(1) }),
    (err: Error) => /SQL warehouse \/sql\/1\.0\/warehouses\/wh1: .*Table "narrow" does not have a column/.test(err.message) && !err.message.includes(SECRET),
  );
  assert.equal(dbx.files.size, 0, 'the staged upload is removed after a failure too');
});

test('outbound policy: with private networks denied, a warehouse host on loopback is refused before anything is sent', async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  try {
    const pat = config({ client_id: undefined, client_secret: undefined, token: PAT, server_hostname: dbx.url.replace('127.0.0.1', 'localhost') });
    const c = await checkConnection('destination', TYPE, pat);
    assert.equal(c.status, 'FAILURE');
    assert.match(c.reason!, /loopback|private|not allowed|refused/i);
    assert.equal(dbx.requests.filter((r) => r.headers.host?.startsWith('localhost')).length, 0, 'nothing reached the stand-in');
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});
