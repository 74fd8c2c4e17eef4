// A workflow writing into Azure AI Search (the official client over HTTPS against the stand-in
// service, trusted through CONNECTOR_CA_FILE) through the HTTP API: local source → partition →
// chunk → embed (built-in 384-dim embedder) → azure_ai_search, run twice: one copy of each file's
// documents, 384-dim vectors, metadata present. An index that does not exist fails the check
// saying what to create, and fails the files with the service's reason; the slot is freed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows, EMBED_NODES, stageInput } from '../support/e2e-flows';
import { resetConfig } from '../../lambdas/config';
import { platformIndexFields, selfSignedCert, startAzureSearchStandIn, type AzureSearchStandIn } from '../../lambdas/connectors/azure-ai-search/test-server';

let stack: TestStack;
let az: AzureSearchStandIn;
let sourceId: string;
const inDir = join(mkdtempSync(join(tmpdir(), 'wps-azsdest-')), 'in');
const { check: checked, runToEnd } = e2eFlows(() => stack, () => sourceId);
const savedCa = process.env.CONNECTOR_CA_FILE;

before(async () => {
  if (NEEDS_LOCAL) return;
  stageInput(inDir);
  const tls = selfSignedCert();
  process.env.CONNECTOR_CA_FILE = tls.certFile;
  resetConfig();
  az = await startAzureSearchStandIn({ key: tls.key, cert: tls.cert });
  az.addIndex('elements', platformIndexFields(384));
  stack = await startTestStack();
  sourceId = (await stack.call('POST', '/api/v1/sources/', { body: { name: 'in', type: 'local', config: { remote_url: inDir } } })).body.id;
});
after(async () => {
  await stack?.close();
  await az?.stop();
  if (savedCa === undefined) delete process.env.CONNECTOR_CA_FILE;
  else process.env.CONNECTOR_CA_FILE = savedCa;
  resetConfig();
});

test('azure_ai_search destination: two runs leave one copy of each file, 384-dim vectors and metadata', { skip: NEEDS_LOCAL }, async () => {
  const dest = await stack.call('POST', '/api/v1/destinations/', {
    body: { name: 'azs', type: 'azure_ai_search', config: { endpoint: az.endpoint, index: 'elements', key: az.adminKey } },
  });
  assert.equal(dest.status, 200, dest.text);
  assert.equal(dest.body.config.key, '**********');
  const check = await checked(dest.body.id);
  assert.equal(check.status, 'SUCCESS', check.reason);

  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name: 'to-azs', workflow_type: 'custom', reprocess_all: true, workflow_nodes: EMBED_NODES, source_id: sourceId, destination_id: dest.body.id },
  });
  assert.equal(wf.status, 200, wf.text);
  const docs = az.indexes.get('elements')!.docs;
  const counts: number[] = [];
  for (let i = 0; i < 2; i++) {
    const job = await runToEnd(wf.body.id);
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    counts.push(docs.size);
  }
  assert.ok(counts[0]! > 2, `documents written (${counts[0]})`);
  assert.equal(counts[1], counts[0], 'the second run replaced, not duplicated');
  const byFile = new Map<string, any[]>();
  for (const d of docs.values()) byFile.set(d.metadata.filename, [...(byFile.get(d.metadata.filename) ?? []), d]);
  assert.deepEqual([...byFile.keys()].sort(), ['README.md', 'fake-text.txt']);
  for (const list of byFile.values()) {
    assert.equal(new Set(list.map((d) => d.record_id)).size, 1, 'one record_id per file');
    assert.ok(list.every((d) => d.embeddings.length === 384));
  }
  const sample = byFile.get('fake-text.txt')![0]!;
  assert.equal(sample.type, 'CompositeElement');
  assert.equal(sample.metadata.filetype, 'text/plain');
  assert.deepEqual(sample.metadata.languages, ['eng']);
  assert.ok(sample.text.length > 0 && sample.element_id);
  // Each rewrite first looked up the file's earlier documents by record_id.
  const filters = az.requests.filter((r) => r.path.endsWith('/docs/search.post.search')).map((r) => r.body.filter);
  assert.equal(filters.length, 4);
  assert.ok(filters.every((f) => /^record_id eq '[0-9a-f-]{36}'$/.test(f)));
});

test('an azure_ai_search index that does not exist: FAILURE check saying what to create, files failed with the reason, job finished', { skip: NEEDS_LOCAL }, async () => {
  const dest = await stack.call('POST', '/api/v1/destinations/', {
    body: { name: 'azs-absent', type: 'azure_ai_search', config: { endpoint: az.endpoint, index: 'absent', key: az.adminKey } },
  });
  assert.equal(dest.status, 200, dest.text);
  const check = await checked(dest.body.id);
  assert.equal(check.status, 'FAILURE');
  assert.match(check.reason, /index absent not found: create it first .*No index with the name 'absent'/);
  assert.ok(!check.reason.includes(az.adminKey));

  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name: 'to-absent', workflow_type: 'custom', workflow_nodes: EMBED_NODES.slice(0, 2), source_id: sourceId, destination_id: dest.body.id },
  });
  const job = await runToEnd(wf.body.id);
  assert.equal(job.status, 'FAILED');
  const failed = await stack.call('GET', `/api/v1/jobs/${job.id}/failed-files`);
  assert.equal(failed.body.failed_files.length, 2);
  for (const f of failed.body.failed_files) assert.match(f.error, /azure_ai_search destination: reading the index definition: Azure AI Search answered HTTP 404: No index with the name 'absent'/);
  const again = await runToEnd(wf.body.id);
  assert.equal(again.status, 'FAILED');
});
