// Database, search and volume sources through the whole local stack (HTTP API, jobs, state machine):
// each source → partition (fast) → local destination, run twice. Run 1 processes every record, and
// every element carries the source's data_source (url, version, record_locator); run 2 processes
// none (all unchanged). One stack for all types; each type's server is the one its integration
// test uses.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows } from '../support/e2e-flows';
import { MongoClient } from 'mongodb';
import { startPgTestServer, type PgTestServer } from '../../lambdas/connectors/postgres/test-server';
import { startMongoStandIn } from '../../lambdas/connectors/mongodb/test-server';
import { startSearchStandIn } from '../../lambdas/connectors/elasticsearch/test-server';
import { startDatabricksStandIn } from '../../lambdas/connectors/databricks/test-server';
import { standInFetch, trustStandIns } from '../support/stand-in-ca';

let stack: TestStack;
const flows = e2eFlows(() => stack);
const base = mkdtempSync(join(tmpdir(), 'wps-src-records-'));
const stops: (() => Promise<unknown>)[] = [];

let untrustStandIns: (() => void) | undefined;
before(async () => {
  untrustStandIns = trustStandIns();
  if (NEEDS_LOCAL) return;
  stack = await startTestStack();
});
after(async () => {
  untrustStandIns?.();
  await stack?.close();
  for (const stop of stops) await stop().catch(() => undefined);
  rmSync(base, { recursive: true, force: true });
});

const runToEnd = async (workflowId: string) => (await flows.runCompleted(workflowId)).details;

/** Source → partition → local folder, run twice; returns the elements written by run 1. */
async function twoRuns(type: string, config: Record<string, unknown>, documents: number): Promise<any[]> {
  const src = await stack.call('POST', '/api/v1/sources/', { body: { name: `src-${type}`, type, config } });
  assert.equal(src.status, 200, src.text);
  const check = await stack.call('POST', `/api/v1/sources/${src.body.id}/connection-check`);
  assert.ok(check.status < 300, check.text);
  const outDir = mkdtempSync(join(base, `${type}-out-`));
  const dest = await stack.call('POST', '/api/v1/destinations/', { body: { name: `out-${type}`, type: 'local', config: { remote_url: outDir } } });
  assert.equal(dest.status, 200, dest.text);
  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: {
      name: `wf-${type}`, workflow_type: 'custom', source_id: src.body.id, destination_id: dest.body.id,
      workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
    },
  });
  assert.equal(wf.status, 200, wf.text);
  const first = await runToEnd(wf.body.id);
  assert.equal(first.source_documents.listed, documents, JSON.stringify(first));
  assert.equal(first.source_documents.processed, documents, JSON.stringify(first));
  const files = readdirSync(outDir, { recursive: true }).map(String).filter((f) => f.endsWith('.json'));
  assert.equal(files.length, documents, files.join(','));
  const elements = files.flatMap((f) => JSON.parse(readFileSync(join(outDir, f), 'utf8')) as any[]);
  for (const e of elements) {
    const ds = e.metadata.data_source;
    assert.ok(ds?.url && ds.version && ds.record_locator && ds.date_processed, JSON.stringify(e.metadata));
  }
  const second = await runToEnd(wf.body.id);
  assert.equal(second.source_documents.processed, 0, JSON.stringify(second));
  assert.equal(second.source_documents.unchanged_skipped, documents, JSON.stringify(second));
  return elements;
}

test('postgres source: one document per row, twice', { skip: NEEDS_LOCAL }, async () => {
  const pg: PgTestServer = await startPgTestServer();
  stops.push(() => pg.stop());
  await pg.db.exec(`CREATE TABLE articles (id INTEGER PRIMARY KEY, title TEXT, body TEXT)`);
  await pg.db.exec(`INSERT INTO articles VALUES (1, 'First', 'The first article body.'), (2, 'Second', 'The second one.'), (3, 'Third', 'And a third.')`);
  const elements = await twoRuns('postgres', { host: pg.host, port: pg.port, database: 'postgres', username: 'app', password: 'pw', table_name: 'articles', batch_size: 2 }, 3);
  const second = elements.find((e) => e.metadata.data_source.record_locator.id === '2');
  assert.ok(second, 'elements of row 2');
  assert.equal(second.metadata.filename, 'articles-2.csv');
  assert.deepEqual(second.metadata.data_source.record_locator, { table_name: 'articles', id_column: 'id', id: '2' });
  assert.match(JSON.stringify(elements.filter((e) => e.metadata.filename === 'articles-2.csv').map((e) => e.text)), /The second one/);
});

test('mongodb source: one document per record, twice', { skip: NEEDS_LOCAL }, async () => {
  const mg = await startMongoStandIn({ users: { app: { password: 'mongo-pw' } } });
  stops.push(() => mg.stop());
  mg.createCollection('shop', 'products');
  const client = new MongoClient(mg.uri('app', 'mongo-pw'));
  await client.db('shop').collection('products').insertMany([
    { name: 'Kettle', description: 'A kettle that boils water quickly.' },
    { name: 'Teapot', description: 'A teapot for loose leaf tea.' },
  ]);
  await client.close();
  const elements = await twoRuns('mongodb', { uri: mg.uri('app', 'mongo-pw'), database: 'shop', collection: 'products' }, 2);
  assert.ok(elements.every((e) => /^[0-9a-f]{24}\.txt$/.test(e.metadata.filename)), 'named <_id>.txt');
  assert.deepEqual(Object.keys(elements[0].metadata.data_source.record_locator).sort(), ['collection', 'database', 'document_id']);
});

test('elasticsearch source: one document per hit, twice', { skip: NEEDS_LOCAL }, async () => {
  const es = await startSearchStandIn({ dialect: 'elasticsearch' });
  stops.push(() => es.stop());
  const lines = ['a', 'b', 'c'].flatMap((id) => [JSON.stringify({ index: { _index: 'kb', _id: id } }), JSON.stringify({ title: `Entry ${id}`, body: `Knowledge base entry ${id}.` })]);
  const res = await standInFetch(`${es.url}/_bulk`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: lines.join('\n') + '\n' });
  assert.equal(res.status, 200);
  const elements = await twoRuns('elasticsearch', { hosts: [es.url], es_api_key: 'unused-key', index_name: 'kb' }, 3);
  const b = elements.find((e) => e.metadata.filename === 'kb-b.txt');
  assert.ok(b, 'elements of kb-b.txt');
  assert.equal(b.metadata.data_source.version, '1');
  assert.deepEqual(b.metadata.data_source.record_locator, { hosts: [es.url], index_name: 'kb', document_id: 'b' });
});

test('databricks_volumes source: the files of the volume path, twice', { skip: NEEDS_LOCAL }, async () => {
  const dbx = await startDatabricksStandIn({ clients: { sp: 'sp-secret' }, volumes: ['main.default.docs'], listPageSize: 2 });
  stops.push(() => dbx.stop());
  for (const n of ['one', 'two', 'three']) dbx.put(`/Volumes/main/default/docs/in/${n}.txt`, `File ${n}\n\nThe text of file ${n}.\n`);
  const elements = await twoRuns('databricks_volumes', { host: dbx.url, client_id: 'sp', client_secret: 'sp-secret', catalog: 'main', volume: 'docs', volume_path: 'in' }, 3);
  assert.ok(elements.some((e) => e.metadata.data_source.url === '/Volumes/main/default/docs/in/two.txt'));
});
