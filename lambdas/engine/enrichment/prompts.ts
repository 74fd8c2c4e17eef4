// What each task sends and where its answer goes, modelled on the platform's documented output:
// - image_description: Image elements with pixels (metadata.image_base64, kept by a hi_res partition
//   with extract_image_block_types) → element `text` becomes the JSON {"type", "description"} the
//   platform writes (docs: "Image descriptions"), so the embedding that follows is of the description.
// - table_description: Table elements → `text` becomes the summary (metadata.text_as_html stays).
// - table2html: Table elements → metadata.text_as_html.
// - ner: every element with text → metadata.entities {items: [{entity, type}], relationships:
//   [{from, relationship, to}]} (the shape unstructured-ingest's EntitiesData reads).
import type { Element } from '../elements';
import type { EnrichTask } from './catalog';

export interface ModelRequest {
  system: string;
  prompt: string;
  image?: { base64: string; mimeType: string };
}

const TABLE_TYPES = new Set(['Table', 'TableChunk']);

/** Whether a task looks at this element at all. */
export function isTarget(task: EnrichTask, el: Element): boolean {
  switch (task) {
    case 'image_description':
      return el.type === 'Image' || el.type === 'Figure';
    case 'table_description':
    case 'table2html':
      return TABLE_TYPES.has(el.type);
    case 'ner':
      return typeof el.text === 'string' && el.text.trim() !== '';
  }
}

const SYSTEM: Record<EnrichTask, string> = {
  image_description: 'You describe images taken from documents for a search index. Answer only with the JSON object asked for.',
  table_description: 'You summarise tables taken from documents for a search index. Answer only with the summary text.',
  table2html: 'You transcribe tables taken from documents into HTML. Answer only with the HTML table.',
  ner: 'You extract named entities and their relationships from document text. Answer only with the JSON object asked for.',
};

const INSTRUCTION: Record<EnrichTask, string> = {
  image_description:
    'Describe this image. Say what kind of image it is (for example photo, diagram, chart, graph, table, technical drawing, logo, screenshot) and what it shows; ' +
    'for charts give the axes, series and trends; transcribe any text in the image after "Text in the image:".',
  table_description:
    'Summarise this table in a few sentences: how many rows and columns, what the columns represent, and the notable values or trends.',
  table2html:
    'Convert this table into one HTML <table> with <thead>/<tbody>, <tr>, <th> and <td> (rowspan/colspan where cells are merged). Keep every cell text exactly.',
  ner:
    'List the named entities in this text (PERSON, ORGANIZATION, LOCATION, DATE, PRODUCT, EVENT, MONEY, LAW, or another short upper-case type) and the relationships between them.',
};

const SHAPE: Partial<Record<EnrichTask, string>> = {
  image_description: 'Answer with JSON: {"type": "<kind of image>", "description": "<description>"}.',
  ner: 'Answer with JSON: {"items": [{"entity": "<text>", "type": "<TYPE>"}], "relationships": [{"from": "<entity>", "relationship": "<verb phrase>", "to": "<entity>"}]}.',
};

/** The request for one element, or why it cannot be made (no pixels for an image). */
export function buildRequest(task: EnrichTask, el: Element, customPrompt?: string): ModelRequest | { skip: string } {
  const md = el.metadata as Record<string, unknown>;
  const image = typeof md.image_base64 === 'string' && md.image_base64 ? { base64: md.image_base64, mimeType: typeof md.image_mime_type === 'string' ? md.image_mime_type : 'image/png' } : undefined;
  const instruction = [customPrompt ?? INSTRUCTION[task], SHAPE[task]].filter(Boolean).join('\n');
  switch (task) {
    case 'image_description':
      if (!image) return { skip: 'no image pixels (partition with strategy hi_res and extract_image_block_types ["Image"])' };
      return { system: SYSTEM[task], prompt: el.text ? `${instruction}\nText found near or in the image: ${el.text}` : instruction, image };
    case 'table_description':
    case 'table2html': {
      const html = typeof md.text_as_html === 'string' ? md.text_as_html : undefined;
      if (!image && !el.text?.trim() && !html) return { skip: 'an empty table with no image' };
      const content = html && task === 'table_description' ? `Table (HTML):\n${html}` : `Table text:\n${el.text ?? ''}`;
      return { system: SYSTEM[task], prompt: `${instruction}\n\n${content}`, ...(image ? { image } : {}) };
    }
    case 'ner':
      return { system: SYSTEM[task], prompt: `${instruction}\n\nText:\n${el.text}` };
  }
}

/** The JSON object in a model answer (bare, or in a ```json fence). */
function jsonObject(answer: string): Record<string, unknown> {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(answer)?.[1] ?? answer;
  const start = fenced.indexOf('{');
  const end = fenced.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('model answer is not a JSON object');
  const v = JSON.parse(fenced.slice(start, end + 1)) as unknown;
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('model answer is not a JSON object');
  return v as Record<string, unknown>;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** Writes the model's answer into the element (in place); throws when the answer has the wrong shape. */
export function applyAnswer(task: EnrichTask, el: Element, answer: string): void {
  const md = el.metadata as Record<string, unknown>;
  switch (task) {
    case 'image_description': {
      const o = jsonObject(answer);
      const description = text(o.description);
      if (!description) throw new Error('model answer has no description');
      el.text = JSON.stringify({ type: text(o.type) || 'image', description }, null, 2);
      return;
    }
    case 'table_description': {
      const summary = answer.trim();
      if (!summary) throw new Error('model answer is empty');
      el.text = summary;
      return;
    }
    case 'table2html': {
      const fenced = /```(?:html)?\s*([\s\S]*?)```/.exec(answer)?.[1] ?? answer;
      const m = /<table[\s\S]*<\/table>/i.exec(fenced);
      if (!m) throw new Error('model answer has no <table>');
      md.text_as_html = m[0];
      return;
    }
    case 'ner': {
      const o = jsonObject(answer);
      const items = (Array.isArray(o.items) ? o.items : [])
        .map((i) => ({ entity: text((i as Record<string, unknown>)?.entity), type: text((i as Record<string, unknown>)?.type).toUpperCase() }))
        .filter((i) => i.entity && i.type);
      const relationships = (Array.isArray(o.relationships) ? o.relationships : [])
        .map((r) => ({ from: text((r as Record<string, unknown>)?.from), relationship: text((r as Record<string, unknown>)?.relationship), to: text((r as Record<string, unknown>)?.to) }))
        .filter((r) => r.from && r.relationship && r.to);
      md.entities = { items, relationships };
      return;
    }
  }
}
