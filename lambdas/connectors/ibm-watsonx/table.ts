// Rows of the Iceberg table, as the platform builds them: the SQL stager's row (sqlRow: element fields,
// metadata, data_source and coordinates on one level, `id` the enhanced element id, `record_id`,
// dates as epoch seconds, nested values as JSON text), fitted to the table's columns (case-sensitive,
// columns the table lacks dropped, absent ones null: _fit_to_schema(add_missing_columns=False)), each
// value cast to its column's Iceberg type; a value that does not fit refuses the record, as pyarrow's
// cast refuses it for the platform. Data files are Parquet with the Iceberg field ids in the schema
// (readers project by id), Snappy-compressed by hyparquet-writer, without column statistics.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { castScalar, shownValue, ValueRefused, type ScalarKind } from '../records/cast';
import { sqlRow } from '../records/stage';
import type { FileRecords } from '../records/types';
import type { IcebergField } from './catalog';

export type Row = Record<string, unknown>;

const PRIMITIVES = ['boolean', 'int', 'long', 'float', 'double', 'string'] as const;
type Primitive = (typeof PRIMITIVES)[number];

const PARQUET: Record<Primitive, Record<string, unknown>> = {
  boolean: { type: 'BOOLEAN' },
  int: { type: 'INT32' },
  long: { type: 'INT64' },
  float: { type: 'FLOAT' },
  double: { type: 'DOUBLE' },
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
};

const isPrimitive = (t: unknown): t is Primitive => typeof t === 'string' && (PRIMITIVES as readonly string[]).includes(t);

/** The list element's type, when the field is a list of a primitive this writer writes. */
function listElement(f: IcebergField): { type: Primitive; id: number; required: boolean } | undefined {
  const t = f.type;
  if (typeof t === 'object' && t.type === 'list' && isPrimitive(t.element) && typeof t['element-id'] === 'number') {
    return { type: t.element, id: t['element-id'], required: t['element-required'] === true };
  }
  return undefined;
}

/** Whether this writer can write the column's values (primitives and lists of them). */
export function writableField(f: IcebergField): boolean {
  return isPrimitive(f.type) || listElement(f) !== undefined;
}

export const typeName = (f: IcebergField) => (typeof f.type === 'string' ? f.type : listElement(f) ? `list<${listElement(f)!.type}>` : f.type.type);

/** The document's rows as the platform stages them (before fitting to the table). */
export function stageRows(file: FileRecords): Row[] {
  return file.elements.map((e) => sqlRow(e, file.recordId));
}

const KIND: Record<Primitive, ScalarKind> = { boolean: 'boolean', int: 'int32', long: 'int64', float: 'float', double: 'float', string: 'string' };

/** A value as the column stores it; a value that does not fit throws the record's refusal. */
export function cast(f: IcebergField, v: unknown, elementId: unknown): unknown {
  try {
    if (v === null || v === undefined) {
      if (f.required) throw new ValueRefused();
      return null;
    }
    if (isPrimitive(f.type)) return castScalar(KIND[f.type], v);
    const el = listElement(f);
    if (!el) throw new ValueRefused();
    const kind = KIND[el.type];
    return (Array.isArray(v) ? v : [v]).map((x) => castScalar(kind, x));
  } catch (err) {
    if (!(err instanceof ValueRefused)) throw err;
    const why = writableField(f) ? 'does not fit' : 'cannot be written by this writer (it writes boolean, int, long, float, double, string and lists of them)';
    throw new Error(`the table refused a record (element ${String(elementId)}): column ${f.name} is ${f.required ? 'a required ' : ''}${typeName(f)} in the table schema, the value ${shownValue(v)} ${why}`);
  }
}

/** Rows fitted to the table's columns and cast to their types; the columns that carry a value. */
export function fitRows(fields: IcebergField[], staged: Row[]): { rows: Row[]; columns: IcebergField[]; dropped: string[] } {
  const names = new Set(fields.map((f) => f.name));
  const dropped = [...new Set(staged.flatMap((r) => Object.keys(r)))].filter((k) => !names.has(k));
  const rows = staged.map((r) => Object.fromEntries(fields.map((f) => [f.name, cast(f, r[f.name], r.element_id)])));
  // A column no row has a value for is left out of the file: Iceberg readers read it as null.
  const columns = fields.filter((f) => f.required || rows.some((r) => r[f.name] !== null));
  return { rows, columns, dropped };
}

/** The rows as one Parquet file with the columns' Iceberg field ids (lists in the 3-level layout). */
export function toParquet(columns: IcebergField[], rows: Row[]): Uint8Array {
  const schema: Record<string, unknown>[] = [{ name: 'table', num_children: columns.length }];
  for (const f of columns) {
    const repetition_type = f.required ? 'REQUIRED' : 'OPTIONAL';
    if (isPrimitive(f.type)) schema.push({ name: f.name, repetition_type, field_id: f.id, ...PARQUET[f.type] });
    else {
      const el = listElement(f)!;
      schema.push({ name: f.name, repetition_type, field_id: f.id, num_children: 1, converted_type: 'LIST', logical_type: { type: 'LIST' } });
      schema.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 });
      schema.push({ name: 'element', repetition_type: el.required ? 'REQUIRED' : 'OPTIONAL', field_id: el.id, ...PARQUET[el.type] });
    }
  }
  const columnData = columns.map((f) => ({ name: f.name, data: rows.map((r) => (r[f.name] === undefined ? null : r[f.name])) }));
  // No Parquet column statistics: Iceberg readers prune with the manifest's bounds, and computing
  // min/max over every vector component halves the writer's speed (npm run bench:destinations).
  return new Uint8Array(parquetWriteBuffer({ columnData, schema, statistics: false } as unknown as Parameters<typeof parquetWriteBuffer>[0]));
}
