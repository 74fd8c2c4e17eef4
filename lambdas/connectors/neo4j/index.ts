// Neo4j destination (type `neo4j`, fields from the platform's table: uri, username, password,
// database, batch_size). uri is bolt+s:// or neo4j+s:// when a password is set (basic auth crosses
// in clear text on bolt:// and neo4j://): a 422 on uri, and refused again before connecting.
// Writes each document as a lexical graph through the official driver (see writer.ts for the graph,
// replace and batching). Check, as the platform's precheck (verify connectivity) and more: the
// driver authenticates (LOGON) and reaches the server, the database exists and accepts a write (a
// node created and deleted in a transaction that is rolled back, so nothing is left), and the
// vector index is reported (present with its dimension, or created by the first write).
import { defineConnector, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { describeNeo4jError, hostOf, uriProblem, withNeo4j, type Neo4jTarget } from './client';
import { removeDocument, VECTOR_INDEX, vectorIndexDimensions, writeDocument } from './writer';

type Neo4jConfig = Neo4jTarget & ConnectorConfig;

const refine = refineWith<Neo4jConfig>((c, ctx) => {
  if (typeof c.uri === 'string') {
    const problem = uriProblem(c.uri, c.password);
    if (problem) ctx.addIssue({ code: 'custom', path: ['uri'], message: problem });
  }
  for (const f of ['database', 'username'] as const) {
    if (typeof c[f] === 'string' && !c[f].trim()) ctx.addIssue({ code: 'custom', path: [f], message: `${f} must not be empty` });
  }
});

export const neo4jDestination = defineConnector<Neo4jConfig>({
  ...derivedShape('destination', 'neo4j', refine),
  check: (c, ctx) =>
    withNeo4j(c, { signal: ctx.signal }, async (driver) => {
      const fail = (what: string, err: unknown) => new Error(`${what}: ${describeNeo4jError(err, c)}`);
      const info = await driver.getServerInfo({ database: c.database }).catch((err) => {
        throw fail(`cannot connect to ${hostOf(c.uri)}`, err);
      });
      const session = driver.session({ database: c.database, defaultAccessMode: 'WRITE' });
      try {
        const tx = await session.beginTransaction();
        try {
          // A write the server must authorize on this database, never committed.
          await tx.run('CREATE (n:`Document` {id: $probe}) DELETE n', { probe: `connection-check-${Date.now()}` });
        } finally {
          await tx.rollback().catch(() => undefined);
        }
      } catch (err) {
        throw fail(`database ${c.database} refused a write`, err);
      } finally {
        await session.close().catch(() => undefined);
      }
      const dims = await vectorIndexDimensions((q, p) => driver.executeQuery(q, p, { database: c.database })).catch(() => undefined);
      const index = dims === undefined ? `no vector index ${VECTOR_INDEX} yet (the first write with embeddings creates it)` : `vector index ${VECTOR_INDEX}: ${dims} dimensions`;
      return `${info.agent ?? 'Neo4j'} at ${info.address ?? hostOf(c.uri)}, database ${c.database}: writes accepted; ${index}`;
    }),
  upload: (c, file, ctx) => writeDocument(c, file, ctx),
  removeRecords: (c, recordId, ctx) => removeDocument(c, recordId, ctx),
});
