// Writes a document's element rows into a Snowflake table as the platform's Snowflake uploader does
// (SnowflakeUploader.upload_dataframe):
// - rows staged as for every SQL destination (records/stage.ts sqlRow: element fields, metadata,
//   data_source and coordinates on one level, `id` the enhanced element id, `record_id`), fitted to
//   the columns SHOW COLUMNS reports (case-insensitive; extra fields dropped, absent columns left to
//   their defaults);
// - the platform's statement: INSERT INTO <table> (<cols>) SELECT $1, PARSE_JSON($2),
//   PARSE_JSON($3)::VECTOR(FLOAT, <dim>) ... FROM VALUES (?, ?, ...) — PARSE_JSON for ARRAY, VARIANT
//   and OBJECT columns, the VECTOR cast with the column's own dimension — executed with array binding
//   (one request per batch of batch_size rows, the platform's default 50, and under the SDK's
//   threshold past which it would stage the binds in cloud storage);
// - replace: DELETE FROM <table> WHERE <record_id_key> = ? first (a table without that column: the
//   file's rows deleted by their deterministic ids). Unlike the platform, the delete and the inserts
//   run in one transaction (BEGIN ... COMMIT), so a failed write leaves the previous copy intact and
//   N runs always leave one copy;
// - a row Snowflake refuses fails the file with its message; throttling and 5xx answers are retried
//   by the SDK, then the whole transaction is retried with back-off.
import { batches } from '../records/batch';
import { withRetry } from '../records/retry';
import { RECORD_ID_FIELD, sqlRow } from '../records/stage';
import type { FileRecords, UploadContext, UploadResult } from '../records/types';
import { describeSnowflakeError, execute, retryableSnowflake, withSnowflake, type SnowflakeTarget } from './client';
import type { Connection } from 'snowflake-sdk';

export const DEFAULT_BATCH_SIZE = 50;
export const DEFAULT_TABLE = 'elements';
/** The SDK stages binds in cloud storage above CLIENT_STAGE_ARRAY_BINDING_THRESHOLD (65,280 values). */
const MAX_BINDS_PER_STATEMENT = 60_000;

export interface SnowflakeColumn {
  name: string;
  /** data_type.type of SHOW COLUMNS: TEXT, FIXED, REAL, BOOLEAN, VECTOR, ARRAY, VARIANT, OBJECT, TIMESTAMP_TZ... */
  type: string;
  dimension?: number;
}

export const tableOf = (c: SnowflakeTarget) => c.table_name || DEFAULT_TABLE;
export const recordKeyOf = (c: SnowflakeTarget) => c.record_id_key || RECORD_ID_FIELD;
const batchSizeOf = (c: SnowflakeTarget) => (Number.isInteger(c.batch_size) && c.batch_size! >= 1 ? c.batch_size! : DEFAULT_BATCH_SIZE);

/** The table's columns (SHOW COLUMNS, as the platform reads them); a missing table says what to create. */
export async function tableColumns(conn: Connection, c: SnowflakeTarget): Promise<SnowflakeColumn[]> {
  let rows: Record<string, unknown>[];
  try {
    rows = (await execute(conn, `SHOW COLUMNS IN TABLE ${tableOf(c)}`)).rows;
  } catch (err) {
    const msg = describeSnowflakeError(err, c);
    if (/does not exist/i.test(msg)) {
      throw new Error(`table ${tableOf(c)} does not exist in ${c.database}.${c.schema}: create it with the columns the platform documents (id, record_id, element_id, text, embeddings VECTOR(FLOAT, <dimension>), type, ...). Snowflake: ${msg}`);
    }
    throw new Error(`cannot read the columns of table ${tableOf(c)}: ${msg}`);
  }
  return rows.map((r) => {
    let dt: { type?: string; dimension?: number; vectorDimension?: number } = {};
    try {
      dt = JSON.parse(String(r.data_type ?? '{}'));
    } catch {
      /* a column whose type cannot be read is written as text */
    }
    return { name: String(r.column_name), type: String(dt.type ?? 'TEXT').toUpperCase(), dimension: dt.dimension ?? dt.vectorDimension };
  });
}

const JSON_TYPES = new Set(['ARRAY', 'VARIANT', 'OBJECT']);

/** The SELECT expression of a column (the platform's _parse_select). */
function selectExpr(col: SnowflakeColumn, i: number): string {
  if (col.type === 'VECTOR' && col.dimension) return `PARSE_JSON($${i})::VECTOR(FLOAT,${col.dimension})`;
  if (col.type === 'VECTOR' || JSON_TYPES.has(col.type)) return `PARSE_JSON($${i})`;
  return `$${i}`;
}

/** A staged value as the bind text the column's type wants (null stays null). */
export function bindValue(col: SnowflakeColumn, v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (col.type === 'VECTOR' || JSON_TYPES.has(col.type)) {
    if (typeof v === 'string' && col.type !== 'ARRAY') return JSON.stringify(v);
    return JSON.stringify(col.type === 'ARRAY' && !Array.isArray(v) ? [v] : v);
  }
  if (col.type.startsWith('TIMESTAMP')) {
    const d = typeof v === 'number' ? new Date(v * 1000) : new Date(String(v));
    return Number.isNaN(d.getTime()) ? null : d.toISOString();
  }
  if (col.type === 'FIXED' || col.type === 'REAL') {
    const n = typeof v === 'number' ? v : Number(v);
    return Number.isFinite(n) ? String(n) : null;
  }
  if (col.type === 'BOOLEAN') return typeof v === 'boolean' ? String(v) : v === 'true' || v === 'false' ? v : null;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

export async function writeDocument(c: SnowflakeTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  return withRetry(() => withSnowflake(c, { signal: ctx.signal }, (conn) => writeOnce(conn, c, file, ctx)), {
    attempts: 4,
    signal: ctx.signal,
    retryable: retryableSnowflake,
    onRetry: (err, attempt, delayMs) => ctx.log?.('snowflake write retried', { attempt, delayMs, error: describeSnowflakeError(err, c) }),
  });
}

async function writeOnce(conn: Connection, c: SnowflakeTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const table = tableOf(c);
  const columns = await tableColumns(conn, c);
  const byLower = new Map(columns.map((col) => [col.name.toLowerCase(), col]));
  const rows = file.elements.map((e) => sqlRow(e, file.recordId));
  const present = new Set<string>();
  const dropped = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) (byLower.has(k.toLowerCase()) ? present : dropped).add(k.toLowerCase());
  if (dropped.size) ctx.log?.('snowflake columns dropped to fit the table', { table, dropped: [...dropped].sort() });
  const used = columns.filter((col) => present.has(col.name.toLowerCase()));
  const recordCol = byLower.get(recordKeyOf(c).toLowerCase());
  const idCol = byLower.get('id');

  const run = async (sql: string, binds?: (string | null)[] | (string | null)[][]) => execute(conn, sql, binds);
  await run('BEGIN');
  try {
    let deleted = 0;
    if (recordCol) {
      deleted = (await run(`DELETE FROM ${table} WHERE ${recordCol.name} = ?`, [file.recordId]).catch((err) => {
        throw Object.assign(new Error(`cannot remove the earlier rows of the file from ${table}: ${describeSnowflakeError(err, c)}`), { code: (err as { code?: string }).code, response: (err as { response?: unknown }).response });
      })).updated;
    } else if (idCol && rows.length) {
      ctx.log?.('snowflake table has no record id column; replacing rows by id only', { table, record_id_key: recordKeyOf(c) });
      deleted = (await run(`DELETE FROM ${table} WHERE ${idCol.name} = ?`, rows.map((r) => [String(r.id)]))).updated;
    }
    if (used.length && rows.length) {
      const perStatement = Math.max(1, Math.min(batchSizeOf(c), Math.floor(MAX_BINDS_PER_STATEMENT / used.length)));
      const sql = `INSERT INTO ${table} (${used.map((col) => col.name).join(',')}) SELECT ${used.map((col, i) => selectExpr(col, i + 1)).join(',')} FROM VALUES (${used.map(() => '?').join(',')})`;
      for (const batch of batches(rows, { maxCount: perStatement })) {
        const binds = batch.map((r) => {
          const keys = new Map(Object.keys(r).map((k) => [k.toLowerCase(), k]));
          return used.map((col) => {
            const k = keys.get(col.name.toLowerCase());
            return bindValue(col, k === undefined ? null : r[k]);
          });
        });
        await run(sql, binds).catch((err) => {
          throw Object.assign(new Error(`the table refused a record: ${describeSnowflakeError(err, c)}`), { code: (err as { code?: string }).code, response: (err as { response?: unknown }).response });
        });
      }
    }
    await run('COMMIT');
    return { written: rows.length, deleted };
  } catch (err) {
    await run('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

export async function deleteDocument(c: SnowflakeTarget, recordId: string, ctx: UploadContext): Promise<number | undefined> {
  return withSnowflake(c, { signal: ctx.signal }, async (conn) => {
    const recordCol = (await tableColumns(conn, c)).find((col) => col.name.toLowerCase() === recordKeyOf(c).toLowerCase());
    if (!recordCol) return undefined;
    return (await execute(conn, `DELETE FROM ${tableOf(c)} WHERE ${recordCol.name} = ?`, [recordId])).updated;
  });
}
