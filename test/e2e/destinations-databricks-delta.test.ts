// A workflow writing into a Databricks Volume Delta Table through the HTTP API: local source →
// partition → chunk → embed (built-in 384-dim embedder) → databricks_volume_delta_tables, run twice,
// against the workspace stand-in (OAuth M2M, Files API) and its SQL warehouse (Thrift over HTTP from
// the official driver, statements run on DuckDB). Read back from the table: one copy of each file's
// rows, 384-dim embeddings, metadata. A destination naming a missing catalog fails its check and its
// files with the warehouse's reason; the job finishes and frees its slot.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows, EMBED_NODES, stageInput } from '../support/e2e-flows';
import { startDatabricksStandIn, type DatabricksStandIn } from '../../lambdas/connectors/databricks/test-server';
import { trustStandIns } from '../support/stand-in-ca';

const SECRET = 'e2e-dbx-sp-secret';
let stack: TestStack;
let dbx: DatabricksStandIn;
let sourceId: string;
const inDir = join(mkdtempSync(join(tmpdir(), 'wps-dbxdelta-')), 'in');
const flows = e2eFlows(() => stack, () => sourceId);

const config = (over: Record<string, unknown> = {}) => ({
  server_hostname: dbx.url,
  http_path: '/sql/1.0/warehouses/wh-e2e',
  client_id: 'sp-e2e',
  client_secret: SECRET,
  catalog: 'main',
  volume: 'staging',
  volume_path: 'wf',
  ...over,
});

let untrustStandIns: (() => void) | undefined;
before(async () => {
  untrustStandIns = trustStandIns();
  if (NEEDS_LOCAL) return;
  stageInput(inDir);
  dbx = await startDatabricksStandIn({ clients: { 'sp-e2e': SECRET }, volumes: ['main.default.staging'], warehouse: { id: 'wh-e2e', catalogs: { main: ['default'] } } });
  stack = await startTestStack();
  sourceId = (await stack.call('POST', '/api/v1/sources/', { body: { name: 'in', type: 'local', config: { remote_url: inDir } } })).body.id;
});
after(async () => {
  untrustStandIns?.();
  await stack?.close();
  await dbx?.stop();
});

async function destination(name: string, cfg: Record<string, unknown>) {
  const id = await flows.createDestination(name, 'databricks_volume_delta_tables', cfg, 'client_secret');
  return { id, check: await flows.check(id) };
}

async function runToEnd(name: string, destinationId: string, workflowNodes = EMBED_NODES) {
  const wf = await flows.workflow(name, destinationId, workflowNodes);
  return () => flows.runToEnd(wf);
}

test('databricks_volume_delta_tables: two runs leave one copy of each file\'s rows, 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const { id, check } = await destination('dbx-delta', config());
  assert.equal(check.status, 'SUCCESS', check.reason);
  const run = await runToEnd('to-dbx-delta', id);
  const read = () => dbx.warehouse!.query('main', 'default', 'SELECT record_id, text, type, CAST(len(embeddings) AS INTEGER) AS dims, metadata FROM unstructuredautocreated ORDER BY record_id, id');
  const counts: Record<string, number>[] = [];
  for (let i = 0; i < 2; i++) {
    const job = await run();
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    const rows = await read();
    const perFile: Record<string, number> = {};
    for (const r of rows) perFile[String(r.record_id)] = (perFile[String(r.record_id)] ?? 0) + 1;
    counts.push(perFile);
  }
  assert.equal(Object.keys(counts[1]!).length, 2, 'two source files');
  assert.deepEqual(counts[1], counts[0], 'the second run replaced each file\'s rows: one copy');
  const rows = await read();
  assert.ok(rows.every((r) => r.dims === 384));
  const meta = rows.map((r) => JSON.parse(String(r.metadata)));
  assert.ok(meta.some((m) => m.filetype === 'text/plain'));
  assert.equal(dbx.files.size, 0, 'staged uploads removed');
  const sent = dbx.warehouse!.statements.map((s) => s.sql);
  // the job's two files run side by side: both may find the table absent and send the (idempotent) create
  assert.ok(sent.filter((s) => s.startsWith('CREATE TABLE')).length >= 1, 'the table was created');
  assert.ok(sent.filter((s) => s.startsWith('DELETE FROM `unstructuredautocreated` WHERE record_id')).length >= 4);
});

test('databricks_volume_delta_tables pointing at a missing catalog: FAILURE check, files failed with the reason, job finished', { skip: NEEDS_LOCAL }, async () => {
  const { id, check } = await destination('dbx-nowhere', config({ catalog: 'nope' }));
  assert.equal(check.status, 'FAILURE');
  assert.match(check.reason, /SQL warehouse \/sql\/1\.0\/warehouses\/wh-e2e: \[NO_SUCH_CATALOG_EXCEPTION\] Catalog 'nope' was not found|Catalog nope not found in main/);
  const job = await (await runToEnd('dbx-nowhere', id, EMBED_NODES.slice(0, 2)))();
  assert.equal(job.status, 'FAILED');
  const failed = await stack.call('GET', `/api/v1/jobs/${job.id}/failed-files`);
  assert.equal(failed.body.failed_files.length, 2);
  for (const f of failed.body.failed_files) {
    assert.match(f.error, /databricks_volume_delta_tables destination: SQL warehouse .*NO_SUCH_CATALOG_EXCEPTION\] Catalog 'nope' was not found/);
    assert.ok(!f.error.includes(SECRET));
  }
  const running = await stack.call('GET', '/api/v1/jobs/?status=IN_PROGRESS');
  assert.deepEqual(running.body, []);
});
