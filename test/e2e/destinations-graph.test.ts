// Workflows writing into Neo4j (the Bolt 5.4 stand-in, through the official neo4j-driver) through the
// HTTP API: local source → partition → chunk → embed (built-in 384-dim embedder) → destination, run
// twice: one copy of each file's graph (Document + Chunk nodes), 384-dim embeddings, metadata present.
// The stand-in records the statements and applies the writer's statement shapes to an in-memory graph
// (it does not execute Cypher). A destination that validates but points nowhere fails its check and
// its files with the driver's reason; the job finishes and frees its slot.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { assertNoJobRunning, e2eFlows, EMBED_NODES, failedFiles, stageInput } from '../support/e2e-flows';
import { startNeo4jStandIn, type Neo4jStandIn } from '../../lambdas/connectors/neo4j/test-server';
import { closedPort } from '../integration/connectors/helpers';
import { trustStandIns } from '../support/stand-in-ca';

let stack: TestStack;
let neo: Neo4jStandIn;
let sourceId: string;
let untrustStandIns: (() => void) | undefined;
const inDir = join(mkdtempSync(join(tmpdir(), 'wps-graphdest-')), 'in');
const { check, workflow, runToEnd } = e2eFlows(() => stack, () => sourceId);

before(async () => {
  if (NEEDS_LOCAL) return;
  stageInput(inDir);
  untrustStandIns = trustStandIns(); // the stand-in serves neo4j+s (the password goes over TLS only)
  neo = await startNeo4jStandIn({ users: { app: { password: 'neo4j-e2e-secret' } } });
  stack = await startTestStack();
  sourceId = (await stack.call('POST', '/api/v1/sources/', { body: { name: 'in', type: 'local', config: { remote_url: inDir } } })).body.id;
});
after(async () => {
  await stack?.close();
  await neo?.stop();
  untrustStandIns?.();
});

const tally = () => {
  const out: Record<string, number> = {};
  for (const n of neo.nodes('Chunk')) out[String(n.properties.metadata_filename)] = (out[String(n.properties.metadata_filename)] ?? 0) + 1;
  return out;
};

test('neo4j: two runs leave one copy of each file\'s graph, 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const dest = await stack.call('POST', '/api/v1/destinations/', {
    body: { name: 'graph', type: 'neo4j', config: { uri: neo.uri('neo4j+s'), username: 'app', password: 'neo4j-e2e-secret', database: 'neo4j', batch_size: 50 } },
  });
  assert.equal(dest.status, 200, dest.text);
  assert.equal(dest.body.config.password, '**********');
  const c = await check(dest.body.id);
  assert.equal(c.status, 'SUCCESS', c.reason);

  const wf = await workflow('to-neo4j', dest.body.id);
  const counts: Record<string, number>[] = [];
  for (let i = 0; i < 2; i++) {
    const job = await runToEnd(wf);
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    counts.push(tally());
  }
  assert.deepEqual(Object.keys(counts[0]!).sort(), ['README.md', 'fake-text.txt']);
  assert.deepEqual(counts[1], counts[0], 'the second run replaced each file\'s graph, not duplicated it');
  assert.equal(neo.nodes('Document').length, 2);
  // Each rewrite deleted the document's graph by its record_id before writing it again.
  const deletes = neo.statements.filter((s) => s.query.startsWith('MATCH (d:`Document` {id: $record_id})'));
  assert.equal(deletes.length, 4);
  assert.deepEqual(new Set(deletes.map((d) => d.params.record_id)), new Set(neo.nodes('Document').map((d) => d.id)));

  const sample = neo.nodes('Chunk').find((n) => n.properties.metadata_filename === 'fake-text.txt')!;
  assert.equal(sample.embedding?.length, 384);
  assert.equal(sample.properties.type, 'CompositeElement');
  assert.equal(sample.properties.metadata_filetype, 'text/plain');
  assert.ok(String(sample.properties.text).length > 0 && sample.properties.element_id);
  assert.ok(neo.nodes('Document').some((d) => d.id === sample.properties.record_id));
  assert.equal(neo.indexes.get('chunk_vector')?.dimensions, 384);
  assert.equal(neo.edges('PART_OF_DOCUMENT').length, neo.nodes('Chunk').length);
});

test('neo4j pointing nowhere: FAILURE check, files failed with the driver\'s reason, job finished', { skip: NEEDS_LOCAL }, async () => {
  const port = await closedPort();
  const dest = await stack.call('POST', '/api/v1/destinations/', {
    body: { name: 'neo4j-nowhere', type: 'neo4j', config: { uri: `bolt+s://127.0.0.1:${port}`, username: 'app', password: 'neo4j-nowhere-secret', database: 'neo4j' } },
  });
  assert.equal(dest.status, 200, dest.text);
  const c = await check(dest.body.id);
  assert.equal(c.status, 'FAILURE');
  assert.match(c.reason, /^cannot connect to 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  assert.ok(!c.reason.includes('neo4j-nowhere-secret'));
  const job = await runToEnd(await workflow('neo4j-nowhere', dest.body.id, EMBED_NODES.slice(0, 2)));
  assert.equal(job.status, 'FAILED');
  const failed = await failedFiles(stack, job.id);
  assert.equal(failed.length, 2);
  for (const f of failed) {
    assert.match(f.error, /neo4j destination: cannot connect to 127\.0\.0\.1:\d+: Failed to connect to server\..*ECONNREFUSED/);
    assert.ok(!f.error.includes('neo4j-nowhere-secret'));
  }
  await assertNoJobRunning(stack);
});
