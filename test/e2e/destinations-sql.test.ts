// A workflow writing into Postgres (PGlite with pgvector over the wire) through the HTTP API:
// local source → partition → chunk → embed (built-in 384-dim embedder) → postgres, run twice:
// one copy of each file's records, vectors of the right dimension, metadata present. A destination
// that points nowhere fails its files with the reason; the job still finishes and frees its slot.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows, EMBED_NODES, stageInput } from '../support/e2e-flows';
import { platformElementsTable, startPgTestServer, type PgTestServer } from '../../lambdas/connectors/postgres/test-server';

let stack: TestStack;
let pg: PgTestServer;
let sourceId: string;
const inDir = join(mkdtempSync(join(tmpdir(), 'wps-pgdest-')), 'in');
const { check: checked, runToEnd } = e2eFlows(() => stack, () => sourceId);

before(async () => {
  if (NEEDS_LOCAL) return;
  stageInput(inDir);
  pg = await startPgTestServer();
  await pg.db.exec(platformElementsTable());
  stack = await startTestStack();
  sourceId = (await stack.call('POST', '/api/v1/sources/', { body: { name: 'in', type: 'local', config: { remote_url: inDir } } })).body.id;
});
after(async () => {
  await stack?.close();
  await pg?.stop();
});

test('postgres destination: two runs leave one copy of each file, 384-dim vectors and metadata', { skip: NEEDS_LOCAL }, async () => {
  const dest = await stack.call('POST', '/api/v1/destinations/', {
    body: { name: 'pg', type: 'postgres', config: { host: pg.host, port: pg.port, database: 'postgres', username: 'app', password: 'secret-pw', table_name: 'elements', batch_size: 100 } },
  });
  assert.equal(dest.status, 200, dest.text);
  assert.equal(dest.body.config.password, '**********');
  const check = await checked(dest.body.id);
  assert.equal(check.status, 'SUCCESS', check.reason);

  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name: 'to-pg', workflow_type: 'custom', reprocess_all: true, workflow_nodes: EMBED_NODES, source_id: sourceId, destination_id: dest.body.id },
  });
  assert.equal(wf.status, 200, wf.text);
  const counts: number[] = [];
  for (let i = 0; i < 2; i++) {
    const job = await runToEnd(wf.body.id);
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    counts.push((await pg.db.query<{ n: number }>('SELECT count(*)::int AS n FROM elements')).rows[0]!.n);
  }
  assert.ok(counts[0]! > 2, `records written (${counts[0]})`);
  assert.equal(counts[1], counts[0], 'the second run replaced, not duplicated');
  const perFile = (await pg.db.query<{ filename: string; n: number; ids: number; dims: number }>(
    `SELECT filename, count(*)::int AS n, count(DISTINCT id)::int AS ids, min(vector_dims(embeddings)) AS dims FROM elements GROUP BY filename ORDER BY filename`,
  )).rows;
  assert.deepEqual(perFile.map((r) => r.filename), ['README.md', 'fake-text.txt']);
  for (const r of perFile) {
    assert.equal(r.ids, r.n, 'ids unique');
    assert.equal(r.dims, 384);
  }
  const sample = (await pg.db.query<any>(`SELECT record_id, element_id, type, text, filetype, languages FROM elements WHERE filename = 'fake-text.txt' LIMIT 1`)).rows[0];
  assert.equal(sample.type, 'CompositeElement');
  assert.equal(sample.filetype, 'text/plain');
  assert.ok(sample.text.length > 0 && sample.element_id && sample.record_id);
  assert.deepEqual(sample.languages, ['eng']);
});

test('a postgres destination that points nowhere: FAILURE check, files failed with the reason, job finished', { skip: NEEDS_LOCAL }, async () => {
  const dest = await stack.call('POST', '/api/v1/destinations/', {
    body: { name: 'pg-nowhere', type: 'postgres', config: { host: '127.0.0.1', port: 1, database: 'postgres', username: 'app', password: 'secret-pw', table_name: 'elements', batch_size: 10 } },
  });
  assert.equal(dest.status, 200, dest.text);
  const check = await checked(dest.body.id);
  assert.equal(check.status, 'FAILURE');
  assert.match(check.reason, /ECONNREFUSED/);
  assert.ok(!check.reason.includes('secret-pw'));

  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name: 'to-nowhere', workflow_type: 'custom', workflow_nodes: EMBED_NODES.slice(0, 2), source_id: sourceId, destination_id: dest.body.id },
  });
  const job = await runToEnd(wf.body.id);
  assert.equal(job.status, 'FAILED');
  const failed = await stack.call('GET', `/api/v1/jobs/${job.id}/failed-files`);
  assert.equal(failed.body.failed_files.length, 2);
  for (const f of failed.body.failed_files) assert.match(f.error, /postgres destination: cannot connect to 127\.0\.0\.1:1\/postgres: .*ECONNREFUSED/);
  // The slot is free: another run starts and finishes.
  const again = await runToEnd(wf.body.id);
  assert.equal(again.status, 'FAILED');
});
