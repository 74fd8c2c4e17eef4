// Weaviate objects as the platform's Weaviate connector stages them (WeaviateUploadStager.conform_dict,
// flatten_metadata off, its default): the element's own fields as properties, the metadata kept as a
// nested object whose values Weaviate cannot type natively are made text (record_locator, points,
// links, permissions_data, regex_metadata as JSON; version and page_number as strings; dates as
// RFC 3339), plus `record_id` naming the source document. The embedding is the object's vector, and
// the object's uuid is the platform's enhanced element id (same element of the same document, same
// uuid), so a retried batch overwrites instead of duplicating.
import { enhancedElementId } from '../records/ids';
import { RECORD_ID_FIELD } from '../records/stage';
import type { ElementRecord } from '../records/types';

export interface WeaviateObject {
  id: string;
  properties: Record<string, unknown>;
  vectors?: number[];
}

/** Name of the collection the platform creates when the config names none. */
export const DEFAULT_COLLECTION = 'Unstructuredautocreated';

/**
 * The platform's collection config (unstructured_ingest/processes/connectors/assets/
 * weaviate_collection_config.json): vectors supplied by the writer (no vectorizer), an HNSW index,
 * record_id and text as filterable/searchable text, metadata as a nested object. Other properties are
 * added by Weaviate's auto-schema on the first insert, as on the platform.
 */
export function platformCollectionConfig(name: string): Record<string, unknown> {
  return {
    class: name,
    properties: [
      { dataType: ['text'], indexFilterable: true, indexSearchable: true, name: RECORD_ID_FIELD, tokenization: 'word' },
      { dataType: ['text'], indexFilterable: true, indexSearchable: true, name: 'text', tokenization: 'word' },
      {
        dataType: ['object'],
        name: 'metadata',
        nestedProperties: [{ dataType: ['object'], name: 'data_source', nestedProperties: [{ dataType: ['text'], name: 'version' }] }],
      },
    ],
    vectorizer: 'none',
    vectorIndexType: 'hnsw',
  };
}

/**
 * A collection name as Weaviate wants it (platform: format_destination_name): starts with a letter,
 * letters, digits and underscores only, first letter upper case.
 */
export function collectionName(configured: string | undefined): string {
  const name = configured?.trim() || DEFAULT_COLLECTION;
  if (!/^[a-zA-Z]/.test(name)) throw new Error(`collection ${JSON.stringify(name)} must start with a letter`);
  const formatted = name.replace(/[^a-zA-Z0-9]/g, '_');
  return formatted[0]!.toUpperCase() + formatted.slice(1);
}

/** RFC 3339 with microseconds, as the platform writes dates (strftime %Y-%m-%dT%H:%M:%S.%fZ). */
export function rfc3339(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  const ms = Number.isFinite(n) ? n * 1000 : Date.parse(String(value));
  if (!Number.isFinite(ms)) return undefined;
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

const json = (v: unknown) => JSON.stringify(v);

export function weaviateObject(element: ElementRecord, recordId: string): WeaviateObject {
  const { embeddings, ...rest } = element;
  const properties: Record<string, unknown> = structuredClone(rest);
  const metadata = (properties.metadata ?? {}) as Record<string, unknown>;
  const ds = (metadata.data_source ?? undefined) as Record<string, unknown> | undefined;
  const coords = (metadata.coordinates ?? undefined) as Record<string, unknown> | undefined;
  if (ds?.record_locator) ds.record_locator = json(ds.record_locator);
  if (coords?.points) coords.points = json(coords.points);
  if (metadata.links && (!Array.isArray(metadata.links) || metadata.links.length)) metadata.links = json(metadata.links);
  if (ds?.permissions_data) ds.permissions_data = json(ds.permissions_data);
  for (const key of ['date_created', 'date_modified', 'date_processed'] as const) {
    if (ds?.[key]) ds[key] = rfc3339(ds[key]) ?? ds[key];
  }
  if (metadata.last_modified) metadata.last_modified = rfc3339(metadata.last_modified) ?? metadata.last_modified;
  if (ds?.version) ds.version = String(ds.version);
  if (metadata.page_number) metadata.page_number = String(metadata.page_number);
  if (metadata.regex_metadata) metadata.regex_metadata = json(metadata.regex_metadata);
  properties[RECORD_ID_FIELD] = recordId;
  return {
    id: enhancedElementId(element.element_id, recordId),
    properties: dropNulls(properties) as Record<string, unknown>,
    ...(Array.isArray(embeddings) && embeddings.length ? { vectors: embeddings } : {}),
  };
}

/** Nulls carry no type for Weaviate's auto-schema; the platform's elements omit them too. */
function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined) out[k] = dropNulls(x);
    return out;
  }
  return v;
}
