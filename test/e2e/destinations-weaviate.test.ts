// A workflow writing into Weaviate (the local stand-in, through the official client over REST and
// gRPC) through the HTTP API: local source → partition → chunk → embed (built-in 384-dim embedder) →
// weaviate-cloud, run twice: one copy of each file's objects, 384-dim vectors, metadata present. A
// destination that points nowhere fails its files with the reason; the job finishes and frees its slot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL } from '../support/local-stack';
import { destinationSuite, EMBED_NODES } from '../support/e2e-flows';
import { startWeaviateTestServer, type WeaviateTestServer } from '../../lambdas/connectors/weaviate/test-server';
import { closedPort } from '../integration/connectors/helpers';

let wv: WeaviateTestServer;
const { connect, workflow, runTwice, failsAndFreesSlot } = destinationSuite('wps-wvdest-', {
  trust: true, // the stand-in serves TLS: the API key goes over TLS only
  start: async () => {
    wv = await startWeaviateTestServer();
  },
  stop: () => wv?.stop(),
});

test('weaviate-cloud destination: two runs leave one copy of each file, 384-dim vectors and metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await connect('wv', 'weaviate-cloud', { cluster_url: wv.url, api_key: wv.apiKey, collection: 'Docs' }, 'api_key');
  const counts = await runTwice(await workflow('to-wv', id), () => wv.objects('Docs').length);
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
  await failsAndFreesSlot({
    name: 'wv-nowhere', type: 'weaviate-cloud', config: { cluster_url: `https://127.0.0.1:${port}`, api_key: 'secret-key-123' }, nodes: EMBED_NODES.slice(0, 1),
    checkReason: /ECONNREFUSED/, secret: 'secret-key-123',
    fileError: /weaviate-cloud destination: cannot connect to Weaviate at 127\.0\.0\.1:\d+: .*ECONNREFUSED/,
  });
});
