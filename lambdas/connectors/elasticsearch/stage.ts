// Search-index records as the platform's Elasticsearch/OpenSearch stager shapes them
// (ElasticsearchUploadStager.conform_dict): `_id` the enhanced element id (uuid5 of element_id +
// record_id), `_source` {element_id, embeddings, text, type, record_id, metadata} with the metadata
// flattened one level with '-' between keys (data_source-url, coordinates-points, ...). Other
// top-level element fields are not stored, as on the platform.
import { enhancedElementId } from '../records/ids';
import { flattenDict, RECORD_ID_FIELD } from '../records/stage';
import type { ElementRecord } from '../records/types';

export type Dialect = 'elasticsearch' | 'opensearch';

export interface SearchDoc {
  id: string;
  source: Record<string, unknown>;
}

export function searchDocument(element: ElementRecord, recordId: string): SearchDoc {
  const source: Record<string, unknown> = {
    element_id: element.element_id ?? null,
    embeddings: element.embeddings ?? null,
    text: element.text ?? null,
    type: element.type ?? null,
    [RECORD_ID_FIELD]: recordId,
  };
  const meta = element.metadata;
  if (meta && typeof meta === 'object' && !Array.isArray(meta)) source.metadata = flattenDict(meta, { separator: '-' });
  return { id: enhancedElementId(element.element_id, recordId), source };
}

/** One document's two _bulk NDJSON lines (an `index` action: insert or overwrite by _id), serialized once. */
export interface BulkLines {
  id: string;
  elementId: string;
  action: string;
  source: string;
  /** Bytes of both lines with their newlines. */
  bytes: number;
}

export function bulkLines(index: string, doc: SearchDoc): BulkLines {
  const action = JSON.stringify({ index: { _index: index, _id: doc.id } });
  const source = JSON.stringify(doc.source);
  return { id: doc.id, elementId: String(doc.source.element_id), action, source, bytes: Buffer.byteLength(action) + Buffer.byteLength(source) + 2 };
}

/**
 * The index the writer creates when it is absent: the platform's documented element mapping
 * (record_id and element_id as keywords so a record's documents are found exactly) with the vector
 * field typed for the dialect and sized to the vectors being written. Without vectors (a workflow
 * that does not embed) the field is left to dynamic mapping.
 */
export function indexBody(dialect: Dialect, dims: number | undefined): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    [RECORD_ID_FIELD]: { type: 'keyword' },
    element_id: { type: 'keyword' },
    text: { type: 'text' },
    type: { type: 'keyword' },
    metadata: { type: 'object' },
  };
  if (dims) {
    properties.embeddings = dialect === 'elasticsearch'
      ? { type: 'dense_vector', dims, index: true, similarity: 'cosine' }
      : { type: 'knn_vector', dimension: dims };
  }
  return dialect === 'opensearch' ? { settings: { index: { knn: true } }, mappings: { properties } } : { mappings: { properties } };
}

/**
 * The documents of one record: a phrase match on record_id finds exactly that value whether the
 * user's index maps record_id as keyword (one token: exact match) or as text (the platform's docs
 * example: a uuid's tokens in order), unlike the plain `match` the platform once used, which also
 * hit records sharing a single token. `keep` excludes the ids just written (a rewrite deletes only
 * what the new copy no longer has).
 */
export function recordQuery(recordId: string, keep: readonly string[] = []): Record<string, unknown> {
  const filter = [{ match_phrase: { [RECORD_ID_FIELD]: recordId } }];
  return { bool: keep.length ? { filter, must_not: [{ ids: { values: keep } }] } : { filter } };
}

/** What the index's mapping says about the vector and record fields, for check notes. */
export function describeMapping(mapping: unknown): string {
  const props = (Object.values((mapping ?? {}) as Record<string, { mappings?: { properties?: Record<string, any> } }>)[0]?.mappings?.properties ?? {}) as Record<string, any>;
  const parts: string[] = [];
  const emb = props.embeddings;
  if (emb?.type === 'dense_vector') parts.push(`embeddings dense_vector(${emb.dims ?? '?'})`);
  else if (emb?.type === 'knn_vector') parts.push(`embeddings knn_vector(${emb.dimension ?? '?'})`);
  else if (emb?.type) parts.push(`embeddings mapped as ${emb.type} (not a vector field)`);
  else parts.push('no embeddings mapping yet');
  const rid = props[RECORD_ID_FIELD];
  parts.push(rid?.type ? `record_id ${rid.type}` : 'no record_id mapping yet');
  return parts.join(', ');
}
