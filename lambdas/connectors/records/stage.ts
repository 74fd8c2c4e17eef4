// Turning elements into store records, as the platform's connectors ("upload stagers") do. Each
// store family picks the shape its platform connector uses; the helpers here are the shared parts.
import { enhancedElementId } from './ids';
import type { ElementRecord } from './types';

/** The field naming the source document in every record (platform: RECORD_ID_LABEL). */
export const RECORD_ID_FIELD = 'record_id';

export interface FlattenOptions {
  separator?: string;
  flattenLists?: boolean;
  removeNone?: boolean;
  /** Flattened keys kept as they are (not descended into). */
  keysToOmit?: readonly string[];
}

/** A nested object as one level of `parent<sep>child` keys (platform: flatten_dict). */
export function flattenDict(value: Record<string, unknown>, opts: FlattenOptions = {}, parent = ''): Record<string, unknown> {
  const sep = opts.separator ?? '_';
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const k = parent ? `${parent}${sep}${key}` : key;
    if (opts.keysToOmit?.includes(k)) out[k] = v;
    else if ((v === null || v === undefined) && opts.removeNone) continue;
    else if (v !== null && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, flattenDict(v as Record<string, unknown>, opts, k));
    else if (Array.isArray(v) && opts.flattenLists) {
      v.forEach((item, i) => Object.assign(out, flattenDict({ [`${k}${sep}${i}`]: item }, opts)));
    } else out[k] = v;
  }
  return out;
}

/**
 * The SQL row of an element (platform: SQLUploadStager.conform_dict + conform_dataframe): element
 * fields, metadata, data_source and coordinates merged into one level; `id` the enhanced element id;
 * `record_id` the document; date columns as epoch seconds; nested values as JSON text;
 * version/page_number as text as the platform writes them. Columns the table lacks are dropped by
 * the writer (fitToColumns), absent ones stay null.
 */
export function sqlRow(element: ElementRecord, recordId: string): Record<string, unknown> {
  const { metadata = {}, ...top } = element;
  const { data_source = {}, coordinates = {}, ...meta } = metadata as Record<string, unknown>;
  const row: Record<string, unknown> = { ...top, ...meta, ...(data_source as object), ...(coordinates as object) };
  row.id = enhancedElementId(element.element_id, recordId);
  row[RECORD_ID_FIELD] = recordId;
  for (const col of SQL_DATE_COLUMNS) if (col in row) row[col] = epochSeconds(row[col]);
  for (const col of SQL_JSON_COLUMNS) if (col in row) row[col] = Array.isArray(row[col]) || isObject(row[col]) ? JSON.stringify(row[col]) : null;
  for (const col of SQL_TEXT_COLUMNS) if (col in row && row[col] !== null && row[col] !== undefined) row[col] = String(row[col]);
  for (const [k, v] of Object.entries(row)) if (isObject(v)) row[k] = JSON.stringify(v);
  return row;
}

export const SQL_DATE_COLUMNS = ['date_created', 'date_modified', 'date_processed', 'last_modified'] as const;
const SQL_JSON_COLUMNS = ['permissions_data', 'record_locator', 'points', 'links'] as const;
const SQL_TEXT_COLUMNS = ['version', 'page_number', 'regex_metadata'] as const;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function epochSeconds(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'number') return v;
  // the platform's data_source dates are epoch seconds in a string ("1718307393.0")
  const n = Number(v);
  if (Number.isFinite(n)) return n;
  const t = Date.parse(String(v));
  return Number.isFinite(t) ? t / 1000 : null;
}

/**
 * Keeps the columns a table really has (case-insensitively, using the table's spelling) and
 * reports the dropped ones, so a user's pre-created table works as is (platform: _fit_to_schema).
 */
export function fitToColumns(rows: Record<string, unknown>[], tableColumns: readonly string[]): { columns: string[]; values: unknown[][]; dropped: string[] } {
  const byLower = new Map(tableColumns.map((c) => [c.toLowerCase(), c]));
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  const dropped = [...seen].filter((k) => !byLower.has(k.toLowerCase()));
  const columns = [...tableColumns];
  const lowerToRowKey = (r: Record<string, unknown>) => new Map(Object.keys(r).map((k) => [k.toLowerCase(), k]));
  const values = rows.map((r) => {
    const keysOf = lowerToRowKey(r);
    return columns.map((c) => {
      const k = keysOf.get(c.toLowerCase());
      const v = k === undefined ? null : r[k];
      return v === undefined ? null : v;
    });
  });
  return { columns, values, dropped };
}
