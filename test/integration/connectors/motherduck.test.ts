// MotherDuck destination through the registry and DuckDB's own client (@duckdb/node-api). MotherDuck
// is hosted (`md:`) and cannot be reached offline, so the same code runs against a real local DuckDB
// database file (MOTHERDUCK_LOCAL_DATABASE, see duckdb/client.ts): rows as the platform stages them,
// replace by record_id in one transaction, batches of batch_size (seen in DuckDB's query log),
// concurrent files into one table, refusals in DuckDB's words. The `md:` path itself is exercised only
// as far as this machine allows: DuckDB's attempt to fetch the MotherDuck extension fails, and the
// check reports DuckDB's reason without the token.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSucceeds, checkFails } from '../../support/connector-tests';
import { checkConnection, deliverToDestination, outputConfig, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId } from '../../../lambdas/connectors/records/ids';
import { LOCAL_DATABASE_ENV } from '../../../lambdas/connectors/duckdb/client';
import { startLocalMotherDuck, type LocalMotherDuck } from '../../../lambdas/connectors/duckdb/test-server';
import { DIMS, element, elements, vec, writeThenRewrite } from './vector-fixtures';

const TOKEN = 'md-token-secret-1234';
let md: LocalMotherDuck;
const config = (over: Record<string, unknown> = {}) => validateConfig('destination', 'motherduck', { database: md.database, md_token: TOKEN, ...over });
const rid = (key: string) => documentRecordId('src', key);
const doc = (sourceKey: string, els = elements(3)) => ({ sourceId: 'src', sourceKey, elements: els });

before(async () => {
  md = await startLocalMotherDuck('my_db');
});
after(async () => {
  await md?.stop();
});

test('config: the platform connector fields and defaults; md_token masked; missing fields are 422 items', () => {
  const c = config();
  assert.deepEqual([c.db_schema, c.table, c.batch_size], ['main', 'elements', 50]);
  assert.equal(outputConfig('destination', 'motherduck', c).md_token, '**********');
  const issues = (body: unknown) => {
    try {
      validateConfig('destination', 'motherduck', body, ['body', 'config']);
      return [];
    } catch (e: any) {
      return e.issues.map((i: any) => i.loc.join('.')).sort();
    }
  };
  assert.deepEqual(issues({}), ['body.config.database', 'body.config.md_token']);
  assert.deepEqual(issues({ database: 'd', md_token: 't', batch_size: 0 }), ['body.config.batch_size']);
});

test('check: the database, its table and columns; a missing table or database fails with DuckDB\'s reason', async () => {
  await checkSucceeds('destination', 'motherduck', config(), 'local DuckDB file (token not verified): table my_db.main.elements, 40 columns; embeddings column of type FLOAT[]');
  await checkFails('destination', 'motherduck', config({ table: 'nope' }), /table my_db\.main\.nope does not exist \(create it with the columns the platform documents/);
  await checkFails('destination', 'motherduck', config({ database: 'other_db' }), /Catalog Error: .*"other_db"/);
});

test('check over md: (offline here): DuckDB\'s own failure, never the token', async () => {
  const saved = process.env[LOCAL_DATABASE_ENV];
  delete process.env[LOCAL_DATABASE_ENV];
  try {
    const r = await checkConnection('destination', 'motherduck', config(), { timeoutMs: 30_000 });
    assert.equal(r.status, 'FAILURE');
    // Offline (here and on CI) DuckDB cannot fetch its MotherDuck extension; with a network the
    // service would refuse the made-up token instead. Either way: DuckDB's reason, no token.
    assert.match(r.reason!, /^cannot connect to MotherDuck: .*(Failed to download extension "motherduck"|[Tt]oken)/s);
    assert.ok(!r.reason!.includes(TOKEN));
  } finally {
    process.env[LOCAL_DATABASE_ENV] = saved;
  }
});

test('write: rows as the platform stages them; a rewrite replaces the document; other documents untouched', async () => {
  await writeThenRewrite('motherduck', config);

  const rows = await md.query<any>(
    `SELECT id, record_id, element_id, text, type, len(embeddings)::INT AS dims, embeddings[1:3] AS head, filename, filetype, languages, page_number, url, date_modified, record_locator FROM elements WHERE record_id = $1 ORDER BY text`,
    [rid('a.txt')],
  );
  assert.deepEqual(rows.map((r) => r.text), ['Body one, edited', 'Title one']);
  assert.equal(rows[1].dims, DIMS);
  assert.deepEqual(rows[1].head.map((x: number) => Math.round(x * 1e5) / 1e5), vec(0).slice(0, 3).map((x) => Math.round(x * 1e5) / 1e5));
  assert.equal(rows[1].type, 'Title');
  assert.deepEqual([rows[1].filename, rows[1].filetype, rows[1].page_number, rows[1].url], ['a.txt', 'text/plain', '1', 's3://b/a.txt']);
  assert.deepEqual(rows[1].languages, ['eng']);
  assert.equal(rows[1].date_modified, Date.parse('2026-01-02T03:04:05Z') / 1000);
  assert.deepEqual(JSON.parse(rows[1].record_locator), { path: 'a.txt' });
  assert.match(rows[1].id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const [{ n }] = await md.query<{ n: number }>(`SELECT count(*)::INT AS n FROM elements`);
  assert.equal(n, 3, 'two rows of a.txt and one of b.txt');

  assert.equal(await removeDocumentRecords('motherduck', config(), { sourceId: 'src', sourceKey: 'b.txt' }), 1);
  assert.equal((await md.query(`SELECT 1 FROM elements WHERE record_id = $1`, [rid('b.txt')])).length, 0);
});

test('batches: one INSERT per batch_size rows (DuckDB query log)', async () => {
  await md.exec(`CALL enable_logging('QueryLog')`);
  try {
    await deliverToDestination('motherduck', config({ batch_size: 4 }), doc('batched.txt', elements(10)));
    const inserts = await md.query<{ n: number }>(`SELECT count(*)::INT AS n FROM duckdb_logs WHERE type = 'QueryLog' AND message LIKE 'INSERT INTO "my_db"."main"."elements"%'`);
    assert.equal(inserts[0]!.n, 3, '10 rows in batches of 4');
  } finally {
    await md.exec(`CALL disable_logging()`);
  }
  const [{ n }] = await md.query<{ n: number }>(`SELECT count(*)::INT AS n FROM elements WHERE record_id = $1`, [rid('batched.txt')]);
  assert.equal(n, 10);
});

test('concurrent rewrites of different documents into one table all land, one copy each', async () => {
  const keys = ['r1.txt', 'r2.txt', 'r3.txt', 'r4.txt'];
  for (const k of keys) await deliverToDestination('motherduck', config(), doc(k, elements(5)));
  const results = await Promise.all(keys.map((k) => deliverToDestination('motherduck', config(), doc(k, elements(5, k)))));
  assert.deepEqual(results.map((r) => [r.written, r.deleted]), keys.map(() => [5, 5]));
  const counts = await md.query<{ record_id: string; n: number }>(`SELECT record_id, count(*)::INT AS n FROM elements WHERE record_id IN (SELECT unnest($1::VARCHAR[])) GROUP BY record_id`, [`[${keys.map(rid).join(',')}]`]);
  assert.deepEqual(counts.map((r) => r.n), [5, 5, 5, 5]);
});

test("a user's own table without record_id: extra fields dropped, rows replaced by id; a refused value fails with DuckDB's message", async () => {
  await md.exec(`CREATE SCHEMA kb; CREATE TABLE kb.chunks (id VARCHAR, text VARCHAR, embeddings DOUBLE[], category_depth INTEGER)`);
  const cfg = config({ db_schema: 'kb', table: 'chunks' });
  await deliverToDestination('motherduck', cfg, doc('c.txt', [element(0, 'A'), element(1, 'B')]));
  const again = await deliverToDestination('motherduck', cfg, doc('c.txt', [element(0, 'A'), element(1, 'B')]));
  assert.deepEqual(again, { written: 2, deleted: 2 });
  assert.deepEqual(await md.query(`SELECT text, len(embeddings)::INT AS dims, category_depth FROM kb.chunks ORDER BY text`), [
    { text: 'A', dims: DIMS, category_depth: null },
    { text: 'B', dims: DIMS, category_depth: null },
  ]);
  await assert.rejects(
    deliverToDestination('motherduck', cfg, doc('c.txt', [element(0, 'A'), element(1, 'C', { category_depth: 'deep' })])),
    /the table refused a record: .*Failed to cast value to numerical: "deep"/,
  );
  assert.deepEqual((await md.query<{ text: string }>(`SELECT text FROM kb.chunks ORDER BY text`)).map((r) => r.text), ['A', 'B'], 'the failed rewrite rolled back');
});
