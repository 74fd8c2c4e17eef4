// A workflow writing into Elasticsearch (the official client against the stand-in cluster) through
// the HTTP API: local source → partition → chunk → embed (built-in 384-dim embedder) →
// elasticsearch, run twice: one copy of each file's records, 384-dim vectors, metadata present.
// An OpenSearch destination that points nowhere fails its check and its files with the reason;
// the job still finishes and frees its slot.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows, EMBED_NODES, stageInput } from '../support/e2e-flows';
import { startSearchStandIn, type SearchStandIn } from '../../lambdas/connectors/elasticsearch/test-server';
import { indexBody } from '../../lambdas/connectors/elasticsearch/stage';
import { trustStandIns } from '../support/stand-in-ca';

const KEY = 'ZTJlLWtleTpzZWNyZXQtYXBpLWtleQ==';
let stack: TestStack;
let es: SearchStandIn;
let sourceId: string;
let untrust: (() => void) | undefined;
const inDir = join(mkdtempSync(join(tmpdir(), 'wps-esdest-')), 'in');
const { check: checked, runToEnd } = e2eFlows(() => stack, () => sourceId);

before(async () => {
  if (NEEDS_LOCAL) return;
  stageInput(inDir);
  untrust = trustStandIns(); // the stand-in serves TLS: the API key goes over TLS only
  es = await startSearchStandIn({ dialect: 'elasticsearch', apiKeys: { [KEY]: ['all'] } });
  es.indices.set('elements', { ...(indexBody('elasticsearch', 384) as { mappings: { properties: Record<string, unknown> } }), settings: {}, docs: new Map() });
  stack = await startTestStack();
  sourceId = (await stack.call('POST', '/api/v1/sources/', { body: { name: 'in', type: 'local', config: { remote_url: inDir } } })).body.id;
});
after(async () => {
  await stack?.close();
  await es?.stop();
  untrust?.();
});

test('elasticsearch destination: two runs leave one copy of each file, 384-dim vectors and metadata', { skip: NEEDS_LOCAL }, async () => {
  const dest = await stack.call('POST', '/api/v1/destinations/', {
    body: { name: 'es', type: 'elasticsearch', config: { hosts: [es.url], index_name: 'elements', es_api_key: KEY, batch_size: 50 } },
  });
  assert.equal(dest.status, 200, dest.text);
  assert.equal(dest.body.config.es_api_key, '**********');
  const check = await checked(dest.body.id);
  assert.equal(check.status, 'SUCCESS', check.reason);

  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name: 'to-es', workflow_type: 'custom', reprocess_all: true, workflow_nodes: EMBED_NODES, source_id: sourceId, destination_id: dest.body.id },
  });
  assert.equal(wf.status, 200, wf.text);
  const counts: number[] = [];
  for (let i = 0; i < 2; i++) {
    const job = await runToEnd(wf.body.id);
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    counts.push(es.docs('elements').length);
  }
  assert.ok(counts[0]! > 2, `records written (${counts[0]})`);
  assert.equal(counts[1], counts[0], 'the second run replaced, not duplicated');
  const docs = es.docs('elements');
  const byFile = new Map<string, typeof docs>();
  for (const d of docs) byFile.set(d.metadata.filename, [...(byFile.get(d.metadata.filename) ?? []), d]);
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
  // The rewrite removed leftovers by record_id: one delete_by_query per file per run.
  assert.equal(es.requests.filter((r) => r.path === '/elements/_delete_by_query').length, 4);
});

test('an opensearch destination that points nowhere: FAILURE check, files failed with the reason, job finished', { skip: NEEDS_LOCAL }, async () => {
  const dest = await stack.call('POST', '/api/v1/destinations/', {
    body: { name: 'os-nowhere', type: 'opensearch', config: { hosts: ['https://127.0.0.1:1'], index_name: 'elements', username: 'admin', password: 'secret-pw' } },
  });
  assert.equal(dest.status, 200, dest.text);
  const check = await checked(dest.body.id);
  assert.equal(check.status, 'FAILURE');
  assert.match(check.reason, /cannot reach OpenSearch: .*ECONNREFUSED/);
  assert.ok(!check.reason.includes('secret-pw'));

  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name: 'to-nowhere', workflow_type: 'custom', workflow_nodes: EMBED_NODES.slice(0, 2), source_id: sourceId, destination_id: dest.body.id },
  });
  const job = await runToEnd(wf.body.id);
  assert.equal(job.status, 'FAILED');
  const failed = await stack.call('GET', `/api/v1/jobs/${job.id}/failed-files`);
  assert.equal(failed.body.failed_files.length, 2);
  for (const f of failed.body.failed_files) assert.match(f.error, /opensearch destination: .*cannot reach OpenSearch: .*ECONNREFUSED/);
  // The slot is free: another run starts and finishes.
  const again = await runToEnd(wf.body.id);
  assert.equal(again.status, 'FAILED');
});
