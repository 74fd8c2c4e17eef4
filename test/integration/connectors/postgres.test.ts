// Postgres destination against a real Postgres (PGlite with pgvector behind its socket server, the
// `pg` driver over the wire): rows as the platform's SQL connector writes them, replace by record_id
// in one transaction, fitting a user's own table, refusals with the server's message.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConnection, deliverToDestination, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId } from '../../../lambdas/connectors/records/ids';
import { platformElementsTable, startPgTestServer, type PgTestServer } from '../../../lambdas/connectors/postgres/test-server';

let pg: PgTestServer;
const config = (over: Record<string, unknown> = {}) => ({
  host: pg.host, port: pg.port, database: 'postgres', username: 'postgres', password: 'pw', table_name: 'elements', batch_size: 50, ...over,
});

const vec = (seed: number, dims = 384) => Array.from({ length: dims }, (_, i) => Math.round(Math.sin(seed + i) * 1e6) / 1e6);
const element = (i: number, text: string, extra: Record<string, unknown> = {}) => ({
  type: i === 0 ? 'Title' : 'NarrativeText',
  element_id: `el-${i}-${text.length}`,
  text,
  metadata: { filename: 'a.txt', filetype: 'text/plain', languages: ['eng'], page_number: 1, data_source: { url: 's3://b/a.txt', date_modified: '2026-01-02T03:04:05Z', record_locator: { path: 'a.txt' } }, ...extra },
  embeddings: vec(i),
});

before(async () => {
  pg = await startPgTestServer();
  await pg.db.exec(platformElementsTable());
});
after(async () => {
  await pg?.stop();
});

test('config: batch_size and port ranges, table name shape (422 items)', () => {
  assert.throws(() => validateConfig('destination', 'postgres', config({ batch_size: 0 }), ['body', 'config']), (e: any) => e.issues.some((i: any) => i.loc.join('.') === 'body.config.batch_size'));
  assert.throws(() => validateConfig('destination', 'postgres', config({ port: 70000 }), ['body', 'config']), (e: any) => e.issues.some((i: any) => i.loc.join('.') === 'body.config.port'));
  assert.throws(() => validateConfig('destination', 'postgres', config({ table_name: 'a..b' }), ['body', 'config']), (e: any) => e.issues.some((i: any) => i.loc.join('.') === 'body.config.table_name'));
  assert.ok(validateConfig('destination', 'postgres', config({ table_name: 'public.elements' }), ['body', 'config']));
});

test('check: a real connection and the table; missing table and unreachable server fail with the reason', async () => {
  const ok = await checkConnection('destination', 'postgres', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.match(ok.reason!, /table elements: 40 columns, INSERT and DELETE allowed; embeddings column of type vector/);
  const missing = await checkConnection('destination', 'postgres', config({ table_name: 'nope' }));
  assert.equal(missing.status, 'FAILURE');
  assert.match(missing.reason!, /table nope does not exist/);
  const closed = await checkConnection('destination', 'postgres', config({ port: 1 }), { timeoutMs: 5000 });
  assert.equal(closed.status, 'FAILURE');
  assert.match(closed.reason!, /cannot connect to 127\.0\.0\.1:1\/postgres: .*ECONNREFUSED/);
  assert.ok(!closed.reason!.includes('pw'), 'no password in the reason');
});

test('write: rows as the platform stages them; a rewrite replaces the document, other documents untouched', async () => {
  const doc = { sourceId: 'src-1', sourceKey: 'a.txt' };
  const other = { sourceId: 'src-1', sourceKey: 'b.txt' };
  const first = await deliverToDestination('postgres', config(), { ...doc, elements: [element(0, 'Title one'), element(1, 'Body one'), element(2, 'Body two')] });
  assert.deepEqual(first, { written: 3, deleted: 0 });
  await deliverToDestination('postgres', config(), { ...other, elements: [element(0, 'Other doc')] });
  const second = await deliverToDestination('postgres', config(), { ...doc, elements: [element(0, 'Title one'), element(1, 'Body one, edited')] });
  assert.deepEqual(second, { written: 2, deleted: 3 });

  const rid = documentRecordId('src-1', 'a.txt');
  const rows = (await pg.db.query<any>(`SELECT id, record_id, element_id, text, type, embeddings::text AS emb, vector_dims(embeddings) AS dims, filename, languages, page_number, url, date_modified, record_locator FROM elements WHERE record_id = $1 ORDER BY text`, [rid])).rows;
  assert.equal(rows.length, 2);
  assert.deepEqual(rows.map((r) => r.text), ['Body one, edited', 'Title one']);
  assert.equal(rows[0].dims, 384);
  assert.deepEqual(JSON.parse(rows[1].emb).slice(0, 3), vec(0).slice(0, 3));
  assert.equal(rows[1].type, 'Title');
  assert.equal(rows[1].filename, 'a.txt');
  assert.deepEqual(rows[1].languages, ['eng']);
  assert.equal(rows[1].page_number, '1');
  assert.equal(rows[1].url, 's3://b/a.txt');
  assert.equal(new Date(rows[1].date_modified).toISOString(), '2026-01-02T03:04:05.000Z');
  assert.deepEqual(JSON.parse(rows[1].record_locator), { path: 'a.txt' });
  assert.match(rows[1].id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const count = (await pg.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM elements`)).rows[0]!.n;
  assert.equal(count, 3, 'two rows of a.txt and one of b.txt');

  assert.equal(await removeDocumentRecords('postgres', config(), other), 1);
  assert.equal((await pg.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM elements WHERE record_id = $1`, [documentRecordId('src-1', 'b.txt')])).rows[0]!.n, 0);
});

test("a user's own table: extra fields dropped, absent columns null, float[] embeddings, schema-qualified name", async () => {
  await pg.db.exec(`CREATE SCHEMA IF NOT EXISTS kb; CREATE TABLE kb.chunks (id UUID PRIMARY KEY, record_id TEXT, text TEXT, embeddings FLOAT8[], page_number INTEGER, note TEXT)`);
  const r = await deliverToDestination('postgres', config({ table_name: 'kb.chunks', batch_size: 1 }), { sourceId: 's', sourceKey: 'c.pdf', elements: [element(0, 'A'), element(1, 'B')] });
  assert.equal(r.written, 2);
  const rows = (await pg.db.query<any>(`SELECT text, array_length(embeddings, 1) AS dims, page_number, note FROM kb.chunks ORDER BY text`)).rows;
  assert.deepEqual(rows, [
    { text: 'A', dims: 384, page_number: 1, note: null },
    { text: 'B', dims: 384, page_number: 1, note: null },
  ]);
});

test('a record the table refuses fails the write with the server message, and the earlier copy stays', async () => {
  await pg.db.exec(`CREATE TABLE strict_t (id UUID PRIMARY KEY, record_id VARCHAR, text VARCHAR(8))`);
  const cfg = config({ table_name: 'strict_t' });
  const doc = { sourceId: 's', sourceKey: 'd.txt' };
  await deliverToDestination('postgres', cfg, { ...doc, elements: [element(0, 'short')] });
  await assert.rejects(
    deliverToDestination('postgres', cfg, { ...doc, elements: [element(0, 'fine'), element(1, 'far too long for the column')] }),
    /the table refused a record: value too long for type character varying\(8\).*SQLSTATE 22001/,
  );
  const rows = (await pg.db.query<{ text: string }>(`SELECT text FROM strict_t`)).rows;
  assert.deepEqual(rows.map((r) => r.text), ['short'], 'the failed rewrite rolled back: the previous copy is intact');
});
