// The Teradata source (platform: sql/teradata.py TeradataIndexer + TeradataDownloader, over the SQL
// base sql/sql.py), through the Query Service (client.ts): every row of `table_name` is one document
// identified by its `id_column` value.
// - list: keyset pages of `batch_size` rows (`SELECT TOP n ... WHERE "id" > ? ORDER BY "id"`), so a
//   large table is never held in memory (the platform reads every id, sorted, then batches them);
//   the real spelling of the id column and of `fields` comes from `SELECT TOP 1 *` as the platform
//   resolves it (_resolve_db_column_case), names always quoted (reserved words such as "type").
// - a document = the platform's CSV of the row (records/row-document.ts: header of the lower-cased
//   column names, as the platform's downloader names them, then the row; `fields` or all columns,
//   the id column first), `<table>-<id>.csv`; version = sha256 of those bytes.
// - data_source: url teradata://host:dbs_port/database/table?id_column=id, record_locator
//   {host, table_name, id_column, id}.
import type { DataSourceMetadata, RuntimeContext, SourceObject } from '../definition';
import { readRowDocument, rowObject } from '../records/row-document';
import { quoteIdent, selectRows, tableLabel, tableSql, type ResultColumn, type TeradataConnection } from './client';

export interface TeradataSourceConfig extends TeradataConnection {
  table_name: string;
  id_column?: string | null;
  batch_size: number;
  fields?: string[] | null;
}

const NUMERIC = /^(BYTEINT|SMALLINT|INTEGER|INT|BIGINT|DECIMAL|NUMERIC|NUMBER|FLOAT|REAL|DOUBLE)/i;

interface TableShape {
  id: ResultColumn;
  /** The selected columns' SQL (the id first), or '*'. */
  select: string;
}

export const idColumnOf = (c: TeradataSourceConfig) => c.id_column || 'id';

/** The id column and the selected fields as the table spells them (platform: SELECT TOP 1 *). */
export async function tableShape(c: TeradataSourceConfig, signal?: AbortSignal): Promise<TableShape> {
  const probe = await selectRows(c, `SELECT TOP 1 * FROM ${tableSql(c, c.table_name)}`, { signal });
  const byLower = new Map(probe.columns.map((col) => [col.name.toLowerCase(), col]));
  const resolve = (name: string) => byLower.get(name.toLowerCase());
  const id = resolve(idColumnOf(c));
  if (!id) throw new Error(`id_column ${JSON.stringify(idColumnOf(c))} is not a column of table ${tableLabel(c, c.table_name)} (columns: ${probe.columns.map((col) => col.name).join(', ')})`);
  if (!c.fields?.length) return { id, select: '*' };
  const names = [...new Set([idColumnOf(c), ...c.fields])].map((f) => {
    const col = resolve(f);
    if (!col) throw new Error(`field ${JSON.stringify(f)} is not a column of table ${tableLabel(c, c.table_name)}`);
    return quoteIdent(col.name);
  });
  return { id, select: names.join(', ') };
}

export function listStatement(c: TeradataSourceConfig, shape: TableShape, first: boolean): string {
  const id = quoteIdent(shape.id.name);
  return `SELECT TOP ${Math.max(1, c.batch_size)} ${shape.select} FROM ${tableSql(c, c.table_name)}${first ? '' : ` WHERE ${id} > ?`} ORDER BY ${id}`;
}

export const readStatement = (c: TeradataSourceConfig, shape: TableShape) => `SELECT ${shape.select} FROM ${tableSql(c, c.table_name)} WHERE ${quoteIdent(shape.id.name)} = ?`;

interface Row {
  columns: string[];
  values: unknown[];
  rawId: unknown;
  id: string;
}

function rowsOf(columns: ResultColumn[], rows: unknown[][], idName: string): Row[] {
  const names = columns.map((col) => col.name.toLowerCase());
  const idIdx = names.indexOf(idName.toLowerCase());
  if (idIdx < 0) throw new Error(`the result has no ${idName} column`);
  return rows.map((values) => ({ columns: names, values, rawId: values[idIdx], id: String(values[idIdx]) }));
}

/** The database host a `host` names (a Query Service URL's host name). */
const hostOf = (host: string) => (/^https?:\/\//i.test(host.trim()) ? new URL(host.trim()).hostname : host.trim());

/** Where a row is: its data_source url and record_locator. */
function rowLocation(c: TeradataSourceConfig, id: string): Pick<DataSourceMetadata, 'url' | 'record_locator'> {
  const idColumn = idColumnOf(c);
  const db = c.database ? `/${encodeURIComponent(c.database)}` : '';
  return {
    url: `teradata://${hostOf(c.host)}:${c.dbs_port ?? 1025}${db}/${encodeURIComponent(c.table_name)}?${encodeURIComponent(idColumn)}=${encodeURIComponent(id)}`,
    record_locator: { host: c.host, table_name: c.table_name, id_column: idColumn, id },
  };
}

function sourceObject(c: TeradataSourceConfig, row: Row): SourceObject {
  return rowObject(c.table_name, c.fields, row, rowLocation(c, row.id));
}

export async function* listRows(c: TeradataSourceConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  const shape = await tableShape(c, ctx?.signal);
  const size = Math.max(1, c.batch_size);
  let last: unknown;
  let first = true;
  for (;;) {
    const page = await selectRows(c, listStatement(c, shape, first), { ...(first ? {} : { params: [[last]] }), rowLimit: size, signal: ctx?.signal });
    // a page cut by the service's row limit would end the listing early without a word
    if (page.rowLimitExceeded) throw new Error(`the Query Service cut a listing page of table ${tableLabel(c, c.table_name)} at its row limit (batch_size ${size} is above the limit it allows)`);
    const rows = rowsOf(page.columns, page.rows, shape.id.name);
    for (const row of rows) yield sourceObject(c, row);
    if (rows.length < size) return;
    last = rows[rows.length - 1]!.rawId;
    first = false;
  }
}

export async function readRow(c: TeradataSourceConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  const shape = await tableShape(c, ctx?.signal);
  // the id as the column's type wants it (keys are strings; a numeric id is compared as a number)
  const param = NUMERIC.test(shape.id.type ?? '') && /^-?\d+(\.\d+)?$/.test(key) ? Number(key) : key;
  const res = await selectRows(c, readStatement(c, shape), { params: [[param]], signal: ctx?.signal });
  const rows = rowsOf(res.columns, res.rows, shape.id.name);
  return readRowDocument(rows, `no row with ${idColumnOf(c)} = ${JSON.stringify(key)} in table ${tableLabel(c, c.table_name)} (deleted since it was listed?)`);
}
