// Snowflake source through the registry and the official snowflake-sdk (HTTPS, the stand-in's
// certificate trusted through CONNECTOR_CA_FILE) against the stand-in account whose SQL really runs
// on PGlite: one CSV document per row as the platform's SQL downloader writes it, keyset paging to
// the end, a version that follows the row, 429 retried, Snowflake's own refusals, the outbound policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFails, checkSucceeds, envScope } from '../../support/connector-tests';
import { checkConnection, listSourceObjects, readSourceObject, validateConfig } from '../../../lambdas/connectors/registry';
import { selfSignedCert } from '../../../lambdas/connectors/azure-ai-search/test-server';
import { startSnowflakeStandIn, type SnowflakeStandIn } from '../../../lambdas/connectors/snowflake/test-server';
import { collect, untext } from './helpers';

const PASSWORD = 'snowflake-src-secret';
let sf: SnowflakeStandIn;
const env = envScope(['CONNECTOR_CA_FILE']);
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('source', 'snowflake', { account: 'myorg-acct', user: 'app', password: PASSWORD, host: '127.0.0.1', port: sf.port, database: 'WF', schema: 'PUBLIC', role: 'SYSADMIN', table_name: 'docs', id_column: 'id', batch_size: 3, ...over });
const queriesSince = (n: number) => sf.requests.slice(n).filter((r) => r.path === '/queries/v1/query-request').map((r) => String(r.body.sqlText));

before(async () => {
  const tls = selfSignedCert();
  env.set({ CONNECTOR_CA_FILE: tls.certFile });
  sf = await startSnowflakeStandIn({ tls: { key: tls.key, cert: tls.cert }, account: 'myorg-acct', users: { app: { password: PASSWORD } }, database: 'WF', schema: 'PUBLIC' });
  await sf.ddl('CREATE TABLE docs (id INTEGER, title VARCHAR, body VARCHAR, price DECIMAL, active BOOLEAN)');
  const values = Array.from({ length: 7 }, (_, i) => `(${i + 1}, 'Title ${i + 1}', 'Body, row ${i + 1}', ${i + 1}, ${i % 2 === 0})`);
  await sf.db.exec(`INSERT INTO "DOCS" ("ID", "TITLE", "BODY", "PRICE", "ACTIVE") VALUES ${values.join(',')}`);
});
after(async () => {
  await sf?.stop();
  env.restore();
});

test('check: login and a select of the configured columns; a missing table, a missing column and a wrong password fail in Snowflake\'s words', async () => {
  const ok = await checkSucceeds('source', 'snowflake', config(), 'table docs in WF.PUBLIC: readable');
  const missing = await checkFails('source', 'snowflake', config({ table_name: 'nope' }), /table nope: .*(does not exist|Table 'NOPE')/);
  const col = await checkConnection('source', 'snowflake', config({ fields: ['nosuch'] }));
  assert.match(col.reason!, /column "nosuch" does not exist/);
  const bad = await checkFails('source', 'snowflake', config({ password: 'wrong-pw-55' }), /cannot log in to 127\.0\.0\.1: Incorrect username or password/);
  for (const r of [missing, col, bad]) assert.ok(!r.reason!.includes(PASSWORD) && !r.reason!.includes('wrong-pw-55'));
});

test('list: every row once, in id order, pages of batch_size (keyset); filename, version, record locator', async () => {
  const n = sf.requests.length;
  const objs = await collect(listSourceObjects('snowflake', config()));
  assert.deepEqual(objs.map((o) => o.key), ['1', '2', '3', '4', '5', '6', '7']);
  assert.deepEqual(queriesSince(n), [
    'SELECT * FROM docs ORDER BY id LIMIT 3',
    'SELECT * FROM docs WHERE id > ? ORDER BY id LIMIT 3',
    'SELECT * FROM docs WHERE id > ? ORDER BY id LIMIT 3',
  ]);
  assert.equal(objs[0]!.filename, 'docs-1.csv');
  assert.match(objs[0]!.version!, /^[0-9a-f]{64}$/);
  assert.deepEqual(objs[0]!.dataSource!.record_locator, { table_name: 'docs', id_column: 'id', id: '1' });
  assert.equal(objs[0]!.dataSource!.url, 'snowflake://127.0.0.1/WF/PUBLIC/docs?id=1');
});

test('read: the row as the platform CSV; fields select columns, the id first', async () => {
  const objs = await collect(listSourceObjects('snowflake', config()));
  const one = await readSourceObject('snowflake', config(), '1');
  assert.equal(untext(one), 'ID,TITLE,BODY,PRICE,ACTIVE\n1,Title 1,"Body, row 1",1,True\n');
  assert.equal(objs[0]!.size, one.byteLength);
  assert.equal(untext(await readSourceObject('snowflake', config({ fields: ['title'] }), '2')), 'ID,TITLE\n2,Title 2\n');
  await assert.rejects(readSourceObject('snowflake', config(), '99'), /no row with id = "99" in table docs/);
});

test('version follows the row; a 429 on a page is retried after Retry-After', async () => {
  const before = await collect(listSourceObjects('snowflake', config()));
  await sf.db.exec(`UPDATE "DOCS" SET "BODY" = 'Edited' WHERE "ID" = 5`);
  sf.inject(/WHERE id > \?/, 429, 1, '0');
  const after = await collect(listSourceObjects('snowflake', config()));
  assert.equal(after.length, 7);
  const v = (objs: typeof before, k: string) => objs.find((o) => o.key === k)!.version;
  assert.notEqual(v(after, '5'), v(before, '5'));
  assert.equal(v(after, '6'), v(before, '6'));
});

test('outbound policy: a host resolving to loopback is refused under CONNECTORS_DENY_PRIVATE_NETWORKS', async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  try {
    await checkFails('source', 'snowflake', config({ host: 'localhost' }), /private network address/);
    await assert.rejects(collect(listSourceObjects('snowflake', config({ host: 'localhost' }))), /private network address/);
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});
