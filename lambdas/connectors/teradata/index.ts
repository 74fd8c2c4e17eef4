// Teradata destination and source (type `teradata`, fields from the platform's table: host, user,
// password, database, dbs_port (1025), table_name, batch_size; the destination adds record_id_key,
// the source id_column and fields). Both speak to Teradata's Query Service REST API (client.ts says
// why not a driver, and how host / dbs_port / database map onto it). Checks are authenticated
// statements with the database's text on failure:
// - destination: the table's columns (`SELECT TOP 1 *`, as the platform reads them) and a delete by a
//   record_id that matches nothing (the user may delete there); a table that does not exist yet is a
//   SUCCESS saying the first write creates the platform's table (the platform creates it on upload).
// - source: the table, its id column and fields exist, and the first listing page is readable.
import { randomUUID } from 'node:crypto';
import { defineConnector, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { identifierProblem, selectRows, serviceBase, systemName, tableLabel } from './client';
import { listRows, listStatement, readRow, tableShape, type TeradataSourceConfig } from './source';
import { deleteRecords, PLATFORM_COLUMNS, recordKey, tableColumns, writeDocument, type TeradataTarget } from './writer';
import { checkBatchSize, refineWith } from '../schema';

type DestinationConfig = TeradataTarget & ConnectorConfig;
type SourceConfig = TeradataSourceConfig & ConnectorConfig;

/** The config checks of both kinds; `names` are the fields that name database objects. */
function refine<C extends ConnectorConfig>(names: readonly string[]) {
  return refineWith<C>((c, ctx) => {
    if (typeof c.host === 'string') {
      try {
        serviceBase(c.host);
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['host'], message: (err as Error).message });
      }
    }
    for (const f of names) {
      const values = Array.isArray(c[f]) ? (c[f] as unknown[]) : [c[f]];
      for (const v of values) {
        if (typeof v !== 'string') continue;
        const problem = identifierProblem(v, f);
        if (problem) ctx.addIssue({ code: 'custom', path: [f], message: problem });
      }
    }
    checkBatchSize(c, ctx);
    if (c.dbs_port !== undefined && c.dbs_port !== null && !(Number.isInteger(c.dbs_port) && (c.dbs_port as number) >= 1 && (c.dbs_port as number) <= 65535)) {
      ctx.addIssue({ code: 'custom', path: ['dbs_port'], message: 'dbs_port must be between 1 and 65535' });
    }
  });
}

export const teradataDestination = defineConnector<DestinationConfig>({
  ...derivedShape('destination', 'teradata', refine<DestinationConfig>(['database', 'table_name', 'record_id_key'])),
  async check(c, ctx) {
    const system = await systemName(c, ctx.signal);
    const label = tableLabel(c, c.table_name);
    const columns = await tableColumns(c, ctx.signal);
    if (!columns) {
      // Proves the credentials (the statement ran as the user); the platform creates the table on upload.
      return `system ${system}: table ${label} does not exist (or is not visible to ${c.user}); the first write creates the platform's elements table (${PLATFORM_COLUMNS.join(', ')}), which needs CREATE TABLE on ${c.database || `${c.user}'s default database`}`;
    }
    const removed = await deleteRecords(c, `connection-check-${randomUUID()}`, { signal: ctx.signal }, columns);
    const notes = [`system ${system}: table ${label}, ${columns.length} columns`];
    notes.push(removed === undefined ? `no ${recordKey(c)} column: rows cannot be replaced by record_id on rewrite` : `deletes by ${recordKey(c)} allowed`);
    notes.push(columns.some((n) => n.toLowerCase() === 'metadata') ? 'metadata written as JSON' : 'metadata flattened into the columns the table has');
    return notes.join('; ');
  },
  upload: (c, file, ctx) => writeDocument(c, file, ctx),
  removeRecords: async (c, recordId, ctx) => deleteRecords(c, recordId, ctx),
});

export const teradataSource = defineConnector<SourceConfig>({
  ...derivedShape('source', 'teradata', refine<SourceConfig>(['database', 'table_name', 'id_column', 'fields'])),
  async check(c, ctx) {
    const system = await systemName(c, ctx.signal);
    const shape = await tableShape(c, ctx.signal);
    const page = await selectRows(c, listStatement({ ...c, batch_size: 1 }, shape, true), { signal: ctx.signal, attempts: 2 });
    return `system ${system}: table ${tableLabel(c, c.table_name)} readable by ${shape.id.name}${page.rows.length ? '' : ' (no rows yet)'}`;
  },
  list: (c, ctx) => listRows(c, ctx),
  read: (c, key, ctx) => readRow(c, key, ctx),
});
