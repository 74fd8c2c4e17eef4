// Teradata as a source and as a destination through the HTTP API, against the Query Service stand-in
// (one stack, one workflow, e2e time is scarce): teradata rows → partition (fast) → teradata table.
// Run 1 processes every row and the destination table (created by the first write, the platform's
// schema) holds each document's elements with data_source; one row changes; run 2 processes that row
// only (the others unchanged_skipped) and the table still holds one copy of each document's elements.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows } from '../support/e2e-flows';
import { startTeradataStandIn, type TeradataStandIn } from '../../lambdas/connectors/teradata/test-server';

const PASSWORD = 'teradata-e2e-secret';
let stack: TestStack;
const flows = e2eFlows(() => stack);
let td: TeradataStandIn;

before(async () => {
  if (NEEDS_LOCAL) return;
  td = await startTeradataStandIn({ users: { app: { password: PASSWORD } } });
  td.createTable('crm', 'customers', '"id" INTEGER NOT NULL, "name" VARCHAR(100), "notes" VARCHAR(400)');
  for (let i = 1; i <= 3; i++) td.insert('crm', 'customers', { id: i, name: `Customer number ${i}`, notes: `Prefers e-mail. Account opened in 20${10 + i}.` });
  stack = await startTestStack();
});
after(async () => {
  await stack?.close();
  await td?.stop();
});

async function create(kind: 'sources' | 'destinations', name: string, config: Record<string, unknown>) {
  const r = await stack.call('POST', `/api/v1/${kind}/`, { body: { name, type: 'teradata', config } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.config.password, '**********');
  const check = await flows.check(r.body.id, kind);
  assert.equal(check.status, 'SUCCESS', check.reason);
  return r.body;
}

const runToEnd = (workflowId: string) => flows.runWithDetails(workflowId);

/** Destination rows per source document (its filename), and the rows themselves. */
function tally() {
  const rows = td.rows('wf', 'elements') ?? [];
  const byFile: Record<string, number> = {};
  for (const r of rows) {
    const f = String(JSON.parse(String(r.metadata)).filename);
    byFile[f] = (byFile[f] ?? 0) + 1;
  }
  return { rows, byFile };
}

test('teradata → partition → teradata: run 1 writes every row\'s elements; run 2 redoes only the changed row, one copy each', { skip: NEEDS_LOCAL }, async () => {
  const conn = { host: td.url, user: 'app', password: PASSWORD };
  const source = await create('sources', 'crm', { ...conn, database: 'crm', table_name: 'customers', id_column: 'id', batch_size: 2 });
  const dest = await create('destinations', 'wf', { ...conn, database: 'wf', table_name: 'elements', batch_size: 20 });
  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: {
      name: 'teradata-roundtrip', workflow_type: 'custom', reprocess_all: false, source_id: source.id, destination_id: dest.id,
      workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
    },
  });
  assert.equal(wf.status, 200, wf.text);

  const r1 = await runToEnd(wf.body.id);
  assert.equal(r1.job.status, 'COMPLETED', JSON.stringify(r1.details));
  assert.equal(r1.details.source_documents.processed, 3);
  const first = tally();
  assert.deepEqual(Object.keys(first.byFile).sort(), ['customers-1.csv', 'customers-2.csv', 'customers-3.csv']);
  const row2 = first.rows.find((r) => JSON.parse(String(r.metadata)).filename === 'customers-2.csv')!;
  assert.match(String(row2.text), /Customer number 2/);
  const ds = JSON.parse(String(row2.metadata)).data_source;
  assert.deepEqual(ds.record_locator, { host: td.url, table_name: 'customers', id_column: 'id', id: '2' });
  assert.match(ds.version, /^[0-9a-f]{64}$/);
  assert.equal(ds.url, 'teradata://127.0.0.1:1025/crm/customers?id=2');

  td.update('crm', 'customers', 'id', 2, { notes: 'Moved to Bergen; prefers phone.' });
  const r2 = await runToEnd(wf.body.id);
  assert.equal(r2.job.status, 'COMPLETED', JSON.stringify(r2.details));
  assert.equal(r2.details.source_documents.processed, 1);
  assert.equal(r2.details.source_documents.unchanged_skipped, 2);
  const second = tally();
  assert.deepEqual(second.byFile, first.byFile, 'one copy of each document\'s elements');
  const texts = second.rows.filter((r) => JSON.parse(String(r.metadata)).filename === 'customers-2.csv').map((r) => String(r.text)).join('\n');
  assert.match(texts, /Bergen/);
  assert.doesNotMatch(texts, /Prefers e-mail/, 'the changed row\'s earlier elements were replaced');
});
