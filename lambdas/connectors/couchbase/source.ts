// The Couchbase source as the platform's indexer and downloader shape it (CouchbaseIndexer,
// CouchbaseDownloader), over the Query service (client.ts):
// - list: the collection's document ids, paged by keyset (META(d).id > the last id, ORDER BY
//   META(d).id, LIMIT batch_size) to the end; each page also brings the CAS (the version: it changes
//   on every mutation), the encoded size and the `collection_id` field (the platform's record id).
// - a document per record: key = its document id (read again with USE KEYS); filename
//   `<bucket>-<record id>.txt` as the platform names it; the text is the document flattened
//   (flatten_dict, "_" between levels) with each value as Python's str() renders it, one per line
//   (map_cb_results), so the same document partitions to the same text as on the platform.
// - data_source: url `<connection_string>/<bucket>`, version = CAS, record_locator {connection_string,
//   bucket, scope, collection, document_id}.
import type { DataSourceMetadata, SourceObject } from '../definition';
import { flattenDict } from '../records/stage';
import { collectionOf, keyspace, keyspaceLabel, runQuery, scopeOf, type CouchbaseTarget } from './client';

export interface CouchbaseSourceConfig extends CouchbaseTarget {
  /** The document field holding the record id (platform default "id"). */
  collection_id: string;
}

interface ListedRow {
  id: string;
  cas: string;
  size?: number;
  record_id?: unknown;
}

export const listStatement = (c: CouchbaseSourceConfig) =>
  `SELECT META(d).id AS id, TOSTRING(META(d).cas) AS cas, ENCODED_SIZE(d) AS size, d.\`${c.collection_id}\` AS record_id FROM ${keyspace(c)} AS d WHERE META(d).id > $after ORDER BY META(d).id LIMIT $limit`;

export const readStatement = (c: CouchbaseTarget) => `SELECT d AS doc, TOSTRING(META(d).cas) AS cas FROM ${keyspace(c)} AS d USE KEYS $id`;

/** The platform's record id of a listed document: its collection_id field, else the document id. */
function recordIdOf(row: ListedRow): string {
  const v = row.record_id;
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : row.id;
}

export function dataSourceOf(c: CouchbaseSourceConfig, recordId: string, cas: string): DataSourceMetadata {
  return {
    url: `${c.connection_string}/${c.bucket}`,
    version: cas,
    record_locator: { connection_string: c.connection_string, bucket: c.bucket, scope: scopeOf(c), collection: collectionOf(c), document_id: recordId },
  };
}

export async function* listDocuments(c: CouchbaseSourceConfig, signal?: AbortSignal): AsyncIterable<SourceObject> {
  let after = '';
  for (;;) {
    const page = await runQuery(c, listStatement(c), { named: { after, limit: c.batch_size }, signal });
    const rows = page.results as ListedRow[];
    for (const row of rows) {
      if (typeof row?.id !== 'string') throw new Error(`the Query service listed a row without a document id in ${keyspaceLabel(c)}`);
      const recordId = recordIdOf(row);
      yield {
        key: row.id,
        size: typeof row.size === 'number' ? row.size : 0,
        version: String(row.cas),
        // a record id may hold '/', which would read as folders downstream
        filename: `${c.bucket}-${recordId}.txt`.replace(/[/\\]/g, '_'),
        dataSource: dataSourceOf(c, recordId, String(row.cas)),
      };
    }
    if (rows.length < c.batch_size) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** The document's text as the platform's downloader writes it. */
export async function readDocument(c: CouchbaseSourceConfig, id: string, signal?: AbortSignal): Promise<Uint8Array> {
  const r = await runQuery(c, readStatement(c), { named: { id }, signal });
  const row = r.results[0] as { doc?: unknown } | undefined;
  if (!row) throw new Error(`document ${JSON.stringify(id)} not found in ${keyspaceLabel(c)} (deleted since it was listed?)`);
  if (row.doc === null || typeof row.doc !== 'object' || Array.isArray(row.doc)) {
    throw new Error(`document ${JSON.stringify(id)} in ${keyspaceLabel(c)} is not a JSON object`);
  }
  return new TextEncoder().encode(documentText(row.doc as Record<string, unknown>));
}

/** flatten_dict(doc) values, each as Python's str(), joined by newlines (platform: map_cb_results). */
export function documentText(doc: Record<string, unknown>): string {
  return Object.values(flattenDict(doc)).map((v) => pyStr(v)).join('\n');
}

/** Python's str() of a JSON value (repr inside containers), for the platform's exact text. */
export function pyStr(v: unknown, nested = false): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return pyNumber(v);
  if (typeof v === 'string') return nested ? pyRepr(v) : v;
  if (Array.isArray(v)) return `[${v.map((x) => pyStr(x, true)).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${pyRepr(k)}: ${pyStr(x, true)}`).join(', ')}}`;
}

function pyNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  const s = String(n);
  // Python writes exponents with two digits at least (1e+20 → 1e+20, 1e-7 → 1e-07)
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

function pyRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}
