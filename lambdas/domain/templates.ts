// Predefined processing graphs (spec §2.5, §4.4). A job created with `template_id` copies the
// template's nodes. Data only; ids are slugs as in the public API (e.g. hi_res_partition).

export interface TemplateNode {
  id: string;
  name: string;
  type: string;
  subtype: string;
  settings: Record<string, unknown> | null;
}

export interface Template {
  id: string;
  name: string;
  description: string;
  version: string;
  last_updated: string;
  nodes: TemplateNode[];
}

const UPDATED = '2026-11-01T00:00:00.000000';

export const TEMPLATES: Template[] = [
  {
    id: 'hi_res_partition',
    name: 'High Resolution Partition',
    description: 'Partition documents with layout analysis and OCR where a page has no usable text.',
    version: '1.0.0',
    last_updated: UPDATED,
    nodes: [
      { id: '3b3a0f4e-9f52-4a7c-8f0e-0b7d1c9a1001', name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'hi_res', include_page_breaks: false } },
    ],
  },
  {
    id: 'fast_partition',
    name: 'Fast Partition',
    description: 'Partition documents from their text layer only (no OCR): the quickest and cheapest graph.',
    version: '1.0.0',
    last_updated: UPDATED,
    nodes: [
      { id: '3b3a0f4e-9f52-4a7c-8f0e-0b7d1c9a1002', name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
    ],
  },
  {
    id: 'partition_chunk_embed',
    name: 'Partition, Chunk by Title, Embed',
    description: 'Auto partition, by-title chunks of up to 1000 characters, and embeddings from the built-in offline embedder (subtype local: hashed character n-grams, lexical rather than semantic).',
    version: '1.0.0',
    last_updated: UPDATED,
    nodes: [
      { id: '3b3a0f4e-9f52-4a7c-8f0e-0b7d1c9a1003', name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'auto' } },
      { id: '3b3a0f4e-9f52-4a7c-8f0e-0b7d1c9a1004', name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 1000, new_after_n_chars: 800, overlap: 0 } },
      { id: '3b3a0f4e-9f52-4a7c-8f0e-0b7d1c9a1005', name: 'Embedder', type: 'embed', subtype: 'local', settings: { model_name: 'builtin-hashed-char-ngrams-384' } },
    ],
  },
  {
    id: 'hi_res_and_enrichment',
    name: 'High Resolution and Enrichment',
    description:
      'Hi-res partition keeping image and table pixels, image and table descriptions by OpenAI (gpt-4o; needs OPENAI_API_KEY in the deployment or api_key in the prompter settings), by-title chunks, and built-in offline embeddings.',
    version: '1.0.0',
    last_updated: UPDATED,
    nodes: [
      { id: '3b3a0f4e-9f52-4a7c-8f0e-0b7d1c9a1006', name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'hi_res', include_page_breaks: false, extract_image_block_types: ['Image', 'Table'] } },
      { id: '3b3a0f4e-9f52-4a7c-8f0e-0b7d1c9a1007', name: 'Image summarizer', type: 'prompter', subtype: 'openai_image_description', settings: { model: 'gpt-4o' } },
      { id: '3b3a0f4e-9f52-4a7c-8f0e-0b7d1c9a1008', name: 'Table summarizer', type: 'prompter', subtype: 'openai_table_description', settings: { model: 'gpt-4o' } },
      { id: '3b3a0f4e-9f52-4a7c-8f0e-0b7d1c9a1009', name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 1000, new_after_n_chars: 800, overlap: 0 } },
      { id: '3b3a0f4e-9f52-4a7c-8f0e-0b7d1c9a100a', name: 'Embedder', type: 'embed', subtype: 'local', settings: { model_name: 'builtin-hashed-char-ngrams-384' } },
    ],
  },
];

export function findTemplate(id: string): Template | undefined {
  return TEMPLATES.find((t) => t.id === id);
}
