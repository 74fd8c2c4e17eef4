// Snowflake destination through the registry and the official snowflake-sdk, over HTTPS (self-signed,
// trusted through CONNECTOR_CA_FILE) against the stand-in account that speaks the SDK's REST protocol
// and runs the SQL it receives on a real engine (PGlite): rows as the platform's SQL stager shapes
// them, the platform's INSERT ... SELECT PARSE_JSON(...)::VECTOR ... FROM VALUES with array binding,
// replace by DELETE on record_id in one transaction, batches, retries, refusals in Snowflake's words.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFails, checkSucceeds, configIssues, envScope, nothingReached, withEnv } from '../../support/connector-tests';
import { checkConnection, deliverToDestination, outputConfig, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId, enhancedElementId } from '../../../lambdas/connectors/records/ids';
import { selfSignedCert } from '../../../lambdas/connectors/azure-ai-search/test-server';
import { platformElementsTable, startSnowflakeStandIn, type SnowflakeStandIn } from '../../../lambdas/connectors/snowflake/test-server';
import { closedPort } from './helpers';
import { DIMS, element, elements, logSink, vec } from './vector-fixtures';

const PASSWORD = 'snowflake-pw-secret';
let sf: SnowflakeStandIn;
const env = envScope(['CONNECTOR_CA_FILE']);
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'snowflake', { account: 'myorg-acct', user: 'app', password: PASSWORD, host: '127.0.0.1', port: sf.port, database: 'WF', schema: 'PUBLIC', role: 'SYSADMIN', ...over });
const mine = async (sourceKey: string, table = 'elements') => (await sf.rows(table)).filter((r) => r.record_id === documentRecordId('src', sourceKey));
const queriesSince = (n: number) => sf.requests.slice(n).filter((r) => r.path === '/queries/v1/query-request').map((r) => String(r.body.sqlText));

before(async () => {
  const tls = selfSignedCert();
  env.set({ CONNECTOR_CA_FILE: tls.certFile });
  sf = await startSnowflakeStandIn({ tls: { key: tls.key, cert: tls.cert }, account: 'myorg-acct', users: { app: { password: PASSWORD }, reader: { password: 'reader-pw-1', readOnly: true } }, database: 'WF', schema: 'PUBLIC' });
  await sf.ddl(platformElementsTable('elements', DIMS));
  await sf.ddl('CREATE TABLE no_record (id VARCHAR(36), text VARCHAR, embeddings VECTOR(FLOAT, 384))');
});
after(async () => {
  await sf?.stop();
  env.restore();
});

test('config: the platform fields and defaults; the password masked; identifiers and hosts checked', () => {
  const c = config();
  assert.equal(outputConfig('destination', 'snowflake', c).password, '**********');
  assert.deepEqual([c.table_name, c.batch_size, c.port], ['elements', 50, sf.port]);
  const issue = (over: Record<string, unknown>) => configIssues(() => validateConfig('destination', 'snowflake', { account: 'o-a', user: 'u', password: 'p', host: 'o-a.snowflakecomputing.com', database: 'D', schema: 'S', role: 'R', ...over })) || undefined;
  assert.equal(issue({}), undefined);
  assert.match(issue({ table_name: 'elements; DROP TABLE x' })!, /body\.config\.table_name: table_name must be an unquoted Snowflake identifier/);
  assert.match(issue({ host: 'https://o-a.snowflakecomputing.com' })!, /body\.config\.host: .* is not a host name/);
  assert.match(issue({ host: '169.254.169.254' })!, /body\.config\.host: host 169\.254\.169\.254 is an instance metadata address/);
  assert.match(issue({ batch_size: 0 })!, /body\.config\.batch_size/);
});

test('check: login, SELECT 1, SHOW COLUMNS, a harmless delete; bad password, missing table, read-only role, untrusted TLS, closed port fail with the reason', async () => {
  const ok = await checkSucceeds('destination', 'snowflake', config(), "table elements in WF.PUBLIC: 44 columns; embeddings VECTOR(FLOAT, 384); record_id present (rewrites replace a file's rows); deletes accepted");

  const bad = await checkFails('destination', 'snowflake', config({ password: 'wrong-password-9' }), /^cannot log in to 127\.0\.0\.1: Incorrect username or password was specified\. \(code 390100/);

  const missing = await checkFails('destination', 'snowflake', config({ table_name: 'absent' }), /^table absent does not exist in WF\.PUBLIC: create it with the columns the platform documents .*Snowflake: SQL compilation error:\nTable 'ABSENT' does not exist or not authorized\. \(code 002003, SQL state 42S02\)$/);

  const noRecord = await checkConnection('destination', 'snowflake', config({ table_name: 'no_record' }));
  assert.equal(noRecord.reason, 'table no_record has no record_id column: add it (VARCHAR) so that a rewrite replaces a file\'s rows');

  const reader = await checkFails('destination', 'snowflake', config({ user: 'reader', password: 'reader-pw-1' }), /^table elements refused a delete: SQL access control error:\nInsufficient privileges to operate on table 'ELEMENTS' \(code 003001, SQL state 42501\)$/);

  const untrusted = await withEnv({ CONNECTOR_CA_FILE: undefined }, () => checkConnection('destination', 'snowflake', config(), { timeoutMs: 15_000 }));
  assert.equal(untrusted.status, 'FAILURE');
  assert.match(untrusted.reason!, /^cannot log in to 127\.0\.0\.1: .*self-signed certificate/);

  const down = await checkConnection('destination', 'snowflake', config({ port: await closedPort() }), { timeoutMs: 15_000 });
  assert.equal(down.status, 'FAILURE');
  assert.match(down.reason!, /^cannot log in to 127\.0\.0\.1: .*ECONNREFUSED/);
  for (const r of [bad, missing, reader, untrusted, down]) assert.ok(!r.reason!.includes(PASSWORD) && !r.reason!.includes('wrong-password-9'), r.reason);
});

test('write: the platform\'s rows and statement; a rewrite deletes the file\'s earlier rows first, in one transaction', async () => {
  let from = sf.requests.length;
  const first = await deliverToDestination('snowflake', config(), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(3) });
  assert.deepEqual(first, { written: 3, deleted: 0 });
  const q = queriesSince(from);
  assert.deepEqual(q.map((s) => s.split(' ')[0]), ['SHOW', 'BEGIN', 'DELETE', 'INSERT', 'COMMIT']);
  assert.equal(q[2], 'DELETE FROM elements WHERE RECORD_ID = ?');
  assert.match(q[3]!, /^INSERT INTO elements \(ID,RECORD_ID,ELEMENT_ID,TEXT,EMBEDDINGS,TYPE,.*\) SELECT \$1,\$2,\$3,\$4,PARSE_JSON\(\$5\)::VECTOR\(FLOAT,384\),\$6,.* FROM VALUES \(\?(,\?)+\)$/);
  const insert = sf.requests.slice(from).find((r) => String(r.body?.sqlText).startsWith('INSERT'))!;
  assert.equal((insert.body.bindings['1'].value as string[]).length, 3, 'array binding: one request for the batch');

  await deliverToDestination('snowflake', config(), { sourceId: 'src', sourceKey: 'b.txt', elements: elements(1, 'other') });
  from = sf.requests.length;
  const second = await deliverToDestination('snowflake', config(), { sourceId: 'src', sourceKey: 'a.txt', elements: [element(0, 'text 0'), element(7, 'seven')] });
  assert.deepEqual(second, { written: 2, deleted: 3 });
  const rows = await mine('a.txt');
  assert.deepEqual(rows.map((r) => r.text).sort(), ['seven', 'text 0']);
  assert.equal((await mine('b.txt')).length, 1, 'b.txt untouched');

  const title = rows.find((r) => r.text === 'text 0')!;
  assert.equal(title.id, enhancedElementId('el-0-6', documentRecordId('src', 'a.txt')));
  assert.equal(title.element_id, 'el-0-6');
  assert.equal(title.type, 'Title');
  assert.equal(title.embeddings.length, DIMS);
  assert.ok(Math.abs(title.embeddings[1] - vec(0)[1]!) < 1e-6);
  assert.deepEqual(title.languages, ['eng']);
  assert.equal(title.filename, 'a.txt');
  assert.equal(title.url, 's3://b/a.txt');
  assert.equal(title.page_number, '1');
  assert.equal(new Date(title.date_modified).toISOString(), '2026-01-02T03:04:05.000Z');
  assert.equal(JSON.parse(title.record_locator).path, 'a.txt');

  assert.equal(await removeDocumentRecords('snowflake', config(), { sourceId: 'src', sourceKey: 'b.txt' }), 1);
  assert.equal((await mine('b.txt')).length, 0);
});

test('batches honour batch_size; a 503 from the service is retried to one copy', async () => {
  const sink = logSink();
  let from = sf.requests.length;
  await deliverToDestination('snowflake', config({ batch_size: 2 }), { sourceId: 'src', sourceKey: 'batched.txt', elements: elements(5) }, { log: sink.log });
  const sizes = sf.requests.slice(from).filter((r) => String(r.body?.sqlText).startsWith('INSERT')).map((r) => (r.body.bindings['1'].value as string[]).length);
  assert.deepEqual(sizes, [2, 2, 1]);
  assert.equal((await mine('batched.txt')).length, 5);

  sf.inject(/^INSERT/, 503, 2, '1');
  from = sf.requests.length;
  const r = await deliverToDestination('snowflake', config({ batch_size: 2 }), { sourceId: 'src', sourceKey: 'batched.txt', elements: elements(5) }, { log: sink.log });
  assert.deepEqual(r, { written: 5, deleted: 5 });
  assert.equal((await mine('batched.txt')).length, 5, 'one copy after the retried requests');
  assert.ok(sf.requests.slice(from).filter((x) => String(x.body?.sqlText).startsWith('INSERT')).length >= 5, 'the refused requests were sent again');
});

test('a row the table refuses (wrong vector dimension) fails the file with Snowflake\'s message and leaves the previous copy', async () => {
  await deliverToDestination('snowflake', config(), { sourceId: 'src', sourceKey: 'keep.txt', elements: elements(2) });
  const wrong = { ...element(0, 'short'), embeddings: [0.1, 0.2, 0.3] };
  await assert.rejects(
    deliverToDestination('snowflake', config(), { sourceId: 'src', sourceKey: 'keep.txt', elements: [element(1, 'fine'), wrong] }),
    (err: Error) => /^the table refused a record: Cannot cast array of length 3 to VECTOR\(FLOAT, 384\): dimension mismatch \(code 100038, SQL state 22000\)$/.test(err.message),
  );
  assert.deepEqual((await mine('keep.txt')).map((r) => r.text).sort(), ['text 0', 'text 1'], 'rolled back: the previous copy is intact');
  await assert.rejects(
    deliverToDestination('snowflake', config({ user: 'reader', password: 'reader-pw-1' }), { sourceId: 'src', sourceKey: 'r.txt', elements: elements(1) }),
    (err: Error) => err.message === "cannot remove the earlier rows of the file from elements: SQL access control error:\nInsufficient privileges to operate on table 'ELEMENTS' (code 003001, SQL state 42501)",
  );
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS: a name resolving to loopback is refused before any request', async () => {
  const named = config({ host: 'localhost' });
  await nothingReached(() => sf.requests.length, async () => {
    assert.throws(() => config(), /body\.config\.host: host 127\.0\.0\.1 resolves to a private network address/);
    await checkFails('destination', 'snowflake', named, /host localhost resolves to a private network address/, { timeoutMs: 8000 });
    await assert.rejects(deliverToDestination('snowflake', named, { sourceId: 'src', sourceKey: 'a.txt', elements: elements(1) }), /private network address/);
  }, { message: 'nothing reached the service' });
});
