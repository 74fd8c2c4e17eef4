// Writes a document's elements into a MotherDuck (DuckDB) table as the platform's connector stages
// them (BaseDuckDBUploadStager: element fields, metadata, data_source and coordinates on one level,
// `id` the enhanced element id, version/page_number/regex_metadata as text), fitted to the columns
// the table has. Unlike the platform (insert only), the document's earlier rows are deleted first by
// record_id (or by id when the table has no record_id column), inside one transaction with the
// inserts: N runs leave one copy and a failed write leaves the previous copy. Rows go in batches of
// batch_size (and at most MAX_BATCH_BYTES of JSON) per INSERT; each batch is one JSON parameter
// turned into typed rows by json_transform_strict, so a value the column's type refuses fails the
// write with DuckDB's message instead of becoming NULL.
import { batches } from '../records/batch';
import { RECORD_ID_FIELD, sqlRow } from '../records/stage';
import { withRetry } from '../records/retry';
import type { FileRecords, UploadContext, UploadResult } from '../records/types';
import { describeDuckError, quoteIdent, tableRef, withMotherDuck, type DuckConnection, type MotherDuckTarget } from './client';

export interface Column {
  name: string;
  /** DuckDB's type name: VARCHAR, FLOAT[], DECIMAL(18,3), TIMESTAMP, ... */
  type: string;
}

const REFUSED = 'the table refused a record';
const MAX_BATCH_BYTES = 16 * 1024 * 1024;
/** DuckDB errors worth retrying the whole write for: network (MotherDuck), and write-write conflicts between concurrent files. */
const RETRYABLE = /\b(IO Error|HTTP Error|Connection Error)|Catalog write-write conflict|TransactionContext Error: .*[Cc]onflict/;

export async function tableColumns(conn: DuckConnection, c: MotherDuckTarget): Promise<Column[]> {
  const res = await conn.runAndReadAll(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_catalog = $1 AND table_schema = $2 AND table_name = $3 ORDER BY ordinal_position`,
    [c.database, c.db_schema, c.table],
  );
  const rows = res.getRows() as [string, string][];
  if (!rows.length) {
    throw new Error(
      `table ${c.database}.${c.db_schema}.${c.table} does not exist (create it with the columns the platform documents: id, element_id, text, embeddings FLOAT[], type, ... and a record_id VARCHAR column so rewrites replace a document's rows)`,
    );
  }
  return rows.map(([name, type]) => ({ name, type }));
}

/** Whether the attached database refuses writes (a MotherDuck share is read-only). */
export async function databaseReadOnly(conn: DuckConnection, database: string): Promise<boolean> {
  const res = await conn.runAndReadAll(`SELECT readonly FROM duckdb_databases() WHERE database_name = $1`, [database]);
  return Boolean(res.getRows()[0]?.[0]);
}

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|INT\d*|FLOAT|DOUBLE|REAL|DECIMAL|NUMERIC)/;
const INTEGRAL = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|INT\d*)$/;

/** A staged value as the column's type takes it from JSON; values that do not fit are passed as they are, for DuckDB to refuse. */
export function toColumnValue(col: Column, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  const t = col.type.toUpperCase();
  if (t.endsWith('[]')) {
    if (Array.isArray(v)) return v;
    if (typeof v === 'string' && v.startsWith('[')) {
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return [v];
      }
    }
    return [v];
  }
  if (t.startsWith('TIMESTAMP') || t === 'DATE') return typeof v === 'number' ? new Date(v * 1000).toISOString() : v;
  if (NUMERIC.test(t)) {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (!Number.isFinite(n)) return v;
    return INTEGRAL.test(t) ? Math.round(n) : n;
  }
  if (t === 'BOOLEAN') return typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : v;
  if (t === 'JSON') return v;
  if (t.startsWith('VARCHAR') || t === 'UUID') return typeof v === 'object' ? JSON.stringify(v) : String(v);
  return v;
}

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

export async function writeDocument(c: MotherDuckTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  return withRetry(() => withMotherDuck(c, (conn) => writeOnce(conn, c, file, ctx)), {
    attempts: 4,
    signal: ctx.signal,
    retryable: (err) => {
      const msg = (err as Error)?.message ?? '';
      return !msg.startsWith(REFUSED) && RETRYABLE.test(msg);
    },
    onRetry: (err, attempt, delayMs) => ctx.log?.('motherduck write retried', { attempt, delayMs, error: describeDuckError(err, c) }),
  });
}

async function writeOnce(conn: DuckConnection, c: MotherDuckTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const columns = await tableColumns(conn, c);
  const byLower = new Map(columns.map((col) => [col.name.toLowerCase(), col]));
  const rows = file.elements.map((e) => sqlRow(e, file.recordId));
  const present = new Set<string>();
  const dropped = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) byLower.has(k.toLowerCase()) ? present.add(byLower.get(k.toLowerCase())!.name) : dropped.add(k);
  if (dropped.size) ctx.log?.('motherduck columns dropped to fit the table', { table: c.table, dropped: [...dropped].sort() });
  const used = columns.filter((col) => present.has(col.name));
  const recordCol = byLower.get(RECORD_ID_FIELD);
  const idCol = byLower.get('id');
  const table = tableRef(c);

  // json_transform_strict needs every key in every object: absent values are explicit nulls.
  const spec = sqlString(JSON.stringify([Object.fromEntries(used.map((col) => [col.name, col.type]))]));
  const insert = `INSERT INTO ${table} (${used.map((col) => quoteIdent(col.name)).join(', ')}) SELECT ${used
    .map((col) => `r.${quoteIdent(col.name)}`)
    .join(', ')} FROM (SELECT unnest(json_transform_strict($1::JSON, ${spec})) AS r)`;
  const staged = rows.map((r) => {
    const keys = new Map(Object.keys(r).map((k) => [k.toLowerCase(), k]));
    return Object.fromEntries(used.map((col) => {
      const k = keys.get(col.name.toLowerCase());
      return [col.name, toColumnValue(col, k === undefined ? null : r[k])];
    }));
  });

  await conn.run('BEGIN TRANSACTION');
  try {
    let deleted = 0;
    if (recordCol) {
      deleted = (await conn.run(`DELETE FROM ${table} WHERE ${quoteIdent(recordCol.name)} = $1`, [file.recordId])).rowsChanged;
    } else if (idCol && rows.length) {
      ctx.log?.('motherduck table has no record_id column; replacing rows by id only', { table: c.table });
      const ids = JSON.stringify(rows.map((r) => String(r.id)));
      deleted = (await conn.run(`DELETE FROM ${table} WHERE ${quoteIdent(idCol.name)} IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]')))`, [ids])).rowsChanged;
    }
    if (used.length) {
      for (const batch of batches(staged, { maxCount: c.batch_size, maxBytes: MAX_BATCH_BYTES })) {
        try {
          await conn.run(insert, [JSON.stringify(batch)]);
        } catch (err) {
          throw new Error(`${REFUSED}: ${describeDuckError(err, c)}`);
        }
      }
    }
    await conn.run('COMMIT');
    return { written: rows.length, deleted };
  } catch (err) {
    await conn.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

export async function deleteDocument(c: MotherDuckTarget, recordId: string): Promise<number | undefined> {
  return withMotherDuck(c, async (conn) => {
    const columns = await tableColumns(conn, c);
    const recordCol = columns.find((col) => col.name.toLowerCase() === RECORD_ID_FIELD);
    if (!recordCol) return undefined;
    return (await conn.run(`DELETE FROM ${tableRef(c)} WHERE ${quoteIdent(recordCol.name)} = $1`, [recordId])).rowsChanged;
  });
}
