// Element-JSON round trip (the library's partition_json): the input must be an array of elements as
// this API returns them; anything else is a 400. Ids are re-assigned by the pipeline (parent links
// are kept), and filename/filetype are set by the pipeline for the uploaded file.
import { ELEMENT_TYPES, makeElement, type Element, type ElementMetadata } from '../../elements';
import type { FormatPartitioner } from '../types';
import { BadRequest } from '../../../errors';
import { decodeText } from './common';

const KNOWN = new Set<string>([...ELEMENT_TYPES, 'Text', 'Paragraph', 'Caption', 'Footnote', 'List', 'Picture', 'Figure', 'PageHeader', 'PageFooter', 'Abstract', 'FormKeysValues', 'Link', 'Threading', 'Field-Name', 'Value']);
const DROP_KEYS = new Set(['filename', 'filetype', 'file_directory', 'last_modified', 'languages']);

const schemaError = (why: string): BadRequest =>
  new BadRequest(`Detected a JSON file that does not conform to the Unstructured schema: ${why}`);

export function elementsFromJson(json: string): Element[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    throw schemaError(`invalid JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(parsed)) throw schemaError('expected an array of elements');
  const idMap = new Map<string, string>();
  const out: Element[] = [];
  parsed.forEach((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw schemaError(`item ${i} is not an object`);
    const o = item as Record<string, unknown>;
    if (typeof o.type !== 'string' || !KNOWN.has(o.type)) throw schemaError(`item ${i} has no valid "type"`);
    if (typeof o.text !== 'string') throw schemaError(`item ${i} has no string "text"`);
    if (o.element_id !== undefined && typeof o.element_id !== 'string') throw schemaError(`item ${i} has a non-string "element_id"`);
    if (o.metadata !== undefined && (o.metadata === null || typeof o.metadata !== 'object' || Array.isArray(o.metadata))) {
      throw schemaError(`item ${i} has a non-object "metadata"`);
    }
    const md: ElementMetadata = {};
    for (const [k, v] of Object.entries((o.metadata ?? {}) as Record<string, unknown>)) {
      if (!DROP_KEYS.has(k)) md[k] = v;
    }
    if (md.page_number !== undefined && !(Number.isInteger(md.page_number) && (md.page_number as number) >= 1)) {
      delete md.page_number;
    }
    const el = makeElement(o.type === 'Text' ? 'UncategorizedText' : o.type, o.text, md);
    if (Array.isArray(o.embeddings)) el.embeddings = o.embeddings.filter((x): x is number => typeof x === 'number');
    if (typeof o.element_id === 'string') idMap.set(o.element_id, el.element_id);
    out.push(el);
  });
  for (const el of out) {
    const p = el.metadata.parent_id;
    if (typeof p === 'string') {
      const mapped = idMap.get(p);
      if (mapped) el.metadata.parent_id = mapped;
      else delete el.metadata.parent_id;
    }
  }
  return out;
}

export const partitionJson: FormatPartitioner = async (data, ctx) => elementsFromJson(decodeText(data, ctx.options.encoding));
