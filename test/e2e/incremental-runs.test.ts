// Incremental workflow runs through the HTTP API: a local source of 3 files → partition → chunk →
// embed → postgres (PGlite over the wire). Run 1 processes 3; after one file changed, one added and
// one deleted, run 2 processes exactly the 2 new/changed, skips the unchanged one and removes the
// deleted one's records from the table; run 3 with reprocess_all=true processes everything again.
// A file destination (local) cannot remove: the gone document is counted, its file stays.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows, EMBED_NODES } from '../support/e2e-flows';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store';
import { keys } from '../../lambdas/data/keys';
import { platformElementsTable, startPgTestServer, type PgTestServer } from '../../lambdas/connectors/postgres/test-server';

let stack: TestStack;
const flows = e2eFlows(() => stack);
let pg: PgTestServer;
const base = mkdtempSync(join(tmpdir(), 'wps-incr-'));
const inDir = join(base, 'in');

const text = (title: string) => `${title}\n\nA short paragraph about ${title}, long enough to be a narrative text element of its own.\n`;

before(async () => {
  if (NEEDS_LOCAL) return;
  mkdirSync(join(inDir, 'sub'), { recursive: true });
  writeFileSync(join(inDir, 'alpha.txt'), text('Alpha'));
  writeFileSync(join(inDir, 'beta.txt'), text('Beta'));
  writeFileSync(join(inDir, 'sub', 'gamma.txt'), text('Gamma'));
  pg = await startPgTestServer();
  await pg.db.exec(platformElementsTable());
  stack = await startTestStack();
});
after(async () => {
  await stack?.close();
  await pg?.stop();
});

async function runToEnd(workflowId: string) {
  const { job, details } = await flows.runWithDetails(workflowId);
  assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
  return { job, details };
}

const filenames = async () =>
  (await pg.db.query<{ filename: string }>('SELECT DISTINCT filename FROM elements ORDER BY filename')).rows.map((r) => r.filename);

test('incremental runs: only new and changed documents are processed, gone ones removed; reprocess_all processes all', { skip: NEEDS_LOCAL }, async () => {
  const sourceId = (await stack.call('POST', '/api/v1/sources/', { body: { name: 'in', type: 'local', config: { remote_url: inDir } } })).body.id;
  const pgDest = await stack.call('POST', '/api/v1/destinations/', {
    body: { name: 'pg', type: 'postgres', config: { host: pg.host, port: pg.port, database: 'postgres', username: 'app', password: 'secret-pw', table_name: 'elements', batch_size: 100 } },
  });
  assert.equal(pgDest.status, 200, pgDest.text);
  const outDir = join(base, 'out');
  mkdirSync(outDir);
  const fileDest = await stack.call('POST', '/api/v1/destinations/', { body: { name: 'files', type: 'local', config: { remote_url: outDir } } });
  assert.equal(fileDest.status, 200, fileDest.text);
  const workflow = async (name: string, destinationId: string) => {
    const wf = await stack.call('POST', '/api/v1/workflows/', {
      body: { name, workflow_type: 'custom', workflow_nodes: EMBED_NODES, source_id: sourceId, destination_id: destinationId },
    });
    assert.equal(wf.status, 200, wf.text);
    assert.equal(wf.body.reprocess_all, false, 'the default');
    return wf.body.id as string;
  };
  const toPg = await workflow('incr-pg', pgDest.body.id);
  const toFiles = await workflow('incr-files', fileDest.body.id);
  const processed = (d: any) => d.node_stats[d.node_stats.length - 1].success;

  // run 1: everything is new
  const r1 = await runToEnd(toPg);
  assert.equal(r1.job.input_file_ids.length, 3);
  assert.equal(processed(r1.details), 3);
  assert.deepEqual(r1.details.source_documents, {
    listed: 3, processed: 3, unchanged_skipped: 0, gone_from_source: 0, removed: 0, removed_from_destination: 0, reprocess_all: false,
  });
  assert.deepEqual(await filenames(), ['alpha.txt', 'beta.txt', 'gamma.txt']);
  const alphaIds = (await pg.db.query<{ id: string }>(`SELECT id FROM elements WHERE filename = 'alpha.txt' ORDER BY id`)).rows;
  // every record carries the source's data_source: url, version, record locator and dates
  const ds = (await pg.db.query<{ url: string; version: string; record_locator: string; date_modified: Date; date_processed: Date }>(
    `SELECT url, version, record_locator, date_modified, date_processed FROM elements WHERE filename = 'gamma.txt'`,
  )).rows;
  assert.ok(ds.length > 0);
  for (const r of ds) {
    assert.equal(r.url, `${inDir}/sub/gamma.txt`);
    assert.match(r.version, /^\d+-\d+$/);
    assert.deepEqual(JSON.parse(r.record_locator), { path: `${inDir}/sub/gamma.txt` });
    assert.ok(r.date_modified instanceof Date && Math.abs(r.date_modified.getTime() - Date.now()) < 3_600_000, String(r.date_modified));
    assert.ok(r.date_processed instanceof Date && r.date_processed.getTime() >= r.date_modified.getTime() - 1000, String(r.date_processed));
  }
  await runToEnd(toFiles);
  assert.ok(existsSync(join(outDir, 'sub', 'gamma.txt.json')));

  // change one, add one, delete one
  writeFileSync(join(inDir, 'beta.txt'), text('Beta, rewritten with other words'));
  writeFileSync(join(inDir, 'delta.txt'), text('Delta'));
  rmSync(join(inDir, 'sub', 'gamma.txt'));

  const r2 = await runToEnd(toPg);
  assert.equal(r2.job.input_file_ids.length, 2, `run 2 takes exactly the changed and the new file: ${JSON.stringify(r2.details)}`);
  assert.equal(processed(r2.details), 2);
  assert.deepEqual(r2.details.source_documents, {
    listed: 3, processed: 2, unchanged_skipped: 1, gone_from_source: 1, removed: 1, removed_from_destination: 1, reprocess_all: false,
  });
  assert.equal(r2.details.processing_status, 'SUCCESS');
  assert.deepEqual(await filenames(), ['alpha.txt', 'beta.txt', 'delta.txt'], 'gamma removed from the table, delta added');
  const beta = (await pg.db.query<{ text: string }>(`SELECT string_agg(text, ' ') AS text FROM elements WHERE filename = 'beta.txt'`)).rows[0]!;
  assert.match(beta.text, /rewritten with other words/);
  assert.deepEqual(
    (await pg.db.query<{ id: string }>(`SELECT id FROM elements WHERE filename = 'alpha.txt' ORDER BY id`)).rows,
    alphaIds,
    'the unchanged file was not rewritten',
  );

  // a file destination cannot remove: counted as gone and forgotten, its file stays
  const f2 = await runToEnd(toFiles);
  assert.deepEqual(f2.details.source_documents, {
    listed: 3, processed: 2, unchanged_skipped: 1, gone_from_source: 1, removed: 1, removed_from_destination: 0, reprocess_all: false,
  });
  assert.ok(existsSync(join(outDir, 'sub', 'gamma.txt.json')));

  // nothing changed: a run that processes nothing completes
  const idle = await runToEnd(toPg);
  assert.equal(idle.job.input_file_ids.length, 0);
  assert.equal(idle.details.source_documents.unchanged_skipped, 3);
  assert.equal(idle.details.source_documents.removed, 0);

  // run 3: reprocess_all
  const put = await stack.call('PUT', `/api/v1/workflows/${toPg}`, { body: { reprocess_all: true } });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.body.reprocess_all, true);
  const r3 = await runToEnd(toPg);
  assert.equal(r3.job.input_file_ids.length, 3);
  assert.equal(processed(r3.details), 3);
  assert.deepEqual(r3.details.source_documents, {
    listed: 3, processed: 3, unchanged_skipped: 0, gone_from_source: 0, removed: 0, removed_from_destination: 0, reprocess_all: true,
  });
  assert.deepEqual(await filenames(), ['alpha.txt', 'beta.txt', 'delta.txt']);

  // deleting the workflow forgets what it delivered (the single table keeps no orphaned state)
  const states = () => new DynamoStore(String(stack.env.TABLE_NAME ?? 'wps')).queryPrefix(keys.account('default'), keys.sourceDocPrefix(toPg));
  assert.equal((await states()).length, 3);
  assert.equal((await stack.call('DELETE', `/api/v1/workflows/${toPg}`)).status, 200);
  assert.equal((await states()).length, 0);
});

test('state is written only after the destination write: files whose delivery failed are processed again next run', { skip: NEEDS_LOCAL }, async () => {
  const dir = join(base, 'retry-in');
  mkdirSync(dir);
  writeFileSync(join(dir, 'one.txt'), text('One'));
  writeFileSync(join(dir, 'two.txt'), text('Two'));
  const sourceId = (await stack.call('POST', '/api/v1/sources/', { body: { name: 'retry-in', type: 'local', config: { remote_url: dir } } })).body.id;
  const config = { host: '127.0.0.1', port: 1, database: 'postgres', username: 'app', password: 'secret-pw', table_name: 'elements', batch_size: 100 };
  const dest = await stack.call('POST', '/api/v1/destinations/', { body: { name: 'pg-later', type: 'postgres', config } });
  assert.equal(dest.status, 200, dest.text);
  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name: 'retry', workflow_type: 'custom', workflow_nodes: EMBED_NODES, source_id: sourceId, destination_id: dest.body.id },
  });
  assert.equal(wf.status, 200, wf.text);
  const run = async () => {
    const r = await stack.call('POST', `/api/v1/workflows/${wf.body.id}/run`);
    assert.equal(r.status, 202, r.text);
    const job = await eventually(async () => {
      const j = await stack.call('GET', `/api/v1/jobs/${r.body.id}`);
      return ['COMPLETED', 'FAILED', 'STOPPED'].includes(j.body.status) ? j.body : undefined;
    }, 'workflow job', 180_000);
    return { job, details: (await stack.call('GET', `/api/v1/jobs/${job.id}/details`)).body };
  };

  // the destination is unreachable: both deliveries fail, nothing is recorded as delivered
  const failed = await run();
  assert.equal(failed.job.status, 'FAILED');
  assert.equal(failed.details.source_documents.processed, 2);

  // the destination fixed (same destination id): both files are processed again, not skipped
  const fixed = await stack.call('PUT', `/api/v1/destinations/${dest.body.id}`, { body: { config: { ...config, host: pg.host, port: pg.port } } });
  assert.equal(fixed.status, 200, fixed.text);
  const retried = await run();
  assert.equal(retried.job.status, 'COMPLETED', JSON.stringify(retried.details));
  assert.equal(retried.details.source_documents.processed, 2);
  assert.equal(retried.details.source_documents.unchanged_skipped, 0);

  // delivered now: the next run skips both
  const after = await run();
  assert.equal(after.job.status, 'COMPLETED');
  assert.equal(after.details.source_documents.processed, 0);
  assert.equal(after.details.source_documents.unchanged_skipped, 2);
});
