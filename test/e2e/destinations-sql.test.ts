// A workflow writing into Postgres (PGlite with pgvector over the wire) through the HTTP API:
// local source → partition → chunk → embed (built-in 384-dim embedder) → postgres, run twice:
// one copy of each file's records, vectors of the right dimension, metadata present. A destination
// that points nowhere fails its files with the reason; the job still finishes and frees its slot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL } from '../support/local-stack';
import { destinationSuite, EMBED_NODES } from '../support/e2e-flows';
import { platformElementsTable, startPgTestServer, type PgTestServer } from '../../lambdas/connectors/postgres/test-server';

let pg: PgTestServer;
const { connect, workflow, runTwice, failsAndFreesSlot } = destinationSuite('wps-pgdest-', {
  start: async () => {
    pg = await startPgTestServer();
    await pg.db.exec(platformElementsTable());
  },
  stop: () => pg?.stop(),
});

test('postgres destination: two runs leave one copy of each file, 384-dim vectors and metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await connect('pg', 'postgres', { host: pg.host, port: pg.port, database: 'postgres', username: 'app', password: 'secret-pw', table_name: 'elements', batch_size: 100 }, 'password');
  const count = async () => (await pg.db.query<{ n: number }>('SELECT count(*)::int AS n FROM elements')).rows[0]!.n;
  const counts = await runTwice(await workflow('to-pg', id), count);
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
  await failsAndFreesSlot({
    name: 'pg-nowhere', type: 'postgres', config: { host: '127.0.0.1', port: 1, database: 'postgres', username: 'app', password: 'secret-pw', table_name: 'elements', batch_size: 10 }, nodes: EMBED_NODES.slice(0, 2),
    checkReason: /ECONNREFUSED/, secret: 'secret-pw',
    fileError: /postgres destination: cannot connect to 127\.0\.0\.1:1\/postgres: .*ECONNREFUSED/,
  });
});
