// A workflow writing into Milvus (the local gRPC stand-in, through the official SDK) through the HTTP
// API: local source → partition → chunk → embed (built-in 384-dim embedder) → milvus, run twice: one
// copy of each file's rows, 384-dim vectors, flattened metadata present. A destination whose
// collection does not exist fails its check and its files with Milvus' reason; the job finishes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL } from '../support/local-stack';
import { destinationSuite, EMBED_NODES } from '../support/e2e-flows';
import { platformSchema, startMilvusTestServer, type MilvusTestServer } from '../../lambdas/connectors/milvus/test-server';

let mv: MilvusTestServer;
const { connect, workflow, runTwice, failsAndFreesSlot } = destinationSuite('wps-mvdest-', {
  trust: true, // the stand-in serves TLS: credentials go over TLS only
  start: async () => {
    mv = await startMilvusTestServer();
    mv.createCollection('elements', platformSchema(384, true));
  },
  stop: () => mv?.stop(),
});

test('milvus destination: two runs leave one copy of each file, 384-dim vectors and metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await connect('mv', 'milvus', { uri: mv.uri, user: 'root', password: 'Milvus', collection_name: 'elements', record_id_key: 'record_id' }, 'password');
  const counts = await runTwice(await workflow('to-mv', id), () => mv.rows('elements').length);
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
  await failsAndFreesSlot({
    name: 'mv-missing', type: 'milvus', config: { uri: mv.uri, token: mv.token, collection_name: 'missing', record_id_key: 'record_id' }, nodes: EMBED_NODES,
    checkReason: /^Collection 'missing' does not exist$/,
    fileError: /milvus destination: Collection 'missing' does not exist/,
  });
});
