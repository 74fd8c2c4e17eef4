// Azure AI Search documents as the platform's stager shapes them (AzureAISearchUploadStager.
// conform_dict): the element as nested JSON with `id` (the enhanced element id) and `record_id`;
// values Azure's EDM types cannot hold as they are become strings (coordinates.points,
// data_source.record_locator/permissions_data, links, regex_metadata as JSON; version and
// page_number as text; dates as ISO-8601 UTC with microseconds). Then each document is fitted to
// the index's field tree (platform: filter_doc_against_tree): fields the index lacks are dropped,
// since Azure refuses a document with an unknown property.
import { enhancedElementId } from '../records/ids';
import { RECORD_ID_FIELD } from '../records/stage';
import type { ElementRecord } from '../records/types';

type Json = Record<string, any>;

export function azureDocument(element: ElementRecord, recordId: string): Json {
  const doc: Json = { ...element, id: enhancedElementId(element.element_id, recordId), [RECORD_ID_FIELD]: recordId };
  if (!element.metadata || typeof element.metadata !== 'object') return doc;
  const md: Json = { ...element.metadata };
  doc.metadata = md;
  if (md.coordinates && typeof md.coordinates === 'object') {
    md.coordinates = { ...md.coordinates };
    if (md.coordinates.points) md.coordinates.points = JSON.stringify(md.coordinates.points);
  }
  if (md.data_source && typeof md.data_source === 'object') {
    const ds: Json = (md.data_source = { ...md.data_source });
    if (ds.version) ds.version = String(ds.version);
    if (ds.record_locator) ds.record_locator = JSON.stringify(ds.record_locator);
    if (ds.permissions_data) ds.permissions_data = JSON.stringify(ds.permissions_data);
    for (const f of ['date_created', 'date_modified', 'date_processed']) if (ds[f]) ds[f] = edmDate(ds[f]);
  }
  if (Array.isArray(md.links) && md.links.length) md.links = md.links.map((l: unknown) => JSON.stringify(l));
  if (md.last_modified) md.last_modified = edmDate(md.last_modified);
  if (md.regex_metadata) md.regex_metadata = JSON.stringify(md.regex_metadata);
  if (md.page_number) md.page_number = String(md.page_number);
  return doc;
}

/** A date (ISO text or epoch seconds) as Edm.DateTimeOffset text: `2026-01-02T03:04:05.000000Z`. */
export function edmDate(v: unknown): unknown {
  const n = typeof v === 'number' ? v : /^\d+(\.\d+)?$/.test(String(v)) ? Number(v) : undefined;
  const t = n !== undefined ? n * 1000 : Date.parse(String(v));
  if (!Number.isFinite(t)) return v;
  return new Date(t).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** The index's fields as a tree: leaves null, complex fields their sub-trees (max depth 10, as Azure). */
export type FieldTree = { [name: string]: FieldTree | null };

export interface IndexField {
  name: string;
  type?: string;
  fields?: IndexField[];
}

export function fieldTree(fields: readonly IndexField[] | undefined, depth = 0): FieldTree {
  const tree: FieldTree = {};
  if (depth >= 10) return tree;
  for (const f of fields ?? []) tree[f.name] = f.fields?.length ? fieldTree(f.fields, depth + 1) : null;
  return tree;
}

/** The document with only the fields the index declares (recursing into complex fields). */
export function fitToTree(doc: Json, tree: FieldTree, dropped?: Set<string>, prefix = ''): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(doc)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (!(k in tree)) {
      dropped?.add(path);
      continue;
    }
    const sub = tree[k];
    if (sub === null || sub === undefined || v === null || typeof v !== 'object') out[k] = v;
    else if (Array.isArray(v)) out[k] = v.map((item) => (item && typeof item === 'object' && !Array.isArray(item) ? fitToTree(item, sub, dropped, path) : item));
    else out[k] = fitToTree(v, sub, dropped, path);
  }
  return out;
}
