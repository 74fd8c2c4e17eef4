// A workflow writing into Milvus (the local gRPC stand-in, through the official SDK) through the HTTP
// API: local source → partition → chunk → embed (built-in 384-dim embedder) → milvus, run twice: one
// copy of each file's rows, 384-dim vectors, flattened metadata present. A destination whose
// collection does not exist fails its check and its files with Milvus' reason; the job finishes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows, EMBED_NODES, stageInput } from '../support/e2e-flows';
import { trustStandIns } from '../support/stand-in-ca';
import { platformSchema, startMilvusTestServer, type MilvusTestServer } from '../../lambdas/connectors/milvus/test-server';

let stack: TestStack;
let mv: MilvusTestServer;
let sourceId: string;
let untrust: (() => void) | undefined;
const inDir = join(mkdtempSync(join(tmpdir(), 'wps-mvdest-')), 'in');
const { check: checked, runToEnd } = e2eFlows(() => stack, () => sourceId);

before(async () => {
  if (NEEDS_LOCAL) return;
  stageInput(inDir);
  untrust = trustStandIns(); // the stand-in serves TLS: credentials go over TLS only
  mv = await startMilvusTestServer();
  mv.createCollection('elements', platformSchema(384, true));
  stack = await startTestStack();
  sourceId = (await stack.call('POST', '/api/v1/sources/', { body: { name: 'in', type: 'local', config: { remote_url: inDir } } })).body.id;
});
after(async () => {
  await stack?.close();
  await mv?.stop();
  untrust?.();
});

test('milvus destination: two runs leave one copy of each file, 384-dim vectors and metadata', { skip: NEEDS_LOCAL }, async () => {
  const dest = await stack.call('POST', '/api/v1/destinations/', {
    body: { name: 'mv', type: 'milvus', config: { uri: mv.uri, user: 'root', password: 'Milvus', collection_name: 'elements', record_id_key: 'record_id' } },
  });
  assert.equal(dest.status, 200, dest.text);
  assert.equal(dest.body.config.password, '**********');
  const check = await checked(dest.body.id);
  assert.equal(check.status, 'SUCCESS', check.reason);

  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name: 'to-mv', workflow_type: 'custom', reprocess_all: true, workflow_nodes: EMBED_NODES, source_id: sourceId, destination_id: dest.body.id },
  });
  assert.equal(wf.status, 200, wf.text);
  const counts: number[] = [];
  for (let i = 0; i < 2; i++) {
    const job = await runToEnd(wf.body.id);
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    counts.push(mv.rows('elements').length);
  }
  assert.ok(counts[0]! > 2, `rows written (${counts[0]})`);
  assert.equal(counts[1], counts[0], 'the second run replaced, not duplicated');
  const rows = mv.rows('elements');
  assert.deepEqual([...new Set(rows.map((r) => r.filename))].sort(), ['README.md', 'fake-text.txt']);
  assert.equal(new Set(rows.map((r) => r.element_id)).size, rows.length, 'one row per element');
  for (const r of rows) assert.equal((r.embeddings as number[]).length, 384);
  const sample = rows.find((r) => r.filename === 'fake-text.txt')!;
  assert.equal(sample.type, 'CompositeElement');
  assert.equal(sample.filetype, 'text/plain');
  assert.deepEqual(sample.languages, ['eng']);
  assert.ok(String(sample.text).length > 0 && sample.record_id);
});

test('a milvus destination whose collection does not exist: FAILURE check, files failed with the reason, job finished', { skip: NEEDS_LOCAL }, async () => {
  const dest = await stack.call('POST', '/api/v1/destinations/', {
    body: { name: 'mv-missing', type: 'milvus', config: { uri: mv.uri, token: mv.token, collection_name: 'missing', record_id_key: 'record_id' } },
  });
  assert.equal(dest.status, 200, dest.text);
  const check = await checked(dest.body.id);
  assert.deepEqual(check.status, 'FAILURE');
  assert.equal(check.reason, "Collection 'missing' does not exist");

  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name: 'to-missing', workflow_type: 'custom', workflow_nodes: EMBED_NODES, source_id: sourceId, destination_id: dest.body.id },
  });
  const job = await runToEnd(wf.body.id);
  assert.equal(job.status, 'FAILED');
  const failed = await stack.call('GET', `/api/v1/jobs/${job.id}/failed-files`);
  assert.equal(failed.body.failed_files.length, 2);
  for (const f of failed.body.failed_files) assert.match(f.error, /milvus destination: Collection 'missing' does not exist/);
  const again = await runToEnd(wf.body.id);
  assert.equal(again.status, 'FAILED', 'the slot was freed: another run starts and finishes');
});
