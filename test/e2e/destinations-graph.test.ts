// Workflows writing into Neo4j (the Bolt 5.4 stand-in, through the official neo4j-driver) through the
// HTTP API: local source → partition → chunk → embed (built-in 384-dim embedder) → destination, run
// twice: one copy of each file's graph (Document + Chunk nodes), 384-dim embeddings, metadata present.
// The stand-in records the statements and applies the writer's statement shapes to an in-memory graph
// (it does not execute Cypher). A destination that validates but points nowhere fails its check and
// its files with the driver's reason; the job finishes and frees its slot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL } from '../support/local-stack';
import { destinationSuite } from '../support/e2e-flows';
import { startNeo4jStandIn, type Neo4jStandIn } from '../../lambdas/connectors/neo4j/test-server';
import { closedPort } from '../integration/connectors/helpers';

let neo: Neo4jStandIn;
const { connect, workflow, twice, pointNowhere } = destinationSuite('wps-graphdest-', {
  trust: true, // the stand-in serves neo4j+s (the password goes over TLS only)
  start: async () => {
    neo = await startNeo4jStandIn({ users: { app: { password: 'neo4j-e2e-secret' } } });
  },
  stop: () => neo?.stop(),
});

const tally = () => {
  const out: Record<string, number> = {};
  for (const n of neo.nodes('Chunk')) out[String(n.properties.metadata_filename)] = (out[String(n.properties.metadata_filename)] ?? 0) + 1;
  return out;
};

test('neo4j: two runs leave one copy of each file\'s graph, 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await connect('graph', 'neo4j', { uri: neo.uri('neo4j+s'), username: 'app', password: 'neo4j-e2e-secret', database: 'neo4j', batch_size: 50 }, 'password');
  await twice(await workflow('to-neo4j', id), tally);
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
  await pointNowhere([{
    type: 'neo4j', config: { uri: `bolt+s://127.0.0.1:${port}`, username: 'app', password: 'neo4j-nowhere-secret', database: 'neo4j' }, secret: 'neo4j-nowhere-secret',
    reason: /^cannot connect to 127\.0\.0\.1:\d+: .*ECONNREFUSED/,
    fileReason: /neo4j destination: cannot connect to 127\.0\.0\.1:\d+: Failed to connect to server\..*ECONNREFUSED/,
  }]);
});
