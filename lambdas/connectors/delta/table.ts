// Rows and schema of the Delta table, as the platform's stager builds its data frame
// (DeltaTableUploadStager + convert_to_pandas_dataframe): the element's own fields, its metadata
// flattened with `_` (data_source_record_locator kept whole), and `record_id`; columns that are
// null for the whole document are dropped; the table's schema grows with new columns (the
// platform's schema_mode="merge"). Types follow the platform's pandas dtypes (page_number and
// category_depth integers, coordinates and detection_class_prob doubles, embeddings a list of
// doubles, languages and the other string lists lists of strings); nested values (record_locator,
// links, coordinates_points, ...) are JSON text where pandas/pyarrow would make structs. A value that
// does not fit a column the table already has refuses the record, as delta-rs's schema check does.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { castScalar, shownValue, ValueRefused, type ScalarKind } from '../records/cast';
import { flattenDict, RECORD_ID_FIELD } from '../records/stage';
import type { FileRecords } from '../records/types';

export type ScalarType = 'string' | 'long' | 'integer' | 'double' | 'float' | 'boolean';
export type FieldType = ScalarType | { type: 'array'; elementType: ScalarType; containsNull: boolean };

export interface Field {
  name: string;
  type: FieldType;
  nullable: boolean;
  metadata: Record<string, unknown>;
}

export type Row = Record<string, unknown>;

const array = (elementType: ScalarType): FieldType => ({ type: 'array', elementType, containsNull: true });

/** The platform's dtypes (get_default_pandas_dtypes) for columns whose type a value cannot tell. */
const KNOWN: Record<string, FieldType> = {
  page_number: 'long',
  category_depth: 'long',
  max_characters: 'long',
  is_continuation: 'boolean',
  detection_class_prob: 'double',
  coordinates_layout_width: 'double',
  coordinates_layout_height: 'double',
  embeddings: array('double'),
  languages: array('string'),
  link_texts: array('string'),
  link_urls: array('string'),
  sent_from: array('string'),
  sent_to: array('string'),
  emphasized_text_contents: array('string'),
  emphasized_text_tags: array('string'),
};

/** Characters Delta forbids in column names without column mapping. */
const BAD_NAME = /[ ,;{}()\n\t=]/g;

export function stageRows(file: FileRecords): Row[] {
  return file.elements.map((e) => {
    const { metadata, ...top } = e;
    const row: Row = { ...top, ...flattenDict((metadata ?? {}) as Record<string, unknown>, { keysToOmit: ['data_source_record_locator'] }) };
    row[RECORD_ID_FIELD] = file.recordId;
    const out: Row = {};
    for (const [k, v] of Object.entries(row)) out[k.replace(BAD_NAME, '_')] = v;
    return out;
  });
}

function inferType(name: string, values: unknown[]): FieldType {
  const known = KNOWN[name];
  if (known) return known;
  const v = values.find((x) => x !== null && x !== undefined);
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number' || typeof v === 'bigint') return 'double';
  if (Array.isArray(v)) {
    const items = values.flatMap((x) => (Array.isArray(x) ? x : [])).filter((x) => x !== null);
    if (items.every((x) => typeof x === 'string')) return array('string');
    if (items.every((x) => typeof x === 'number')) return array('double');
  }
  return 'string';
}

export const typeName = (t: FieldType) => (typeof t === 'string' ? t : `array<${t.elementType}>`);

/** The table's fields plus the document's new columns (nullable), and which were added. */
export function mergeSchema(existing: Field[], rows: Row[]): { fields: Field[]; added: Field[]; used: Field[] } {
  const byName = new Map(existing.map((f) => [f.name, f]));
  const names: string[] = [];
  for (const r of rows) for (const [k, v] of Object.entries(r)) if (v !== null && v !== undefined && !names.includes(k)) names.push(k);
  const added: Field[] = [];
  for (const n of names) {
    if (byName.has(n)) continue;
    const f: Field = { name: n, type: inferType(n, rows.map((r) => r[n])), nullable: true, metadata: {} };
    byName.set(n, f);
    added.push(f);
  }
  return { fields: [...existing, ...added], added, used: names.map((n) => byName.get(n)!) };
}

export function parseSchema(schemaString: string | undefined): Field[] {
  if (!schemaString) return [];
  return (JSON.parse(schemaString) as { fields: Field[] }).fields;
}

export function schemaString(fields: Field[]): string {
  return JSON.stringify({ type: 'struct', fields });
}

const KIND: Record<ScalarType, ScalarKind> = { string: 'string', long: 'int64', integer: 'int32', double: 'float', float: 'float', boolean: 'boolean' };

/** A value as the column's type stores it; a value that does not fit throws the record's refusal. */
export function conform(f: Field, v: unknown, elementId: unknown): unknown {
  try {
    if (typeof f.type === 'string') return castScalar(KIND[f.type], v);
    if (v === null || v === undefined) return null;
    const kind = KIND[f.type.elementType];
    return (Array.isArray(v) ? v : [v]).map((x) => castScalar(kind, x));
  } catch (err) {
    if (!(err instanceof ValueRefused)) throw err;
    throw new Error(`the table refused a record (element ${String(elementId)}): column ${f.name} is ${typeName(f.type)} in the table schema, the value ${shownValue(v)} does not fit`);
  }
}

const PARQUET: Record<ScalarType, Record<string, unknown>> = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  long: { type: 'INT64' },
  integer: { type: 'INT32' },
  double: { type: 'DOUBLE' },
  float: { type: 'FLOAT' },
  boolean: { type: 'BOOLEAN' },
};

export function writable(f: Field): boolean {
  const t = f.type as unknown;
  if (typeof t === 'string') return t in PARQUET;
  const a = t as { type?: string; elementType?: unknown };
  return a?.type === 'array' && typeof a.elementType === 'string' && a.elementType in PARQUET;
}

/** The rows as one Parquet file (Snappy), columns in the fields' order; lists in the 3-level LIST layout. */
export function toParquet(fields: Field[], rows: Row[]): Uint8Array {
  const schema: Record<string, unknown>[] = [{ name: 'root', num_children: fields.length }];
  for (const f of fields) {
    if (typeof f.type === 'string') schema.push({ name: f.name, repetition_type: 'OPTIONAL', ...PARQUET[f.type] });
    else {
      schema.push({ name: f.name, repetition_type: 'OPTIONAL', num_children: 1, converted_type: 'LIST', logical_type: { type: 'LIST' } });
      schema.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 });
      schema.push({ name: 'element', repetition_type: 'OPTIONAL', ...PARQUET[f.type.elementType] });
    }
  }
  const columnData = fields.map((f) => ({ name: f.name, data: rows.map((r) => (r[f.name] === undefined ? null : r[f.name])) }));
  return new Uint8Array(parquetWriteBuffer({ columnData, schema } as unknown as Parameters<typeof parquetWriteBuffer>[0]));
}
