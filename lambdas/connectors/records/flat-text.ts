// The text of a record the way the platform's MongoDB and Elasticsearch/OpenSearch downloaders write
// it: the record flattened (nested keys joined with '_', utils/data_prep.flatten_dict), its values
// one per line as Python's str() prints them ('\n'.join(str(v) for v in flat.values())).

const isBson = (v: unknown): v is { _bsontype: string; toString(): string; toHexString?(): string } =>
  typeof v === 'object' && v !== null && typeof (v as { _bsontype?: unknown })._bsontype === 'string';

/** A value as Python's str() prints it; strings as they are, containers as their repr. */
export function pyStr(v: unknown): string {
  return typeof v === 'string' ? v : pyRepr(v);
}

function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  // pymongo gives naive UTC datetimes: str() is "YYYY-MM-DD HH:MM:SS[.ffffff]".
  if (v instanceof Date) return v.toISOString().replace('T', ' ').replace(/\.000Z$/, '').replace(/\.(\d{3})Z$/, '.$1000');
  if (isBson(v)) return v._bsontype === 'ObjectId' && v.toHexString ? v.toHexString() : v.toString();
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(', ')}}`;
}

/** flatten_dict: nested objects become `parent_child` keys; lists and scalars stay values. */
export function flattenRecord(doc: Record<string, unknown>, parent = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [k, v] of Object.entries(doc)) {
    const key = parent ? `${parent}_${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) && !isBson(v)) flattenRecord(v as Record<string, unknown>, key, out);
    else out[key] = v;
  }
  return out;
}

/** The record's document text: its flattened values, one per line. */
export function flatText(doc: Record<string, unknown>): string {
  return Object.values(flattenRecord(doc)).map(pyStr).join('\n');
}
