// Database, search and stream sources through the whole local stack (HTTP API, jobs, state machine):
// each source → partition (fast) → local destination, run twice. Run 1 processes every record, and
// every element carries the source's data_source (url, version, record_locator); run 2 processes
// none (all unchanged). One stack for all types; each type's server is the one its integration
// test uses.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { startPgTestServer, type PgTestServer } from '../../lambdas/connectors/postgres/test-server';

let stack: TestStack;
const base = mkdtempSync(join(tmpdir(), 'wps-src-records-'));
const stops: (() => Promise<unknown>)[] = [];

before(async () => {
  if (NEEDS_LOCAL) return;
  stack = await startTestStack();
});
after(async () => {
  await stack?.close();
  for (const stop of stops) await stop().catch(() => undefined);
  rmSync(base, { recursive: true, force: true });
});

async function runToEnd(workflowId: string) {
  const run = await stack.call('POST', `/api/v1/workflows/${workflowId}/run`);
  assert.equal(run.status, 202, run.text);
  const job = await eventually(async () => {
    const r = await stack.call('GET', `/api/v1/jobs/${run.body.id}`);
    return ['COMPLETED', 'FAILED', 'STOPPED'].includes(r.body.status) ? r.body : undefined;
  }, 'workflow job', 180_000);
  assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
  return (await stack.call('GET', `/api/v1/jobs/${job.id}/details`)).body;
}

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
