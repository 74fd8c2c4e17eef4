// Milvus rows as the platform's Milvus connector stages them (MilvusUploadStager.conform_dict): the
// element's fields with the metadata flattened into `<parent>_<child>` columns (flatten_metadata,
// default true; lists kept, nulls dropped), is_continuation defaulted to false, fields_to_include
// applied after flattening (a missing field is an error), the data_source/last_modified dates as epoch
// seconds, languages and data_source_permissions_data as JSON text, and the document's identity in
// `record_id` — here also under the configured record_id_key, so the delete by record_id_key finds it.
// Elements without an embedding are left out: a collection's vector field takes no nulls.
import { flattenDict, RECORD_ID_FIELD } from '../records/stage';
import type { ElementRecord } from '../records/types';

export interface MilvusStageOptions {
  flatten_metadata?: boolean | null;
  fields_to_include?: string[] | null;
  record_id_key: string;
}

const DATE_COLUMNS = ['data_source_date_created', 'data_source_date_modified', 'data_source_date_processed', 'last_modified'];
const JSON_COLUMNS = ['languages', 'data_source_permissions_data'];

function epochSeconds(v: unknown): unknown {
  if (typeof v === 'number') return v;
  const n = Number(v);
  if (v !== '' && Number.isFinite(n)) return n;
  const t = Date.parse(String(v));
  return Number.isFinite(t) ? t / 1000 : v;
}

export function milvusRow(element: ElementRecord, recordId: string, opts: MilvusStageOptions): Record<string, unknown> {
  let row: Record<string, unknown> = { ...element };
  if (opts.flatten_metadata ?? true) {
    const { metadata = {}, ...rest } = row as { metadata?: Record<string, unknown> };
    row = { ...rest, ...flattenDict(metadata, { separator: '_', flattenLists: false, removeNone: true }) };
  }
  if (!('is_continuation' in row)) row.is_continuation = false;
  if (opts.fields_to_include?.length) {
    const keep = new Set(opts.fields_to_include);
    for (const k of Object.keys(row)) if (!keep.has(k)) delete row[k];
    for (const k of opts.fields_to_include) if (!(k in row)) throw new Error(`Field '${k}' is missing in data!`);
  }
  for (const col of DATE_COLUMNS) if (col in row) row[col] = epochSeconds(row[col]);
  for (const col of JSON_COLUMNS) if (col in row) row[col] = JSON.stringify(row[col]);
  row[RECORD_ID_FIELD] = recordId;
  row[opts.record_id_key] = recordId;
  return row;
}

/** The rows of a document (platform: should_include drops elements without embeddings). */
export function milvusRows(elements: readonly ElementRecord[], recordId: string, opts: MilvusStageOptions): Record<string, unknown>[] {
  return elements.filter((e) => 'embeddings' in e && e.embeddings !== undefined).map((e) => milvusRow(e, recordId, opts));
}

/** A Milvus boolean expression string literal (double quotes, backslash escapes). */
export function exprString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
