// Postgres source against a real Postgres (PGlite behind its socket server, the `pg` driver over the
// wire): one CSV document per row as the platform's SQL downloader writes it, keyset paging to the
// end, a version that changes with the row, the server's own refusals, and the outbound policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConnection, listSourceObjects, readSourceObject, validateConfig } from '../../../lambdas/connectors/registry';
import { startPgTestServer, type PgTestServer } from '../../../lambdas/connectors/postgres/test-server';
import { collect, untext } from './helpers';

let pg: PgTestServer;
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('source', 'postgres', { host: pg.host, port: pg.port, database: 'postgres', username: 'postgres', password: 'sekrit-pw', table_name: 'docs', batch_size: 3, ...over });

before(async () => {
  pg = await startPgTestServer();
  await pg.db.exec(`CREATE TABLE docs (id INTEGER PRIMARY KEY, title TEXT, body TEXT, score NUMERIC, ok BOOLEAN, created TIMESTAMPTZ)`);
  const values = Array.from({ length: 10 }, (_, i) => `(${i + 1}, 'Title ${i + 1}', 'Body of row ${i + 1}', ${i + 0.5}, ${i % 2 === 0}, '2026-01-0${(i % 9) + 1}T10:00:00Z')`);
  await pg.db.exec(`INSERT INTO docs VALUES ${values.join(',')}`);
  await pg.db.exec(`INSERT INTO docs VALUES (11, 'Quoted, "title"', E'two\\nlines', NULL, NULL, NULL)`);
});
after(async () => {
  await pg?.stop();
});

test('check: a real query of the table and its columns; missing table, missing field and bad port fail with the server text, no password', async () => {
  const ok = await checkConnection('source', 'postgres', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.match(ok.reason!, /table docs: 6 columns readable/);
  const missing = await checkConnection('source', 'postgres', config({ table_name: 'nope' }));
  assert.equal(missing.status, 'FAILURE');
  assert.match(missing.reason!, /^table nope: relation "nope" does not exist; SQLSTATE 42P01$/);
  const field = await checkConnection('source', 'postgres', config({ fields: ['title', 'nosuch'] }));
  assert.match(field.reason!, /column "nosuch" does not exist/);
  const closed = await checkConnection('source', 'postgres', config({ port: 1 }), { timeoutMs: 5000 });
  assert.equal(closed.status, 'FAILURE');
  assert.match(closed.reason!, /cannot connect to 127\.0\.0\.1:1\/postgres: .*ECONNREFUSED/);
  for (const r of [missing, field, closed]) assert.ok(!r.reason!.includes('sekrit-pw'));
});

test('list: every row once, in id order, across pages of batch_size; the platform filename, version and record locator', async () => {
  const objs = await collect(listSourceObjects('postgres', config()));
  assert.deepEqual(objs.map((o) => o.key), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11']);
  const first = objs[0]!;
  assert.equal(first.filename, 'docs-1.csv');
  assert.match(first.version!, /^[0-9a-f]{64}$/);
  assert.equal(first.dataSource!.version, first.version);
  assert.deepEqual(first.dataSource!.record_locator, { table_name: 'docs', id_column: 'id', id: '1' });
  assert.match(first.dataSource!.url!, /^postgresql:\/\/127\.0\.0\.1:\d+\/postgres\/docs\?id=1$/);
  assert.equal(new Set(objs.map((o) => o.version)).size, objs.length, 'each row its own version');
  // batch_size 1: paging one row at a time still reaches the end.
  assert.equal((await collect(listSourceObjects('postgres', config({ batch_size: 1 })))).length, 11);
});

test('read: the row as the platform CSV (header + row, quoted where needed); size and version match the bytes listed', async () => {
  const objs = await collect(listSourceObjects('postgres', config()));
  const one = await readSourceObject('postgres', config(), '1');
  assert.equal(untext(one), 'id,title,body,score,ok,created\n1,Title 1,Body of row 1,0.5,True,2026-01-01 10:00:00+00\n');
  assert.equal(objs[0]!.size, one.byteLength);
  const quoted = untext(await readSourceObject('postgres', config(), '11'));
  assert.equal(quoted, 'id,title,body,score,ok,created\n11,"Quoted, ""title""","two\nlines",,,\n');
  // Configured fields: the id column first, then the fields; the filename carries the fields' hash.
  const some = config({ fields: ['title'] });
  assert.equal(untext(await readSourceObject('postgres', some, '2')), 'id,title\n2,Title 2\n');
  const listed = await collect(listSourceObjects('postgres', some));
  assert.match(listed[1]!.filename!, /^docs-2-[0-9a-f]{8}\.csv$/);
});

test('version: changes when the row changes, stays when another row does', async () => {
  const before = await collect(listSourceObjects('postgres', config()));
  await pg.db.exec(`UPDATE docs SET body = 'Edited body' WHERE id = 4`);
  const after = await collect(listSourceObjects('postgres', config()));
  const v = (objs: typeof before, k: string) => objs.find((o) => o.key === k)!.version;
  assert.notEqual(v(after, '4'), v(before, '4'));
  assert.equal(v(after, '5'), v(before, '5'));
  assert.match(untext(await readSourceObject('postgres', config(), '4')), /Edited body/);
});

test('read: a row gone since listing is that document\'s failure with the reason', async () => {
  await assert.rejects(readSourceObject('postgres', config(), '999'), /no row with id = "999" in table docs/);
  await assert.rejects(readSourceObject('postgres', config(), 'not-a-number'), /invalid input syntax for type integer/);
});

test('outbound policy: a host resolving to loopback is refused under CONNECTORS_DENY_PRIVATE_NETWORKS', async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  try {
    const r = await checkConnection('source', 'postgres', config({ host: 'localhost' }));
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /private network address/);
    await assert.rejects(collect(listSourceObjects('postgres', config({ host: 'localhost' }))), /private network address/);
    await assert.rejects(readSourceObject('postgres', config({ host: 'localhost' }), '1'), /private network address/);
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});
