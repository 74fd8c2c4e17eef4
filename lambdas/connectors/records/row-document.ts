// How a database row becomes a document, the way the platform's SQL connectors do it (sql/sql.py
// SQLDownloader): one CSV per row (pandas `to_csv(index=False)`: a header line of the column names,
// then the row), named `<table>-<id>.csv`, or `<table>-<id>-<sha256(fields)[:8]>.csv` when the
// config selects fields. The row's version is a hash of those bytes: the platform's SQL indexer
// gives none, and a hash is the one version that changes exactly when the document does.
import { createHash } from 'node:crypto';
import type { DataSourceMetadata, SourceObject } from '../definition';

/** One CSV field as pandas writes it (QUOTE_MINIMAL): quoted when it holds a comma, quote or line break. */
function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'string' ? v : typeof v === 'boolean' ? (v ? 'True' : 'False') : v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The CSV document of one row: header, then the values in column order, each line ending in \n. */
export function rowCsv(columns: readonly string[], values: readonly unknown[]): Uint8Array {
  const lines = [columns.map(csvField).join(','), values.map(csvField).join(',')];
  return new TextEncoder().encode(lines.join('\n') + '\n');
}

/** sha256 of a document's bytes, hex: the version of a record whose store states none. */
export function contentVersion(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The platform's file name of a row document (SQLDownloader.get_identifier + '.csv'). */
export function rowFilename(table: string, id: string, fields?: readonly string[] | null): string {
  let f = `${table}-${id}`;
  if (fields && fields.length) f += `-${createHash('sha256').update(fields.join(',')).digest('hex').slice(0, 8)}`;
  return `${f}.csv`;
}

/** A row of a source's table: its columns, values in that order, and its id as a key. */
export interface TableRow {
  columns: readonly string[];
  values: readonly unknown[];
  id: string;
}

/**
 * A listed row as its CSV document: keyed by the row's id, versioned by its bytes, named as the
 * platform names it; `located` gives the row's data_source url and record_locator.
 */
export function rowObject(table: string, fields: readonly string[] | null | undefined, row: TableRow, located: Pick<DataSourceMetadata, 'url' | 'record_locator'>): SourceObject {
  const bytes = rowCsv(row.columns, row.values);
  const version = contentVersion(bytes);
  return {
    key: row.id,
    size: bytes.byteLength,
    version,
    filename: rowFilename(table, row.id.replace(/[/\\]/g, '_'), fields),
    dataSource: { url: located.url, version, record_locator: located.record_locator },
  };
}

/** The document of the row read back by its key: the first row, or an error saying none is left (`missing`). */
export function readRowDocument(rows: readonly TableRow[], missing: string): Uint8Array {
  if (!rows[0]) throw new Error(missing);
  return rowCsv(rows[0].columns, rows[0].values);
}
