// Writes a document's elements into a Teradata table the way the platform's Teradata uploader does
// (sql/teradata.py TeradataUploader + TeradataUploadStager), over the Query Service (client.ts):
// - the table: `table_name` (platform default "elements") in `database` (else the user's default
//   database). When it does not exist (error 3807) the first write creates the platform's table
//   (assets/teradata_elements_schema.sql: id, record_id, element_id, text CLOB, type, embeddings
//   VECTOR32, metadata JSON; MULTISET, PRIMARY INDEX (id)), as the platform's create_destination does.
// - rows: a table with a `metadata` column gets the platform's metadata_as_json rows (id, record_id,
//   element_id, text, type, embeddings as comma-separated floats, metadata as JSON text); any other
//   table gets the platform's flattened SQL rows (records/stage.ts sqlRow, embeddings
//   comma-separated for VECTOR32, lists and objects as JSON), fitted to the columns the table has
//   (case-insensitively, the table's spelling; platform: _fit_to_schema). Columns are discovered as
//   the platform does: `SELECT TOP 1 *` and the result's column names.
// - replace: DELETE FROM <table> WHERE "<record_id_key>" = ? (platform default record_id) before the
//   inserts; a table without that column is written without the delete (logged), as the platform.
// - batches: INSERT INTO <table> ("c1", ...) VALUES (?, ...) with `batch_size` parameter sets per
//   request (platform default 50), run as one JDBC batch; values are always parameters, names quoted.
//   Each request commits on its own (as the platform's batches do): a failed batch leaves earlier
//   batches of the file in place, and the next write's delete by record_id removes them.
// - a row the database refuses fails the file with Teradata's code and message.
import { enhancedElementId } from '../records/ids';
import { fitToColumns, RECORD_ID_FIELD, sqlRow } from '../records/stage';
import { batches } from '../records/batch';
import type { ElementRecord, FileRecords, UploadContext, UploadResult } from '../records/types';
import { execute, quoteIdent, selectRows, tableLabel, tableSql, TeradataError, type TeradataConnection } from './client';

export interface TeradataTarget extends TeradataConnection {
  table_name: string;
  batch_size: number;
  record_id_key?: string | null;
}

/** A request body's bound (JSON parameters of one batch); batch_size bounds the row count. */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

export const PLATFORM_COLUMNS = ['id', 'record_id', 'element_id', 'text', 'type', 'embeddings', 'metadata'] as const;

/** The platform's table (assets/teradata_elements_schema.sql), for a table that does not exist yet. */
export function createTableStatement(c: TeradataTarget): string {
  return (
    `CREATE MULTISET TABLE ${tableSql(c, c.table_name)} (` +
    `"id" VARCHAR(256) NOT NULL, "record_id" VARCHAR(1024) NOT NULL, "element_id" VARCHAR(256) NOT NULL, ` +
    `"text" CLOB CHARACTER SET UNICODE, "type" VARCHAR(256), "embeddings" VECTOR32, "metadata" JSON) PRIMARY INDEX ("id")`
  );
}

export const columnsStatement = (c: TeradataTarget) => `SELECT TOP 1 * FROM ${tableSql(c, c.table_name)}`;
export const recordKey = (c: TeradataTarget) => c.record_id_key || RECORD_ID_FIELD;

/** The table's column names, or undefined when it does not exist (3807: missing, or not visible to the user). */
export async function tableColumns(c: TeradataTarget, signal?: AbortSignal): Promise<string[] | undefined> {
  try {
    const r = await selectRows(c, columnsStatement(c), { signal });
    return r.columns.map((col) => col.name);
  } catch (err) {
    if (err instanceof TeradataError && err.dbCode === 3807) return undefined;
    throw err;
  }
}

const vectorText = (v: unknown) => (Array.isArray(v) ? v.map((x) => String(x)).join(',') : v === undefined ? null : v);

/** The platform's metadata_as_json row (TeradataUploadStager.conform_dict). */
export function jsonRow(e: ElementRecord, recordId: string): Record<string, unknown> {
  return {
    id: enhancedElementId(e.element_id, recordId),
    [RECORD_ID_FIELD]: recordId,
    element_id: e.element_id ?? '',
    text: e.text ?? null,
    type: e.type ?? null,
    embeddings: e.embeddings ? vectorText(e.embeddings) : null,
    metadata: JSON.stringify(e.metadata ?? {}),
  };
}

/** The platform's flattened row (SQLUploadStager + TeradataUploadStager.conform_dataframe). */
export function flatRow(e: ElementRecord, recordId: string): Record<string, unknown> {
  const row = sqlRow(e, recordId);
  for (const [k, v] of Object.entries(row)) {
    if (k === 'embeddings') row[k] = vectorText(v);
    else if (Array.isArray(v) || (v !== null && typeof v === 'object')) row[k] = JSON.stringify(v);
  }
  return row;
}

/** The table's columns, creating the platform's table first when it is absent. */
async function ensureTable(c: TeradataTarget, ctx: UploadContext): Promise<string[]> {
  const found = await tableColumns(c, ctx.signal);
  if (found) return found;
  try {
    ctx.log?.('teradata table absent: creating the platform\'s elements table', { table: tableLabel(c, c.table_name) });
    await execute(c, createTableStatement(c), { signal: ctx.signal });
  } catch (err) {
    // created meanwhile by a concurrent write (3803: table already exists): use it
    if (!(err instanceof TeradataError && err.dbCode === 3803)) throw new Error(`table ${tableLabel(c, c.table_name)} does not exist and could not be created: ${(err as Error).message}`);
  }
  const cols = await tableColumns(c, ctx.signal);
  if (!cols) throw new Error(`table ${tableLabel(c, c.table_name)} still not visible after its creation`);
  return cols;
}

export async function deleteRecords(c: TeradataTarget, recordId: string, ctx: UploadContext, columns?: string[]): Promise<number | undefined> {
  const cols = columns ?? (await tableColumns(c, ctx.signal));
  if (!cols) return 0;
  const col = cols.find((n) => n.toLowerCase() === recordKey(c).toLowerCase());
  if (!col) return undefined;
  return execute(c, `DELETE FROM ${tableSql(c, c.table_name)} WHERE ${quoteIdent(col)} = ?`, { params: [[recordId]], signal: ctx.signal });
}

export async function writeDocument(c: TeradataTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const label = tableLabel(c, c.table_name);
  const columns = await ensureTable(c, ctx);
  const asJson = columns.some((n) => n.toLowerCase() === 'metadata');
  const key = recordKey(c);
  const rows = file.elements.map((e) => {
    const r = asJson ? jsonRow(e, file.recordId) : flatRow(e, file.recordId);
    if (key !== RECORD_ID_FIELD) {
      r[key] = r[RECORD_ID_FIELD];
      delete r[RECORD_ID_FIELD];
    }
    return r;
  });
  // only the columns some row fills (absent ones stay null / default), in the table's order
  const fitted = fitToColumns(rows, columns);
  if (fitted.dropped.length) ctx.log?.('teradata columns dropped to fit the table', { table: label, dropped: fitted.dropped.sort() });
  const used = fitted.columns.map((name, i) => ({ name, i })).filter(({ i }) => fitted.values.some((v) => v[i] !== null));

  let deleted: number | undefined;
  try {
    deleted = await deleteRecords(c, file.recordId, ctx, columns);
  } catch (err) {
    throw new Error(`cannot remove the earlier rows of the file from ${label}: ${(err as Error).message}`);
  }
  if (deleted === undefined) ctx.log?.(`teradata table has no ${key} column; rows are not replaced on rewrite`, { table: label });
  if (!used.length || !rows.length) return { written: 0, deleted };

  const stmt = `INSERT INTO ${tableSql(c, c.table_name)} (${used.map((u) => quoteIdent(u.name)).join(', ')}) VALUES (${used.map(() => '?').join(', ')})`;
  const sets = fitted.values.map((v) => used.map((u) => v[u.i]));
  try {
    for (const batch of batches(sets, { maxCount: Math.max(1, c.batch_size), maxBytes: MAX_REQUEST_BYTES })) {
      await execute(c, stmt, {
        params: batch,
        batch: true,
        signal: ctx.signal,
        onRetry: (err, attempt, delayMs) => ctx.log?.('teradata insert retried', { attempt, delayMs, error: (err as Error).message }),
      });
    }
  } catch (err) {
    throw new Error(`insert into ${label} failed: ${(err as Error).message}`);
  }
  return { written: rows.length, deleted };
}
