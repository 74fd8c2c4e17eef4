// Couchbase as a destination and as a source through the HTTP API, against the Query service stand-in
// (one stack for both, e2e time is scarce):
// - destination: local source (2 corpus files) → partition → chunk → embed (built-in 384) → couchbase,
//   run twice: one copy of each file's documents, 384-dim embeddings, metadata; a destination that
//   validates but points nowhere fails its check and its files with the reason, and the job finishes.
// - source: couchbase documents → partition (fast) → local destination, run twice: run 1 processes
//   every document and its elements carry data_source (url, CAS version, record_locator); run 2
//   processes none (all unchanged).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows, EMBED_NODES, stageInput } from '../support/e2e-flows';
import { startCouchbaseStandIn, type CouchbaseStandIn } from '../../lambdas/connectors/couchbase/test-server';
import { closedPort } from '../integration/connectors/helpers';
import { trustStandIns } from '../support/stand-in-ca';

const PASSWORD = 'couchbase-e2e-secret';
const base = mkdtempSync(join(tmpdir(), 'wps-couchbase-'));
const inDir = join(base, 'in');
const outDir = join(base, 'out');
let stack: TestStack;
const flows = e2eFlows(() => stack);
let cb: CouchbaseStandIn;
let untrustStandIns: (() => void) | undefined;

before(async () => {
  if (NEEDS_LOCAL) return;
  stageInput(inDir);
  mkdirSync(outDir);
  untrustStandIns = trustStandIns(); // the stand-in serves couchbases:// (the password goes over TLS only)
  cb = await startCouchbaseStandIn({ users: { app: { password: PASSWORD } } });
  cb.createKeyspace('wf', 'ingest', 'elements');
  cb.createKeyspace('crm', 'sales', 'customers');
  for (let i = 0; i < 3; i++) {
    cb.put('crm', `customer::${i}`, { id: `c${i}`, name: `Customer number ${i}`, notes: `Prefers e-mail. Account opened in 20${10 + i}.`, address: { city: 'Oslo' } }, 'sales', 'customers');
  }
  stack = await startTestStack();
});
after(async () => {
  await stack?.close();
  await cb?.stop();
  untrustStandIns?.();
});

async function create(kind: 'sources' | 'destinations', name: string, type: string, config: Record<string, unknown>) {
  const r = await stack.call('POST', `/api/v1/${kind}/`, { body: { name, type, config } });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

const check = (kind: 'sources' | 'destinations', id: string) => flows.check(id, kind);

async function workflow(name: string, sourceId: string, destinationId: string, nodes: unknown[], reprocessAll: boolean): Promise<string> {
  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name, workflow_type: 'custom', reprocess_all: reprocessAll, workflow_nodes: nodes, source_id: sourceId, destination_id: destinationId },
  });
  assert.equal(wf.status, 200, wf.text);
  return wf.body.id;
}

const runToEnd = (workflowId: string) => flows.runWithDetails(workflowId);

const cbConfig = (over: Record<string, unknown> = {}) => ({ connection_string: cb.connectionString, username: 'app', password: PASSWORD, bucket: 'wf', scope: 'ingest', collection: 'elements', batch_size: 20, ...over });

test('couchbase destination: two runs leave one copy of each file\'s documents, 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const source = await create('sources', 'in', 'local', { remote_url: inDir });
  const dest = await create('destinations', 'cb', 'couchbase', cbConfig());
  assert.equal(dest.config.password, '**********');
  const c = await check('destinations', dest.id);
  assert.equal(c.status, 'SUCCESS', c.reason);
  const wf = await workflow('to-couchbase', source.id, dest.id, EMBED_NODES, true);
  const counts: Record<string, number>[] = [];
  for (let i = 0; i < 2; i++) {
    const { job } = await runToEnd(wf);
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    const tally: Record<string, number> = {};
    for (const d of cb.documents('wf', 'ingest', 'elements').values()) {
      const f = String((d.metadata as { filename?: string }).filename);
      tally[f] = (tally[f] ?? 0) + 1;
    }
    counts.push(tally);
  }
  assert.deepEqual(Object.keys(counts[0]!).sort(), ['README.md', 'fake-text.txt']);
  assert.deepEqual(counts[1], counts[0], 'the second run replaced each file, not duplicated it');
  const sample = [...cb.documents('wf', 'ingest', 'elements').values()].find((d) => (d.metadata as { filename?: string }).filename === 'fake-text.txt')!;
  assert.equal((sample.embedding as number[]).length, 384);
  assert.equal(sample.type, 'CompositeElement');
  assert.equal((sample.metadata as { filetype?: string }).filetype, 'text/plain');
  assert.ok(sample.record_id && sample.element_id && String(sample.text).length > 0);

  // points nowhere: FAILURE check and failed files with the reason, the job finishes, no secret shown
  const port = await closedPort();
  const nowhere = await create('destinations', 'cb-nowhere', 'couchbase', cbConfig({ connection_string: `couchbases://127.0.0.1:${port}` }));
  const bad = await check('destinations', nowhere.id);
  assert.equal(bad.status, 'FAILURE');
  assert.match(bad.reason, /cannot reach 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  const failedRun = await runToEnd(await workflow('to-nowhere', source.id, nowhere.id, EMBED_NODES.slice(0, 2), true));
  assert.equal(failedRun.job.status, 'FAILED');
  const failed = (await stack.call('GET', `/api/v1/jobs/${failedRun.job.id}/failed-files`)).body.failed_files;
  assert.equal(failed.length, 2);
  for (const f of failed) {
    assert.match(f.error, /couchbase destination: .*cannot reach 127\.0\.0\.1:\d+/);
    assert.ok(!f.error.includes(PASSWORD));
  }
  assert.deepEqual((await stack.call('GET', '/api/v1/jobs/?status=IN_PROGRESS')).body, [], 'slots freed');
});

test('couchbase source: run 1 processes every document with data_source; run 2 processes none', { skip: NEEDS_LOCAL }, async () => {
  const source = await create('sources', 'crm', 'couchbase', {
    connection_string: cb.connectionString, username: 'app', password: PASSWORD, bucket: 'crm', scope: 'sales', collection: 'customers', collection_id: 'id', batch_size: 2,
  });
  const c = await check('sources', source.id);
  assert.equal(c.status, 'SUCCESS', c.reason);
  const dest = await create('destinations', 'files', 'local', { remote_url: outDir });
  const wf = await workflow('from-couchbase', source.id, dest.id, EMBED_NODES.slice(0, 1), false);

  const r1 = await runToEnd(wf);
  assert.equal(r1.job.status, 'COMPLETED', JSON.stringify(r1.details));
  assert.equal(r1.details.source_documents.listed, 3);
  assert.equal(r1.details.source_documents.processed, 3);
  const written = readdirSync(outDir).sort();
  assert.deepEqual(written, ['customer::0.json', 'customer::1.json', 'customer::2.json']);
  const els = JSON.parse(readFileSync(join(outDir, 'customer::1.json'), 'utf8'));
  assert.ok(els.length >= 1);
  assert.match(els.map((e: { text: string }) => e.text).join('\n'), /Customer number 1/);
  for (const e of els) {
    assert.equal(e.metadata.filename, 'crm-c1.txt');
    const ds = e.metadata.data_source;
    assert.equal(ds.url, `${cb.connectionString}/crm`);
    assert.equal(ds.version, cb.casOf('crm', 'customer::1', 'sales', 'customers'));
    assert.deepEqual(ds.record_locator, { connection_string: cb.connectionString, bucket: 'crm', scope: 'sales', collection: 'customers', document_id: 'c1' });
  }

  const r2 = await runToEnd(wf);
  assert.equal(r2.job.status, 'COMPLETED', JSON.stringify(r2.details));
  assert.equal(r2.details.source_documents.processed, 0);
  assert.equal(r2.details.source_documents.unchanged_skipped, 3);
});
