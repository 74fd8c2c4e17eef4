// Prompter (enrichment) node subtypes as the platform names them: each is one task on one
// provider. Data only: the task decides which elements are sent and where the answer goes
// (prompts.ts), the provider which official client carries it (providers/).

export const ENRICH_PROVIDERS = ['openai', 'anthropic', 'bedrock', 'vertexai'] as const;
export type EnrichProvider = (typeof ENRICH_PROVIDERS)[number];

export const ENRICH_TASKS = ['image_description', 'table_description', 'table2html', 'ner'] as const;
export type EnrichTask = (typeof ENRICH_TASKS)[number];

/** subtype → provider and task (api-shapes.md: UNS-MCP's list, plus anthropic_ner from the Go SDK). */
export const PROMPTER_SUBTYPES: Readonly<Record<string, { provider: EnrichProvider; task: EnrichTask }>> = {
  openai_image_description: { provider: 'openai', task: 'image_description' },
  anthropic_image_description: { provider: 'anthropic', task: 'image_description' },
  bedrock_image_description: { provider: 'bedrock', task: 'image_description' },
  vertexai_image_description: { provider: 'vertexai', task: 'image_description' },
  openai_table_description: { provider: 'openai', task: 'table_description' },
  anthropic_table_description: { provider: 'anthropic', task: 'table_description' },
  bedrock_table_description: { provider: 'bedrock', task: 'table_description' },
  vertexai_table_description: { provider: 'vertexai', task: 'table_description' },
  openai_table2html: { provider: 'openai', task: 'table2html' },
  openai_ner: { provider: 'openai', task: 'ner' },
  anthropic_ner: { provider: 'anthropic', task: 'ner' },
};

/** Default model per provider (vision-capable: image descriptions need it). */
export const DEFAULT_ENRICH_MODEL: Readonly<Record<EnrichProvider, string>> = {
  openai: 'gpt-4o',
  anthropic: 'claude-sonnet-4-6',
  bedrock: 'us.anthropic.claude-3-5-sonnet-20241022-v2:0',
  vertexai: 'gemini-2.0-flash-001',
};

/**
 * Largest image (decoded bytes) each provider accepts in one request (OpenAI 20 MB, Anthropic 5 MB,
 * Bedrock Converse 3.75 MB, Vertex inline data 7 MB): a bigger crop is not sent, the element keeps
 * its text and the file gets a warning.
 */
export const MAX_IMAGE_BYTES: Readonly<Record<EnrichProvider, number>> = {
  openai: 20 * 1024 * 1024,
  anthropic: 5 * 1024 * 1024,
  bedrock: 3.75 * 1024 * 1024,
  vertexai: 7 * 1024 * 1024,
};
