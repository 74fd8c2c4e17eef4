// PostgreSQL source (type `postgres`; the platform's sql/postgres.py indexer and downloader): every
// row of `table_name` is one document, identified by its `id_column` value. Listing pages through
// the table by id (keyset: `WHERE id > last ORDER BY id LIMIT batch_size`, so a large table is
// never held in memory and a page is one index range scan); each row becomes the platform's CSV
// document (records/row-document.ts: header + row, the configured `fields` or all columns, the id
// column first) and its version is the hash of those bytes. record_locator: table_name, id_column
// and the row's id. Values are the server's own text form (numerics exact, timestamps as Postgres
// prints them), so a version only changes when the row does.
import pg from 'pg';
import { defineConnector, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { derivedShape } from '../types/derived';
import { withRetry, retryableError } from '../records/retry';
import { readRowDocument, rowObject } from '../records/row-document';
import { describePgError, postgresInput, tableRef, withConnection, type PostgresConnection } from './client';

export interface PostgresSourceConfig extends PostgresConnection, ConnectorConfig {
  table_name: string;
  id_column: string;
  batch_size: number;
  fields?: string[] | null;
}

const BOOL_OID = 16;
/** Every value as the server's text: no float rounding, no time zone shifts. */
const RAW_TEXT = { getTypeParser: () => (v: string) => v };

/** Connection errors and the server's "try again" states (too many connections, serialization). */
function transient(err: unknown): boolean {
  const state = (err as { sqlState?: unknown })?.sqlState;
  return retryableError(err) || state === '53300' || state === '57P03' || state === '40001' || /cannot connect to .*(ECONNRESET|ETIMEDOUT)/.test(String((err as Error)?.message));
}

function columnsSql(c: PostgresSourceConfig): string {
  const id = c.id_column || 'id';
  if (!c.fields?.length) return '*';
  return [...new Set([id, ...c.fields])].map((f) => pg.escapeIdentifier(f)).join(', ');
}

type Row = { columns: string[]; values: unknown[]; id: string };

function rowsOf(res: pg.QueryResult<unknown[]>, idColumn: string): Row[] {
  const columns = res.fields.map((f) => f.name);
  const idIdx = columns.findIndex((n) => n === idColumn) >= 0 ? columns.indexOf(idColumn) : columns.findIndex((n) => n.toLowerCase() === idColumn.toLowerCase());
  if (idIdx < 0) throw new Error(`id_column ${JSON.stringify(idColumn)} is not a column of the result`);
  return res.rows.map((r) => {
    const values = r.map((v, i) => (res.fields[i]!.dataTypeID === BOOL_OID && typeof v === 'string' ? (v === 't' ? 'True' : 'False') : v));
    return { columns, values, id: String(r[idIdx]) };
  });
}

function sourceObject(c: PostgresSourceConfig, row: Row): SourceObject {
  const idColumn = c.id_column || 'id';
  return rowObject(c.table_name, c.fields, row, {
    url: `postgresql://${c.host}:${c.port}/${encodeURIComponent(c.database)}/${c.table_name}?${encodeURIComponent(idColumn)}=${encodeURIComponent(row.id)}`,
    record_locator: { table_name: c.table_name, id_column: idColumn, id: row.id },
  });
}

async function withClient<T>(c: PostgresSourceConfig, ctx: RuntimeContext | undefined, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  return withRetry(() => withConnection(c, ctx?.signal, fn), { signal: ctx?.signal, retryable: transient, attempts: 4 });
}

async function query(client: pg.Client, text: string, values: unknown[], what: string): Promise<pg.QueryResult<unknown[]>> {
  try {
    return await client.query<unknown[]>({ text, values, rowMode: 'array', types: RAW_TEXT });
  } catch (err) {
    throw Object.assign(new Error(`${what}: ${describePgError(err)}`), { sqlState: (err as { code?: unknown }).code });
  }
}

async function* listRows(c: PostgresSourceConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  const table = tableRef(c.table_name).sql;
  const id = pg.escapeIdentifier(c.id_column || 'id');
  const size = Math.max(1, c.batch_size || 100);
  let last: string | undefined;
  for (;;) {
    // One connection per page: a page is short, and a long listing holds no idle connection.
    const rows = await withClient(c, ctx, async (client) => {
      const where = last === undefined ? '' : ` WHERE ${id} > $2`;
      const res = await query(client, `SELECT ${columnsSql(c)} FROM ${table}${where} ORDER BY ${id} LIMIT $1`, last === undefined ? [size] : [size, last], `listing table ${c.table_name}`);
      return rowsOf(res, c.id_column || 'id');
    });
    for (const row of rows) yield sourceObject(c, row);
    if (rows.length < size) return;
    last = rows[rows.length - 1]!.id;
  }
}

async function readRow(c: PostgresSourceConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  const table = tableRef(c.table_name).sql;
  const id = pg.escapeIdentifier(c.id_column || 'id');
  const rows = await withClient(c, ctx, async (client) => rowsOf(await query(client, `SELECT ${columnsSql(c)} FROM ${table} WHERE ${id} = $1`, [key], `reading table ${c.table_name}`), c.id_column || 'id'));
  return readRowDocument(rows, `no row with ${c.id_column || 'id'} = ${JSON.stringify(key)} in table ${c.table_name}`);
}

export const postgresSource = defineConnector<PostgresSourceConfig>({
  ...derivedShape('source', 'postgres', (input) => postgresInput<PostgresSourceConfig>(input)),
  async check(c, ctx) {
    // The platform's precheck is `SELECT 1`; selecting no rows of the configured columns also proves
    // the table, the id column and the fields exist and may be read, with the server's own message.
    return withConnection(c, ctx.signal, async (client) => {
      const res = await query(client, `SELECT ${columnsSql(c)} FROM ${tableRef(c.table_name).sql} ORDER BY ${pg.escapeIdentifier(c.id_column || 'id')} LIMIT 0`, [], `table ${c.table_name}`);
      return `table ${c.table_name}: ${res.fields.length} columns readable`;
    });
  },
  list: listRows,
  read: readRow,
});
