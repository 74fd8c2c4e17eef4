// Snowflake destination (type `snowflake`, fields from the platform's table: account, user,
// password, host, port, database, schema, role, table_name, batch_size, record_id_key). Writes one
// row per element through the official snowflake-sdk (see writer.ts for the rows, the statement,
// replace and batching). The table must exist, as the platform's docs require (they give its
// CREATE TABLE). Check, as the platform's precheck (SELECT 1) and more: the login proves the
// credentials; SHOW COLUMNS proves the table exists in the database and schema (FAILURE naming what to
// create) and tells the embeddings' VECTOR dimension; a DELETE by a record id that matches nothing
// must be accepted (the closest Snowflake allows to proving the role may write).
import { randomUUID } from 'node:crypto';
import { defineConnector, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { ACCOUNT, describeSnowflakeError, execute, hostProblem, IDENTIFIER, withSnowflake, type SnowflakeTarget } from './client';
import { deleteDocument, recordKeyOf, tableColumns, tableOf, writeDocument } from './writer';
import { checkBatchSize, refineWith } from '../schema';

type SnowflakeConfig = SnowflakeTarget & ConnectorConfig;

const refine = refineWith<SnowflakeConfig>((c, ctx) => {
  if (typeof c.host === 'string') {
    const problem = hostProblem(c.host);
    if (problem) ctx.addIssue({ code: 'custom', path: ['host'], message: problem });
  }
  if (typeof c.account === 'string' && !ACCOUNT.test(c.account)) ctx.addIssue({ code: 'custom', path: ['account'], message: 'account must be a Snowflake account identifier (e.g. myorg-myaccount)' });
  for (const f of ['table_name', 'record_id_key', 'database', 'schema', 'role'] as const) {
    const v = c[f];
    if (typeof v === 'string' && v !== '' && !IDENTIFIER.test(v)) {
      ctx.addIssue({ code: 'custom', path: [f], message: `${f} must be an unquoted Snowflake identifier (letters, digits, _ and $, not starting with a digit)` });
    }
  }
  if (c.port !== undefined && !(Number.isInteger(c.port) && (c.port as number) >= 1 && (c.port as number) <= 65535)) {
    ctx.addIssue({ code: 'custom', path: ['port'], message: 'port must be a TCP port (1 to 65535)' });
  }
  checkBatchSize(c, ctx);
});

export const snowflakeDestination = defineConnector<SnowflakeConfig>({
  ...derivedShape('destination', 'snowflake', refine),
  check: (c, ctx) =>
    withSnowflake(c, { signal: ctx.signal, timeoutMs: ctx.timeoutMs }, async (conn) => {
      await execute(conn, 'SELECT 1').catch((err) => {
        throw new Error(`SELECT 1 failed: ${describeSnowflakeError(err, c)}`);
      });
      const columns = await tableColumns(conn, c);
      const table = tableOf(c);
      const recordCol = columns.find((col) => col.name.toLowerCase() === recordKeyOf(c).toLowerCase());
      if (!recordCol) throw new Error(`table ${table} has no ${recordKeyOf(c)} column: add it (VARCHAR) so that a rewrite replaces a file's rows`);
      await execute(conn, `DELETE FROM ${table} WHERE ${recordCol.name} = ?`, [`connection-check-${randomUUID()}`]).catch((err) => {
        throw new Error(`table ${table} refused a delete: ${describeSnowflakeError(err, c)}`);
      });
      const vector = columns.find((col) => col.name.toLowerCase() === 'embeddings');
      const emb = !vector ? 'no embeddings column (vectors are not stored)' : vector.type === 'VECTOR' ? `embeddings VECTOR(FLOAT, ${vector.dimension})` : `embeddings ${vector.type}`;
      return `table ${table} in ${c.database}.${c.schema}: ${columns.length} columns; ${emb}; ${recordKeyOf(c)} present (rewrites replace a file's rows); deletes accepted`;
    }),
  upload: (c, file, ctx) => writeDocument(c, file, ctx),
  removeRecords: (c, recordId, ctx) => deleteDocument(c, recordId, ctx),
});
