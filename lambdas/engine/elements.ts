// The document element model shared by the partition, chunking and embedding engines.
// Mirrors the open-source `unstructured` library's element JSON (type, element_id, text, metadata,
// optional embeddings). Metadata is sparse: absent keys are omitted, never null.
import crypto, { createHash, randomUUID } from 'node:crypto';

export const ELEMENT_TYPES = [
  'Title',
  'NarrativeText',
  'ListItem',
  'Table',
  'TableChunk',
  'Header',
  'Footer',
  'Image',
  'FigureCaption',
  'Formula',
  'CodeSnippet',
  'PageBreak',
  'PageNumber',
  'Address',
  'EmailAddress',
  'UncategorizedText',
  'CompositeElement',
  'CheckBox',
] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

export interface Coordinates {
  points: [number, number][];
  system: 'PixelSpace' | 'PointSpace' | string;
  layout_width: number;
  layout_height: number;
}

export interface ElementMetadata {
  filename?: string;
  filetype?: string;
  file_directory?: string;
  last_modified?: string;
  page_number?: number;
  page_name?: string;
  languages?: string[];
  parent_id?: string;
  category_depth?: number;
  text_as_html?: string;
  link_urls?: string[];
  link_texts?: string[];
  link_start_indexes?: number[];
  emphasized_text_contents?: string[];
  emphasized_text_tags?: string[];
  coordinates?: Coordinates;
  header_footer_type?: string;
  is_continuation?: boolean;
  sent_from?: string[];
  sent_to?: string[];
  cc_recipient?: string[];
  bcc_recipient?: string[];
  subject?: string;
  email_message_id?: string;
  attached_to_filename?: string;
  image_base64?: string;
  image_mime_type?: string;
  orig_elements?: string;
  detection_class_prob?: number;
  /** Set when a fallback path was taken (e.g. VLM requested but no provider configured). */
  partitioner_note?: string;
  data_source?: Record<string, unknown>;
  chunk_index?: number;
  [key: string]: unknown;
}

export interface Element {
  type: ElementType | string;
  element_id: string;
  text: string;
  metadata: ElementMetadata;
  embeddings?: number[];
  checked?: boolean;
}

// -- crypto.hash (Node >= 20.12) is the one-shot digest: several times cheaper than a Hash object for short input --
const oneShot = (crypto as { hash?: (alg: string, data: string, enc: 'hex') => string }).hash;
export const sha256Hex = oneShot
  ? (data: string) => oneShot('sha256', data, 'hex')
  : (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');

/**
 * The open-source library's deterministic id: first 32 hex chars of SHA-256 over
 * `${filename}${text}${page_number}${index_within_page}` (Python renders a missing value as "None").
 */
export function hashElementId(
  filename: string | undefined,
  text: string,
  pageNumber: number | undefined,
  indexOnPage: number,
): string {
  const data = `${filename ?? 'None'}${text}${pageNumber ?? 'None'}${indexOnPage}`;
  return sha256Hex(data).slice(0, 32);
}

/**
 * Replaces provisional ids with final ones (hash ids, or UUID4 when `unique` is set) and remaps
 * `parent_id` references accordingly. Elements are numbered within their page in document order.
 * Ids are unique within the response: the library's formula joins its parts without separators, so
 * two elements can hash the same string ("…Manual" on page 12 as item 23, and on page 122 as item 3);
 * the later one then gets the hash of that string with a separator and a counter appended.
 */
export function assignElementIds(elements: Element[], unique = false): Element[] {
  const remap = new Map<string, string>();
  const perPage = new Map<string, number>();
  const used = new Set<string>();
  for (const el of elements) {
    let id: string;
    if (unique) {
      id = randomUUID();
    } else {
      const key = String(el.metadata.page_number ?? 'None');
      const idx = perPage.get(key) ?? 0;
      perPage.set(key, idx + 1);
      id = hashElementId(el.metadata.filename, el.text, el.metadata.page_number, idx);
      for (let k = 1; used.has(id); k++) {
        id = sha256Hex(`${el.metadata.filename ?? 'None'}\u0000${el.text}\u0000${el.metadata.page_number ?? 'None'}\u0000${idx}\u0000${k}`).slice(0, 32);
      }
      used.add(id);
    }
    remap.set(el.element_id, id);
    el.element_id = id;
  }
  for (const el of elements) {
    const p = el.metadata.parent_id;
    if (p !== undefined) {
      const mapped = remap.get(p);
      if (mapped) el.metadata.parent_id = mapped;
      else delete el.metadata.parent_id;
    }
  }
  return elements;
}

let provisionalCounter = 0;
/** A provisional id for elements under construction; `assignElementIds` replaces it. */
export function provisionalId(): string {
  provisionalCounter = (provisionalCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `tmp-${provisionalCounter.toString(36)}`;
}

/** Builds an element with a provisional id and metadata stripped of undefined values. */
export function makeElement(type: ElementType | string, text: string, metadata: ElementMetadata = {}): Element {
  const md: ElementMetadata = {};
  for (const [k, v] of Object.entries(metadata)) if (v !== undefined && v !== null) md[k] = v;
  return { type, element_id: provisionalId(), text, metadata: md };
}

/**
 * Appends items one by one. `out.push(...items)` passes every item as an argument and overflows
 * the stack past ~100,000 items, which a hostile document reaches easily.
 */
export function appendAll<T>(out: T[], items: Iterable<T>): T[] {
  for (const x of items) out.push(x);
  return out;
}
