// Writes a document's element rows into a PostgreSQL table the way the platform's SQL connectors do
// (SQLUploader): rows fitted to the columns the table really has (extra fields dropped, absent
// columns null), the document's earlier rows deleted by record_id first. Unlike the platform, the
// delete and the inserts run in one transaction, so a failed write leaves the previous copy intact
// and N runs always leave exactly one copy.
import type pg from 'pg';
import { batches } from '../records/batch';
import { RECORD_ID_FIELD, sqlRow } from '../records/stage';
import { withRetry } from '../records/retry';
import type { FileRecords, UploadContext, UploadResult } from '../records/types';
import { connect, describePgError, tableRef, type PostgresConnection } from './client';

export interface Column {
  name: string;
  /** pg_type.typname: 'vector', 'jsonb', '_varchar', 'int4', ... */
  typname: string;
  /** pg_type.typcategory: A array, B boolean, D date/time, N numeric, S string, U user-defined. */
  category: string;
}

/** Postgres allows at most 65535 bind parameters per statement. */
const MAX_PARAMS = 65_535;
/** SQLSTATEs worth retrying the whole transaction for: serialization, deadlock, overload, admin shutdown. */
const RETRYABLE_STATES = new Set(['40001', '40P01', '53300', '57P01', '57P03', '08000', '08003', '08006']);

export async function tableColumns(client: pg.Client, table: string): Promise<Column[]> {
  const ref = tableRef(table);
  try {
    const res = await client.query<{ name: string; typname: string; category: string }>(
      `SELECT a.attname AS name, t.typname AS typname, t.typcategory AS category
         FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
        WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY a.attnum`,
      [ref.sql],
    );
    return res.rows;
  } catch (err) {
    if ((err as { code?: string }).code === '42P01') {
      throw new Error(`table ${table} does not exist (create it with the columns the platform documents: id, record_id, element_id, text, embeddings, type, ...)`);
    }
    throw err;
  }
}

/** A staged value as the column's type wants it. */
export function toColumnValue(col: Column, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (col.typname === 'vector' && Array.isArray(v) && v.every((x) => typeof x === 'number')) return binaryVector(v);
  if (col.typname === 'vector' || col.typname === 'halfvec') {
    return Array.isArray(v) ? `[${v.join(',')}]` : typeof v === 'string' ? v : null;
  }
  if (col.category === 'A') return Array.isArray(v) ? v : [v];
  if (col.typname === 'json' || col.typname === 'jsonb') return JSON.stringify(v);
  switch (col.category) {
    case 'S':
      return typeof v === 'object' ? JSON.stringify(v) : String(v);
    case 'N': {
      const n = typeof v === 'number' ? v : Number(v);
      return Number.isFinite(n) ? n : null;
    }
    case 'B':
      return typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : null;
    case 'D':
      return typeof v === 'number' ? new Date(v * 1000) : v;
    default:
      return typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(v) : v;
  }
}

/**
 * A pgvector `vector` in its binary wire form (vector_recv: int16 dimensions, int16 unused, float4
 * big-endian values). The `pg` driver sends a Buffer parameter in binary format, so the server skips
 * parsing the float text: on PGlite that parsing is most of an insert's cost (10,000 × 384 dims:
 * ~770 rows/s as text, ~4,800 as binary on a busy 2-core machine). The column's dimension check is the
 * same either way.
 */
export function binaryVector(v: number[]): Buffer {
  const b = Buffer.allocUnsafe(4 + 4 * v.length);
  b.writeInt16BE(v.length, 0);
  b.writeInt16BE(0, 2);
  for (let i = 0; i < v.length; i++) b.writeFloatBE(v[i]!, 4 + 4 * i);
  return b;
}

export interface PostgresTarget extends PostgresConnection {
  table_name: string;
  batch_size: number;
}

function retryable(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  if (code && RETRYABLE_STATES.has(code)) return true;
  return typeof code === 'string' && ['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE'].includes(code);
}

export async function writeDocument(c: PostgresTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  return withRetry(() => writeOnce(c, file, ctx), {
    attempts: 4,
    signal: ctx.signal,
    retryable,
    onRetry: (err, attempt, delayMs) => ctx.log?.('postgres write retried', { attempt, delayMs, error: describePgError(err) }),
  });
}

async function writeOnce(c: PostgresTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const client = await connect(c, ctx.signal);
  try {
    const columns = await tableColumns(client, c.table_name);
    const table = tableRef(c.table_name).sql;
    const byLower = new Map(columns.map((col) => [col.name.toLowerCase(), col]));
    const rows = file.elements.map((e) => sqlRow(e, file.recordId));
    // The columns this write fills: the table's, in table order, that any row has a value for.
    const present = new Set<string>();
    for (const r of rows) for (const k of Object.keys(r)) if (byLower.has(k.toLowerCase())) present.add(byLower.get(k.toLowerCase())!.name);
    const used = columns.filter((col) => present.has(col.name));
    const dropped = new Set<string>();
    for (const r of rows) for (const k of Object.keys(r)) if (!byLower.has(k.toLowerCase())) dropped.add(k);
    if (dropped.size) ctx.log?.('postgres columns dropped to fit the table', { table: c.table_name, dropped: [...dropped].sort() });
    const recordCol = byLower.get(RECORD_ID_FIELD);
    const idCol = byLower.get('id');

    await client.query('BEGIN');
    try {
      let deleted = 0;
      if (recordCol) {
        deleted = (await client.query(`DELETE FROM ${table} WHERE ${quote(recordCol.name)} = $1`, [file.recordId])).rowCount ?? 0;
      } else if (idCol && rows.length) {
        // No record_id column: the platform skips the delete; deterministic ids still avoid duplicates.
        ctx.log?.('postgres table has no record_id column; replacing rows by id only', { table: c.table_name });
        deleted = (await client.query(`DELETE FROM ${table} WHERE ${quote(idCol.name)} = ANY($1)`, [rows.map((r) => r.id)])).rowCount ?? 0;
      }
      if (used.length) {
        const perStatement = Math.max(1, Math.min(c.batch_size, Math.floor(MAX_PARAMS / used.length)));
        const keysOf = (r: Record<string, unknown>) => new Map(Object.keys(r).map((k) => [k.toLowerCase(), k]));
        const head = `INSERT INTO ${table} (${used.map((col) => quote(col.name)).join(', ')}) VALUES `;
        for (const batch of batches(rows, { maxCount: perStatement })) {
          const params: unknown[] = [];
          const tuples = batch.map((r) => {
            const ks = keysOf(r);
            const slots = used.map((col) => {
              const k = ks.get(col.name.toLowerCase());
              params.push(toColumnValue(col, k === undefined ? null : r[k]));
              return `$${params.length}`;
            });
            return `(${slots.join(', ')})`;
          });
          try {
            await client.query(head + tuples.join(', '), params);
          } catch (err) {
            throw Object.assign(new Error(`the table refused a record: ${describePgError(err)}`), { code: (err as { code?: string }).code });
          }
        }
      }
      await client.query('COMMIT');
      return { written: rows.length, deleted };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function deleteDocument(c: PostgresTarget, recordId: string, ctx: UploadContext): Promise<number | undefined> {
  const client = await connect(c, ctx.signal);
  try {
    const columns = await tableColumns(client, c.table_name);
    const recordCol = columns.find((col) => col.name.toLowerCase() === RECORD_ID_FIELD);
    if (!recordCol) return undefined;
    const res = await client.query(`DELETE FROM ${tableRef(c.table_name).sql} WHERE ${quote(recordCol.name)} = $1`, [recordId]);
    return res.rowCount ?? 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
