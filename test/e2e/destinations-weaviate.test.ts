// A workflow writing into Weaviate (the local stand-in, through the official client over REST and
// gRPC) through the HTTP API: local source → partition → chunk → embed (built-in 384-dim embedder) →
// weaviate-cloud, run twice: one copy of each file's objects, 384-dim vectors, metadata present. A
// destination that points nowhere fails its files with the reason; the job finishes and frees its slot.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows, EMBED_NODES, stageInput } from '../support/e2e-flows';
import { trustStandIns } from '../support/stand-in-ca';
import { startWeaviateTestServer, type WeaviateTestServer } from '../../lambdas/connectors/weaviate/test-server';
import { closedPort } from '../integration/connectors/helpers';

let untrust: (() => void) | undefined;
let stack: TestStack;
let wv: WeaviateTestServer;
let sourceId: string;
const inDir = join(mkdtempSync(join(tmpdir(), 'wps-wvdest-')), 'in');
const { check: checked, runToEnd } = e2eFlows(() => stack, () => sourceId);

before(async () => {
  if (NEEDS_LOCAL) return;
  stageInput(inDir);
  untrust = trustStandIns(); // the stand-in serves TLS: the API key goes over TLS only
  wv = await startWeaviateTestServer();
  stack = await startTestStack();
  sourceId = (await stack.call('POST', '/api/v1/sources/', { body: { name: 'in', type: 'local', config: { remote_url: inDir } } })).body.id;
});
after(async () => {
  await stack?.close();
  await wv?.stop();
  untrust?.();
});

test('weaviate-cloud destination: two runs leave one copy of each file, 384-dim vectors and metadata', { skip: NEEDS_LOCAL }, async () => {
  const dest = await stack.call('POST', '/api/v1/destinations/', {
    body: { name: 'wv', type: 'weaviate-cloud', config: { cluster_url: wv.url, api_key: wv.apiKey, collection: 'Docs' } },
  });
  assert.equal(dest.status, 200, dest.text);
  assert.equal(dest.body.config.api_key, '**********');
  const check = await checked(dest.body.id);
  assert.equal(check.status, 'SUCCESS', check.reason);

  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name: 'to-wv', workflow_type: 'custom', reprocess_all: true, workflow_nodes: EMBED_NODES, source_id: sourceId, destination_id: dest.body.id },
  });
  assert.equal(wf.status, 200, wf.text);
  const counts: number[] = [];
  for (let i = 0; i < 2; i++) {
    const job = await runToEnd(wf.body.id);
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    counts.push(wv.objects('Docs').length);
  }
  assert.ok(counts[0]! > 2, `objects written (${counts[0]})`);
  assert.equal(counts[1], counts[0], 'the second run replaced, not duplicated');
  const objs = wv.objects('Docs');
  const byFile = new Map<string, number>();
  for (const o of objs) {
    const meta = o.properties.metadata as Record<string, unknown>;
    byFile.set(String(meta.filename), (byFile.get(String(meta.filename)) ?? 0) + 1);
    assert.equal(o.vector?.length, 384);
    assert.ok(o.properties.record_id && o.properties.element_id && String(o.properties.text).length > 0);
  }
  assert.deepEqual([...byFile.keys()].sort(), ['README.md', 'fake-text.txt']);
  assert.equal(new Set(objs.map((o) => o.uuid)).size, objs.length, 'uuids unique');
  const sample = objs.find((o) => (o.properties.metadata as Record<string, unknown>).filename === 'fake-text.txt')!;
  assert.equal(sample.properties.type, 'CompositeElement');
  assert.equal((sample.properties.metadata as Record<string, unknown>).filetype, 'text/plain');
});

test('a weaviate-cloud destination that points nowhere: FAILURE check, files failed with the reason, job finished', { skip: NEEDS_LOCAL }, async () => {
  const port = await closedPort();
  const dest = await stack.call('POST', '/api/v1/destinations/', {
    body: { name: 'wv-nowhere', type: 'weaviate-cloud', config: { cluster_url: `https://127.0.0.1:${port}`, api_key: 'secret-key-123' } },
  });
  assert.equal(dest.status, 200, dest.text);
  const check = await checked(dest.body.id);
  assert.equal(check.status, 'FAILURE');
  assert.match(check.reason, /ECONNREFUSED/);
  assert.ok(!check.reason.includes('secret-key-123'));

  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name: 'to-nowhere', workflow_type: 'custom', workflow_nodes: EMBED_NODES.slice(0, 1), source_id: sourceId, destination_id: dest.body.id },
  });
  const job = await runToEnd(wf.body.id);
  assert.equal(job.status, 'FAILED');
  const failed = await stack.call('GET', `/api/v1/jobs/${job.id}/failed-files`);
  assert.equal(failed.body.failed_files.length, 2);
  for (const f of failed.body.failed_files) assert.match(f.error, /weaviate-cloud destination: cannot connect to Weaviate at 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  const again = await runToEnd(wf.body.id);
  assert.equal(again.status, 'FAILED', 'the slot was freed: another run starts and finishes');
});
