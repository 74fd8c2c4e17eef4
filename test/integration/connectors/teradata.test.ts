// Teradata destination and source through the registry, over the Query Service REST API, against the
// local stand-in (which executes only the statement shapes the connector sends): the platform's table
// created when absent, metadata as JSON or flattened to the table's columns, replace by a delete on
// record_id, batches of batch_size as parameter sets, throttling and Teradata's transient codes
// retried, a refused row failing the file with the database's text; the source's keyset pages to the
// end, the platform's CSV documents, content-hash versions, data_source; outbound policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConnection, deliverToDestination, listSourceObjects, outputConfig, readSourceObject, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId, enhancedElementId } from '../../../lambdas/connectors/records/ids';
import { contentVersion } from '../../../lambdas/connectors/records/row-document';
import { startTeradataStandIn, type TeradataStandIn } from '../../../lambdas/connectors/teradata/test-server';
import { selfSignedCert } from '../../../lambdas/connectors/azure-ai-search/test-server';
import { resetConfig } from '../../../lambdas/config';
import { checkFails, nothingReached } from '../../support/connector-tests';
import { closedPort, collect, untext } from './helpers';
import { DIMS, element, elements, logSink, vec } from './vector-fixtures';

let td: TeradataStandIn;
const PASSWORD = 'td-secret-pw-42';
const dest = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'teradata', { host: td.url, user: 'app', password: PASSWORD, database: 'ingest', table_name: 'elements', batch_size: 50, ...over });
const src = (over: Record<string, unknown> = {}) =>
  validateConfig('source', 'teradata', { host: td.url, user: 'app', password: PASSWORD, database: 'crm', table_name: 'customers', id_column: 'id', batch_size: 2, ...over });
const mine = (table: string, sourceKey: string) => (td.rows('ingest', table) ?? []).filter((r) => r.record_id === documentRecordId('src', sourceKey));
const FLAT_TABLE = '"id" VARCHAR(64) NOT NULL, "record_id" VARCHAR(256), "element_id" VARCHAR(64), "text" VARCHAR(200), "type" VARCHAR(32), "embeddings" VECTOR32, "filename" VARCHAR(100), "languages" VARCHAR(100), "page_number" VARCHAR(10), "date_modified" FLOAT';

before(async () => {
  td = await startTeradataStandIn({ users: { app: { password: PASSWORD }, reader: { password: 'reader-pw', readOnly: true } } });
  td.createTable('ingest', 'flat', FLAT_TABLE);
  td.createTable('crm', 'customers', '"id" INTEGER NOT NULL, "name" VARCHAR(100), "type" VARCHAR(20), "note" VARCHAR(200), "score" FLOAT');
});
after(async () => {
  await td?.stop();
});

test('config: the platform fields, host as a name or the Query Service URL, quoted names without quotes, password masked, dbs_port echoed', () => {
  const bad = (over: Record<string, unknown>, field: string) =>
    assert.throws(() => validateConfig('destination', 'teradata', { host: 'td.example.com', user: 'u', password: 'p', ...over }), (e: any) => e.issues.some((i: any) => i.loc.join('.') === `body.config.${field}`));
  bad({ host: 'td example' }, 'host');
  bad({ table_name: 'a"b' }, 'table_name');
  bad({ database: '' }, 'database');
  bad({ batch_size: 0 }, 'batch_size');
  bad({ dbs_port: 70000 }, 'dbs_port');
  assert.throws(() => validateConfig('source', 'teradata', { host: 'td', user: 'u', password: 'p', table_name: 't', fields: ['ok', 'x"y'] }));
  const c = validateConfig('destination', 'teradata', { host: 'td.example.com', user: 'u', password: 'secret', dbs_port: 1026 });
  assert.equal(c.table_name, 'elements');
  assert.equal(c.batch_size, 50);
  const out = outputConfig('destination', 'teradata', c);
  assert.equal(out.password, '**********');
  assert.equal(out.dbs_port, 1026);
});

test('destination check: authenticated statements on the table; failures carry the database\'s text, never the password', async () => {
  td.createTable('ingest', 'checked', '"id" VARCHAR(64), "record_id" VARCHAR(256), "text" VARCHAR(100), "metadata" JSON');
  const ok = await checkConnection('destination', 'teradata', dest({ table_name: 'checked' }));
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, 'system local: table ingest.checked, 4 columns; deletes by record_id allowed; metadata written as JSON');
  assert.ok(td.statements().some((s) => /^DELETE FROM "ingest"."checked" WHERE "record_id" = \?$/.test(s.query) && String(s.params?.[0]?.[0]).startsWith('connection-check-')));

  const absent = await checkConnection('destination', 'teradata', dest({ table_name: 'not_yet' }));
  assert.equal(absent.status, 'SUCCESS', absent.reason);
  assert.match(absent.reason!, /table ingest\.not_yet does not exist .*the first write creates the platform's elements table \(id, record_id, element_id, text, type, embeddings, metadata\), which needs CREATE TABLE on ingest$/);
  assert.equal(td.columns('ingest', 'not_yet'), undefined, 'the check creates nothing');

  const badPw = await checkConnection('destination', 'teradata', dest({ password: 'wrong-password-123' }));
  assert.equal(badPw.status, 'FAILURE');
  assert.equal(badPw.reason, 'Teradata (HTTP 420 database error): The UserId, Password or Account is invalid. (error 8017)');

  const reader = await checkConnection('destination', 'teradata', dest({ table_name: 'checked', user: 'reader', password: 'reader-pw' }));
  assert.equal(reader.status, 'FAILURE');
  assert.equal(reader.reason, 'Teradata (HTTP 420 database error): The user does not have DELETE access to ingest.checked. (error 3523)');

  const closed = await closedPort();
  const down = await checkConnection('destination', 'teradata', dest({ host: `http://127.0.0.1:${closed}` }), { timeoutMs: 8000 });
  assert.equal(down.status, 'FAILURE');
  assert.match(down.reason!, /^cannot reach 127\.0\.0\.1:\d+: connect ECONNREFUSED/);
  for (const r of [ok, badPw, reader, down]) assert.ok(!r.reason!.includes(PASSWORD) && !r.reason!.includes('wrong-password-123'));
});

test('the system comes from GET /systems: the one whose host matches, else the only one; ambiguous is a FAILURE saying so', async () => {
  const multi = await startTeradataStandIn({ users: { app: { password: PASSWORD } }, systems: [{ name: 'prod', host: '127.0.0.1' }, { name: 'test', host: 'td-test.example' }] });
  const twins = await startTeradataStandIn({ users: { app: { password: PASSWORD } }, systems: [{ name: 'a', host: 'x.example' }, { name: 'b', host: 'y.example' }] });
  try {
    multi.createTable('ingest', 'elements', '"id" VARCHAR(64), "record_id" VARCHAR(256)');
    const r = await checkConnection('destination', 'teradata', dest({ host: multi.url }));
    assert.equal(r.status, 'SUCCESS', r.reason);
    assert.match(r.reason!, /^system prod: /);
    assert.ok(multi.requests.some((q) => q.path === '/systems/prod/queries'));
    const amb = await checkConnection('destination', 'teradata', dest({ host: twins.url }));
    assert.equal(amb.status, 'FAILURE');
    assert.equal(amb.reason, `the Query Service at 127.0.0.1:${twins.port} has 2 systems (a (x.example), b (y.example)) and none with host 127.0.0.1: which one to use is ambiguous`);
  } finally {
    await multi.stop();
    await twins.stop();
  }
});

test('write: the platform\'s table created when absent, metadata as JSON, embeddings as VECTOR32 text; a rewrite replaces the file only', async () => {
  const first = await deliverToDestination('teradata', dest(), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(3) });
  assert.deepEqual(first, { written: 3, deleted: 0 });
  assert.deepEqual(td.columns('ingest', 'elements'), ['id', 'record_id', 'element_id', 'text', 'type', 'embeddings', 'metadata']);
  assert.equal(td.statements().filter((s) => s.query.startsWith('CREATE MULTISET TABLE "ingest"."elements"')).length, 1);
  await deliverToDestination('teradata', dest(), { sourceId: 'src', sourceKey: 'b.txt', elements: elements(1, 'other') });
  const second = await deliverToDestination('teradata', dest(), { sourceId: 'src', sourceKey: 'a.txt', elements: [element(0, 'text 0'), element(7, 'seven')] });
  assert.deepEqual(second, { written: 2, deleted: 3 });
  assert.equal(td.statements().filter((s) => s.query.startsWith('CREATE')).length, 1, 'created once');

  const rows = mine('elements', 'a.txt');
  assert.equal(rows.length, 2);
  assert.equal(mine('elements', 'b.txt').length, 1, 'b.txt untouched');
  const title = rows.find((r) => r.text === 'text 0')!;
  const recordId = documentRecordId('src', 'a.txt');
  assert.equal(title.id, enhancedElementId('el-0-6', recordId));
  assert.equal(title.element_id, 'el-0-6');
  assert.equal(title.type, 'Title');
  const emb = String(title.embeddings).split(',').map(Number);
  assert.equal(emb.length, DIMS);
  assert.deepEqual(emb.slice(0, 3), vec(0).slice(0, 3));
  const meta = JSON.parse(String(title.metadata));
  assert.deepEqual(meta.languages, ['eng']);
  assert.equal(meta.data_source.url, 's3://b/a.txt');
  // values travel as parameters, never inside the SQL text
  const inserts = td.statements().filter((s) => s.query.startsWith('INSERT'));
  assert.ok(inserts.every((s) => s.batch === true && !s.query.includes('text 0') && s.query.endsWith('VALUES (?, ?, ?, ?, ?, ?, ?)')));

  assert.equal(await removeDocumentRecords('teradata', dest(), { sourceId: 'src', sourceKey: 'b.txt' }), 1);
  assert.equal(mine('elements', 'b.txt').length, 0);
});

test('a user-made table: rows flattened and fitted to its columns (reserved words quoted, extra fields dropped)', async () => {
  const sink = logSink();
  const r = await deliverToDestination('teradata', dest({ table_name: 'flat' }), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(2) }, { log: sink.log });
  assert.deepEqual(r, { written: 2, deleted: 0 });
  const rows = mine('flat', 'a.txt');
  assert.equal(rows.length, 2);
  const row = rows.find((x) => x.type === 'Title')!;
  assert.equal(row.filename, 'a.txt');
  assert.equal(row.languages, '["eng"]');
  assert.equal(row.page_number, '1');
  assert.equal(row.date_modified, Date.parse('2026-01-02T03:04:05Z') / 1000);
  assert.equal(String(row.embeddings).split(',').length, DIMS);
  const insert = td.statements().filter((s) => s.query.startsWith('INSERT INTO "ingest"."flat"')).at(-1)!;
  assert.match(insert.query, /^INSERT INTO "ingest"\."flat" \("id", "record_id", "element_id", "text", "type", "embeddings", "filename", "languages", "page_number", "date_modified"\) VALUES/);
  const dropped = sink.lines.find((l) => l.msg === 'teradata columns dropped to fit the table');
  assert.ok((dropped?.fields?.dropped as string[]).includes('filetype'));
});

test('batches honour batch_size; 429 with Retry-After, 503 and deadlock 2631 are retried', async () => {
  const sink = logSink();
  const seen = td.statements().length;
  const isInsert = (q: { body: unknown }) => String((q.body as { query?: string })?.query).startsWith('INSERT');
  td.fail({ status: 429, body: { error: '429', message: 'User has reached the session limit.' }, headers: { 'retry-after': '1' }, match: isInsert });
  td.fail({ status: 503, body: 'Service Unavailable', match: isInsert });
  td.fail({ status: 420, body: { error: '2631', message: 'Transaction ABORTed due to deadlock.' }, match: isInsert });
  const r = await deliverToDestination('teradata', dest({ batch_size: 2 }), { sourceId: 'src', sourceKey: 'batched.txt', elements: elements(5) }, { log: sink.log });
  assert.equal(r.written, 5);
  const sent = td.statements().slice(seen).filter((s) => s.query.startsWith('INSERT'));
  assert.deepEqual(sent.map((s) => s.params!.length), [2, 2, 1], 'three batches of at most batch_size parameter sets');
  const retries = sink.lines.filter((l) => l.msg === 'teradata insert retried');
  assert.equal(retries.length, 3);
  assert.ok(retries.some((l) => l.fields!.delayMs === 1000), `Retry-After honoured: ${JSON.stringify(retries)}`);
  assert.ok(retries.some((l) => /Transaction ABORTed due to deadlock\. \(error 2631\)/.test(String(l.fields!.error))));
  assert.equal(mine('elements', 'batched.txt').length, 5);
});

test('a row the database refuses fails the file with its message, at once (not retried)', async () => {
  const seen = td.statements().length;
  await assert.rejects(
    deliverToDestination('teradata', dest({ table_name: 'flat' }), { sourceId: 'src', sourceKey: 'long.txt', elements: [element(0, 'x'.repeat(500))] }),
    /^Error: insert into ingest\.flat failed: Teradata \(HTTP 420 database error\): Right truncation of string data\. \(error 3996\)$/,
  );
  assert.equal(td.statements().slice(seen).filter((s) => s.query.startsWith('INSERT')).length, 1, 'a final error is not retried');
  await assert.rejects(
    deliverToDestination('teradata', dest({ user: 'reader', password: 'reader-pw', table_name: 'fresh' }), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(1) }),
    /table ingest\.fresh does not exist and could not be created: .*CREATE TABLE access to database ingest\. \(error 3524\)/,
  );
});

test('a bare host is https://host:TERADATA_QUERY_SERVICE_PORT: TLS verified, a private CA trusted through CONNECTOR_CA_FILE, never skipped', async () => {
  const tls = selfSignedCert();
  const secure = await startTeradataStandIn({ users: { app: { password: PASSWORD } }, tls });
  const saved = { ca: process.env.CONNECTOR_CA_FILE, port: process.env.TERADATA_QUERY_SERVICE_PORT };
  const restore = (k: string, v: string | undefined) => (v === undefined ? delete process.env[k] : (process.env[k] = v));
  try {
    secure.createTable('ingest', 'elements', '"id" VARCHAR(64), "record_id" VARCHAR(256), "text" VARCHAR(100), "metadata" JSON');
    process.env.TERADATA_QUERY_SERVICE_PORT = String(secure.tlsPort);
    resetConfig();
    const cfg = dest({ host: '127.0.0.1' });
    const untrusted = await checkConnection('destination', 'teradata', cfg);
    assert.equal(untrusted.status, 'FAILURE');
    assert.match(untrusted.reason!, /^cannot reach 127\.0\.0\.1:\d+: self[- ]signed certificate/);
    process.env.CONNECTOR_CA_FILE = tls.certFile;
    resetConfig();
    const trusted = await checkConnection('destination', 'teradata', cfg);
    assert.equal(trusted.status, 'SUCCESS', trusted.reason);
    assert.deepEqual(await deliverToDestination('teradata', cfg, { sourceId: 'src', sourceKey: 'tls.txt', elements: elements(2) }), { written: 2, deleted: 0 });
    assert.equal(secure.rows('ingest', 'elements')!.length, 2);
    assert.ok(secure.requests.some((q) => q.path === '/systems/local/queries'), 'reached through the https port');
  } finally {
    restore('CONNECTOR_CA_FILE', saved.ca);
    restore('TERADATA_QUERY_SERVICE_PORT', saved.port);
    resetConfig();
    await secure.stop();
  }
});

function seedCustomers(n: number) {
  for (let i = 1; i <= n; i++) td.insert('crm', 'customers', { id: i, name: `Customer, ${i}`, type: i % 2 ? 'gold' : 'basic', note: `says "hi" ${i}`, score: i + 0.5 });
}

test('source check: the table, its id column and fields, the first page; the database\'s text on failure', async () => {
  const ok = await checkConnection('source', 'teradata', src());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.match(ok.reason!, /^system local: table crm\.customers readable by id/);
  const bad = await checkConnection('source', 'teradata', src({ password: 'nope-nope' }));
  assert.equal(bad.reason, 'Teradata (HTTP 420 database error): The UserId, Password or Account is invalid. (error 8017)');
  const missing = await checkConnection('source', 'teradata', src({ table_name: 'ghost' }));
  assert.equal(missing.reason, "Teradata (HTTP 420 database error): Object 'crm.ghost' does not exist. (error 3807)");
  const noId = await checkConnection('source', 'teradata', src({ id_column: 'customer_id' }));
  assert.match(noId.reason!, /^id_column "customer_id" is not a column of table crm\.customers \(columns: id, name, type, note, score\)$/);
});

test('source list: keyset pages of batch_size to the end (429 retried), the platform\'s CSV documents, content versions, data_source', async () => {
  seedCustomers(7);
  const seen = td.statements().length;
  const isList = (q: { body: unknown }) => /^SELECT TOP 2 /.test(String((q.body as { query?: string })?.query));
  td.fail({ status: 429, body: { error: '429', message: 'User has reached the session limit.' }, headers: { 'retry-after': '0' }, match: isList });
  const objs = await collect(listSourceObjects('teradata', src()));
  assert.deepEqual(objs.map((o) => o.key), ['1', '2', '3', '4', '5', '6', '7']);
  const pages = td.statements().slice(seen).filter((s) => s.query.startsWith('SELECT TOP 2'));
  assert.deepEqual(
    pages.map((p) => [p.query, p.params?.[0]?.[0]]),
    [
      ['SELECT TOP 2 * FROM "crm"."customers" ORDER BY "id"', undefined],
      ['SELECT TOP 2 * FROM "crm"."customers" WHERE "id" > ? ORDER BY "id"', 2],
      ['SELECT TOP 2 * FROM "crm"."customers" WHERE "id" > ? ORDER BY "id"', 4],
      ['SELECT TOP 2 * FROM "crm"."customers" WHERE "id" > ? ORDER BY "id"', 6],
    ],
    'four pages (the 429 answered before the stand-in logged the first)',
  );
  const third = objs[2]!;
  const bytes = await readSourceObject('teradata', src(), '3');
  assert.equal(untext(bytes), 'id,name,type,note,score\n3,"Customer, 3",gold,"says ""hi"" 3",3.5\n');
  assert.equal(third.version, contentVersion(bytes));
  assert.equal(third.size, bytes.byteLength);
  assert.equal(third.filename, 'customers-3.csv');
  assert.deepEqual(third.dataSource, {
    url: 'teradata://127.0.0.1:1025/crm/customers?id=3',
    version: third.version,
    record_locator: { host: td.url, table_name: 'customers', id_column: 'id', id: '3' },
  });
});

test('source read: fields restrict the columns (id first, reserved words quoted); a change moves the version; a gone row or table fails with a reason', async () => {
  const cfg = src({ fields: ['type', 'name'] });
  assert.equal(untext(await readSourceObject('teradata', cfg, '2')), 'id,type,name\n2,basic,"Customer, 2"\n');
  assert.ok(td.statements().some((s) => s.query === 'SELECT "id", "type", "name" FROM "crm"."customers" WHERE "id" = ?' && s.params?.[0]?.[0] === 2));
  const listed = await collect(listSourceObjects('teradata', cfg));
  assert.match(listed[0]!.filename!, /^customers-1-[0-9a-f]{8}\.csv$/);

  const before = (await collect(listSourceObjects('teradata', src()))).find((o) => o.key === '5')!.version;
  td.update('crm', 'customers', 'id', 5, { note: 'changed' });
  const afterList = (await collect(listSourceObjects('teradata', src()))).find((o) => o.key === '5')!;
  assert.notEqual(afterList.version, before);
  assert.equal(afterList.version, contentVersion(await readSourceObject('teradata', src(), '5')));
  await assert.rejects(readSourceObject('teradata', src(), '999'), /^Error: no row with id = "999" in table crm\.customers/);
  await assert.rejects(readSourceObject('teradata', src({ table_name: 'gone' }), '1'), /Object 'crm\.gone' does not exist\. \(error 3807\)/);
});

test('source list: a page the Query Service cuts at its row limit fails the listing instead of ending it early', async () => {
  const capped = await startTeradataStandIn({ users: { app: { password: PASSWORD } }, maxRows: 2 });
  try {
    capped.createTable('crm', 'customers', '"id" INTEGER NOT NULL, "name" VARCHAR(100)');
    for (let i = 1; i <= 5; i++) capped.insert('crm', 'customers', { id: i, name: `c${i}` });
    assert.equal((await collect(listSourceObjects('teradata', src({ host: capped.url, batch_size: 2 })))).length, 5);
    await assert.rejects(collect(listSourceObjects('teradata', src({ host: capped.url, batch_size: 3 }))), /the Query Service cut a listing page of table crm\.customers at its row limit \(batch_size 3/);
    assert.ok(capped.requests.some((q) => (q.body as { rowLimit?: number })?.rowLimit === 3), 'each page asks for its own size');
  } finally {
    await capped.stop();
  }
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS: a name resolving to loopback is refused at connect time; nothing reaches the service', async () => {
  await nothingReached(() => td.requests.length, async () => {
    const viaName = `http://localhost:${td.port}`;
    await checkFails('destination', 'teradata', dest({ host: viaName }), /host localhost resolves to a private network address/);
    await assert.rejects(deliverToDestination('teradata', dest({ host: viaName }), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(1) }), /private network address/);
    await assert.rejects(collect(listSourceObjects('teradata', src({ host: viaName }))), /private network address/);
    await assert.rejects(readSourceObject('teradata', src({ host: td.url }), '1'), /private network address/);
    const meta = await checkConnection('source', 'teradata', src({ host: '169.254.169.254' }));
    assert.match(meta.reason!, /instance metadata address/);
  });
});
