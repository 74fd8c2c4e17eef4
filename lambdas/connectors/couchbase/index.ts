// Couchbase destination and source (type `couchbase`, fields from the platform's table:
// connection_string, username, password, bucket, scope and collection (default _default), batch_size;
// the source adds collection_id). Both speak to the Query service's REST API (client.ts says why not
// the SDK). connection_string is couchbases:// (or https://) when a password is set: the password
// goes with every request (basic auth), so a clear-text scheme is a 422 and refused before any
// request. Checks are authenticated statements on the keyspace, failing with the service's text:
// - destination: a delete by a record_id that matches nothing (credentials, keyspace exists, write
//   allowed); on a server before 7.6 without an index to serve it, SUCCESS saying so (the first write
//   creates the index). The check creates nothing.
// - source: the first page of the listing with one row.
import { randomUUID } from 'node:crypto';
import { defineConnector, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { connectionStringProblem, identifierProblem, keyspaceLabel, QueryError, runQuery, type CouchbaseTarget } from './client';
import { listDocuments, listStatement, readDocument, type CouchbaseSourceConfig } from './source';
import { deleteRecords, deleteStatement, RECORD_ID_INDEX, writeDocument } from './writer';
import { checkBatchSize, refineWith } from '../schema';

type DestinationConfig = CouchbaseTarget & ConnectorConfig;
type SourceConfig = CouchbaseSourceConfig & ConnectorConfig;

/** The config checks of both kinds; `names` are the fields that name database objects. */
function refine<C extends ConnectorConfig>(names: readonly string[]) {
  return refineWith<C>((c, ctx) => {
    if (typeof c.connection_string === 'string') {
      const problem = connectionStringProblem(c.connection_string, c.password);
      if (problem) ctx.addIssue({ code: 'custom', path: ['connection_string'], message: problem });
    }
    for (const f of names) {
      if (typeof c[f] !== 'string') continue;
      const problem = identifierProblem(c[f] as string, f);
      if (problem) ctx.addIssue({ code: 'custom', path: [f], message: problem });
    }
    checkBatchSize(c, ctx);
  });
}

export const couchbaseDestination = defineConnector<DestinationConfig>({
  ...derivedShape('destination', 'couchbase', refine<DestinationConfig>(['bucket', 'scope', 'collection'])),
  async check(c, ctx) {
    // A delete that matches nothing: authenticates, needs the keyspace, and is the closest Couchbase
    // allows to proving the user may write.
    try {
      const r = await runQuery(c, deleteStatement(c), {
        named: { record_id: `connection-check-${randomUUID()}` },
        requestPlus: true,
        attempts: 2,
        signal: ctx.signal,
      });
      return `keyspace ${keyspaceLabel(c)}: deletes by record_id accepted (${r.metrics.mutationCount ?? 0} removed)`;
    } catch (err) {
      // 4000: a server without sequential scans (before 7.6) has no index to serve the delete yet;
      // the keyspace exists and the credentials passed (a missing keyspace is 12003, bad ones 10000)
      if (!(err instanceof QueryError && err.queryCode === 4000)) throw err;
      return `keyspace ${keyspaceLabel(c)} found, write permission not yet proven: no index serves a delete by record_id (${err.message}); the first write creates index ${RECORD_ID_INDEX} on record_id, which needs the query_manage_index role (or create it, or a primary index, yourself)`;
    }
  },
  upload: (c, file, ctx) => writeDocument(c, file, ctx),
  removeRecords: (c, recordId, ctx) => deleteRecords(c, recordId, ctx),
});

export const couchbaseSource = defineConnector<SourceConfig>({
  ...derivedShape('source', 'couchbase', refine<SourceConfig>(['bucket', 'scope', 'collection', 'collection_id'])),
  async check(c, ctx) {
    const r = await runQuery(c, listStatement(c), { named: { after: '', limit: 1 }, attempts: 2, signal: ctx.signal });
    return `keyspace ${keyspaceLabel(c)}: listing allowed${r.results.length ? '' : ' (no documents yet)'}`;
  },
  list: (c, ctx) => listDocuments(c, ctx?.signal),
  read: (c, key, ctx) => readDocument(c, key, ctx?.signal),
});
