// Snowflake source (type `snowflake`; the platform's sql/snowflake.py, the SQL indexer and downloader
// of sql/sql.py) through the official snowflake-sdk: every row of `table_name` is one document,
// identified by its `id_column` value, as the postgres source does it (records/row-document.ts: one
// CSV per row, `<table>-<id>.csv`, the configured `fields` or all columns, version = hash of the
// row's document; record_locator {table_name, id_column, id}). Listing pages by id (keyset:
// `WHERE id > ? ORDER BY id LIMIT batch_size`, one session per page, each page retried on 429/5xx
// and network failures). Values come as Snowflake's strings (fetchAsString), so numbers and dates
// are exactly what the account stores and the version moves only when the row does.
import type { Connection } from 'snowflake-sdk';
import { defineConnector, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { derivedShape } from '../types/derived';
import { withRetry } from '../records/retry';
import { readRowDocument, rowObject } from '../records/row-document';
import { ACCOUNT, describeSnowflakeError, hostProblem, IDENTIFIER, retryableSnowflake, withSnowflake, type SnowflakeTarget } from './client';
import { checkBatchSize, refineWith } from '../schema';

interface SnowflakeSourceConfig extends SnowflakeTarget, ConnectorConfig {
  table_name: string;
  id_column: string;
  batch_size?: number;
  fields?: string[] | null;
}

const COLUMN = /^[A-Za-z_][A-Za-z0-9_$]*$/;

const refine = refineWith<SnowflakeSourceConfig>((c, ctx) => {
  if (typeof c.host === 'string') {
    const problem = hostProblem(c.host);
    if (problem) ctx.addIssue({ code: 'custom', path: ['host'], message: problem });
  }
  if (typeof c.account === 'string' && !ACCOUNT.test(c.account)) ctx.addIssue({ code: 'custom', path: ['account'], message: 'account must be a Snowflake account identifier (e.g. myorg-myaccount)' });
  for (const f of ['table_name', 'database', 'schema', 'role'] as const) {
    const v = c[f];
    if (typeof v === 'string' && v !== '' && !IDENTIFIER.test(v)) ctx.addIssue({ code: 'custom', path: [f], message: `${f} must be an unquoted Snowflake identifier (letters, digits, _ and $, not starting with a digit)` });
  }
  if (typeof c.id_column === 'string' && !COLUMN.test(c.id_column)) ctx.addIssue({ code: 'custom', path: ['id_column'], message: 'id_column must be an unquoted Snowflake column name' });
  if (Array.isArray(c.fields)) {
    c.fields.forEach((f, i) => {
      if (typeof f === 'string' && !COLUMN.test(f)) ctx.addIssue({ code: 'custom', path: ['fields', i], message: 'fields must be unquoted Snowflake column names' });
    });
  }
  if (c.port !== undefined && !(Number.isInteger(c.port) && (c.port as number) >= 1 && (c.port as number) <= 65535)) ctx.addIssue({ code: 'custom', path: ['port'], message: 'port must be a TCP port (1 to 65535)' });
  checkBatchSize(c, ctx);
});

type Row = { columns: string[]; values: unknown[]; id: string };

const columnsSql = (c: SnowflakeSourceConfig) => (c.fields?.length ? [...new Set([c.id_column, ...c.fields])].join(', ') : '*');

/** One statement, rows as arrays of Snowflake's strings, with the column names in order. */
function select(conn: Connection, sqlText: string, binds: string[], idColumn: string): Promise<Row[]> {
  return new Promise((resolve, reject) =>
    conn.execute({
      sqlText,
      binds,
      rowMode: 'array',
      // Booleans stay booleans (written True/False as pandas does); the rest as Snowflake prints it.
      fetchAsString: ['Number', 'Date', 'JSON', 'Buffer'],
      complete: (err, stmt, rows) => {
        if (err) return reject(err);
        const cols = stmt.getColumns() ?? [];
        const columns = cols.map((col) => col.getName());
        const idIdx = columns.findIndex((n) => n.toLowerCase() === idColumn.toLowerCase());
        if (idIdx < 0) return reject(new Error(`id_column ${idColumn} is not a column of the result`));
        resolve(
          ((rows ?? []) as unknown[][]).map((r) => ({
            columns,
            values: r,
            id: String(r[idIdx]),
          })),
        );
      },
    }),
  );
}

function query(c: SnowflakeSourceConfig, ctx: RuntimeContext | undefined, what: string, sql: string, binds: string[]): Promise<Row[]> {
  return withRetry(
    () =>
      withSnowflake(c, { signal: ctx?.signal }, async (conn) => {
        try {
          return await select(conn, sql, binds, c.id_column);
        } catch (err) {
          throw Object.assign(new Error(`${what}: ${describeSnowflakeError(err, c)}`), { retry: retryableSnowflake(err) });
        }
      }),
    { signal: ctx?.signal, retryable: (err) => (err as { retry?: boolean }).retry === true || retryableSnowflake(err) },
  );
}

function sourceObject(c: SnowflakeSourceConfig, row: Row): SourceObject {
  return rowObject(c.table_name, c.fields, row, {
    url: `snowflake://${c.host}/${c.database}/${c.schema}/${c.table_name}?${encodeURIComponent(c.id_column)}=${encodeURIComponent(row.id)}`,
    record_locator: { table_name: c.table_name, id_column: c.id_column, id: row.id },
  });
}

async function* listRows(c: SnowflakeSourceConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  const size = c.batch_size ?? 100;
  let last: string | undefined;
  for (;;) {
    const where = last === undefined ? '' : ` WHERE ${c.id_column} > ?`;
    const rows = await query(c, ctx, `listing table ${c.table_name}`, `SELECT ${columnsSql(c)} FROM ${c.table_name}${where} ORDER BY ${c.id_column} LIMIT ${size}`, last === undefined ? [] : [last]);
    for (const row of rows) yield sourceObject(c, row);
    if (rows.length < size) return;
    last = rows[rows.length - 1]!.id;
  }
}

async function readRow(c: SnowflakeSourceConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  const rows = await query(c, ctx, `reading table ${c.table_name}`, `SELECT ${columnsSql(c)} FROM ${c.table_name} WHERE ${c.id_column} = ?`, [key]);
  return readRowDocument(rows, `no row with ${c.id_column} = ${JSON.stringify(key)} in table ${c.table_name}`);
}

export const snowflakeSource = defineConnector<SnowflakeSourceConfig>({
  ...derivedShape('source', 'snowflake', refine),
  // The platform's precheck is SELECT 1 after login; selecting no rows of the configured columns also
  // proves the table, the id column and the fields exist for this role, in Snowflake's words.
  check: (c, ctx) =>
    withSnowflake(c, { signal: ctx.signal, timeoutMs: ctx.timeoutMs }, async (conn) => {
      try {
        const rows = await select(conn, `SELECT ${columnsSql(c)} FROM ${c.table_name} ORDER BY ${c.id_column} LIMIT 1`, [], c.id_column);
        return `table ${c.table_name} in ${c.database}.${c.schema}: readable${rows.length ? '' : ' (empty)'}`;
      } catch (err) {
        throw new Error(`table ${c.table_name}: ${describeSnowflakeError(err, c)}`);
      }
    }),
  list: listRows,
  read: readRow,
});
