// Metadata consolidation for chunks, per field, as the library's ConsolidationStrategy table:
// FIRST value, LIST_CONCATENATE, LIST_UNIQUE (languages), STRING_CONCATENATE (text_as_html), or DROP.
// Fields the library does not know are dropped too, except the few of ours listed as FIRST below.
import type { ElementMetadata } from '../elements';

type Strategy = 'first' | 'concat' | 'unique' | 'string' | 'drop';

const STRATEGIES: Record<string, Strategy> = {
  attached_to_filename: 'first',
  cc_recipient: 'first',
  bcc_recipient: 'first',
  category_depth: 'drop',
  coordinates: 'drop',
  data_source: 'first',
  detection_class_prob: 'drop',
  detection_origin: 'drop',
  emphasized_text_contents: 'concat',
  emphasized_text_tags: 'concat',
  file_directory: 'first',
  filename: 'first',
  filetype: 'first',
  header_footer_type: 'drop',
  image_url: 'drop',
  image_path: 'drop',
  image_base64: 'drop',
  image_mime_type: 'drop',
  is_continuation: 'drop',
  languages: 'unique',
  last_modified: 'first',
  link_texts: 'concat',
  link_urls: 'concat',
  link_start_indexes: 'drop',
  links: 'drop',
  email_message_id: 'first',
  max_characters: 'drop',
  orig_elements: 'drop',
  page_name: 'first',
  page_number: 'first',
  parent_id: 'drop',
  sent_from: 'first',
  sent_to: 'first',
  signature: 'first',
  subject: 'first',
  text_as_html: 'string',
  table_as_cells: 'first',
  url: 'first',
  key_value_pairs: 'drop',
  // -- ours, not in the library's table --
  partitioner_note: 'first',
  chunk_index: 'drop',
  table_id: 'drop',
  num_carried_over_header_rows: 'drop',
};

/** Fields dropped from a Table's metadata when it becomes a chunk (parent ids would dangle). */
export const DROPPED_FIELDS: readonly string[] = Object.keys(STRATEGIES).filter((k) => STRATEGIES[k] === 'drop');

/** Consolidates the metadata of a chunk's source elements. Key order follows first appearance. */
export function consolidateMetadata(items: readonly ElementMetadata[]): ElementMetadata {
  if (items.length === 1) return consolidateOne(items[0]!);
  const out: ElementMetadata = {};
  for (const md of items) {
    for (const k in md) {
      const v = md[k];
      if (v === undefined || v === null) continue;
      const s = STRATEGIES[k] ?? 'drop';
      if (s === 'drop') continue;
      const cur = out[k];
      if (s === 'first') {
        if (cur === undefined) out[k] = v;
      } else if (s === 'concat') {
        if (!Array.isArray(v)) continue;
        out[k] = cur === undefined ? [...v] : (cur as unknown[]).concat(v);
      } else if (s === 'unique') {
        if (!Array.isArray(v)) continue;
        if (cur === undefined) out[k] = [...new Set(v)];
        else {
          const arr = cur as unknown[];
          for (const x of v) if (!arr.includes(x)) arr.push(x);
        }
      } else if (typeof v === 'string') {
        out[k] = cur === undefined ? v.trim() : `${cur as string} ${v.trim()}`;
      }
    }
  }
  return out;
}

function consolidateOne(md: ElementMetadata): ElementMetadata {
  const out: ElementMetadata = {};
  for (const k in md) {
    const v = md[k];
    if (v === undefined || v === null) continue;
    const s = STRATEGIES[k] ?? 'drop';
    if (s === 'drop') continue;
    if (s === 'concat') out[k] = Array.isArray(v) ? [...v] : v;
    else if (s === 'unique') out[k] = Array.isArray(v) ? [...new Set(v)] : v;
    else if (s === 'string') out[k] = typeof v === 'string' ? v.trim() : v;
    else out[k] = v;
  }
  return out;
}
