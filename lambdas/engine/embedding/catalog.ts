// Embed node subtypes, their model names, output dimensions and per-provider input limits.
// Limits are in characters (a conservative ~3 characters per token of the provider's token limit):
// an input over its limit is truncated with a warning rather than rejected by the provider.

export const EMBED_PROVIDERS = ['openai', 'azure_openai', 'bedrock', 'togetherai', 'voyageai', 'local'] as const;
export type EmbedProvider = (typeof EMBED_PROVIDERS)[number];

export interface ModelSpec {
  dimensions: number;
  /** Longest input sent, in characters. */
  maxInputChars: number;
  /** Most inputs sent in one request. */
  maxBatch: number;
  /** Bedrock only: the request/response family. */
  bedrockFamily?: 'titan' | 'titan-image' | 'cohere';
}

const openaiModels: Record<string, ModelSpec> = {
  'text-embedding-3-small': { dimensions: 1536, maxInputChars: 24_000, maxBatch: 256 },
  'text-embedding-3-large': { dimensions: 3072, maxInputChars: 24_000, maxBatch: 256 },
  'text-embedding-ada-002': { dimensions: 1536, maxInputChars: 24_000, maxBatch: 256 },
};

export const MODEL_CATALOG: Record<Exclude<EmbedProvider, 'local'>, Record<string, ModelSpec>> = {
  openai: openaiModels,
  azure_openai: openaiModels,
  bedrock: {
    'amazon.titan-embed-text-v2:0': { dimensions: 1024, maxInputChars: 24_000, maxBatch: 1, bedrockFamily: 'titan' },
    'amazon.titan-embed-text-v1': { dimensions: 1536, maxInputChars: 24_000, maxBatch: 1, bedrockFamily: 'titan' },
    'amazon.titan-embed-image-v1': { dimensions: 1024, maxInputChars: 384, maxBatch: 1, bedrockFamily: 'titan-image' },
    'cohere.embed-english-v3': { dimensions: 1024, maxInputChars: 2048, maxBatch: 96, bedrockFamily: 'cohere' },
    'cohere.embed-multilingual-v3': { dimensions: 1024, maxInputChars: 2048, maxBatch: 96, bedrockFamily: 'cohere' },
  },
  togetherai: {
    'togethercomputer/m2-bert-80M-2k-retrieval': { dimensions: 768, maxInputChars: 6_000, maxBatch: 128 },
    'togethercomputer/m2-bert-80M-8k-retrieval': { dimensions: 768, maxInputChars: 24_000, maxBatch: 128 },
    'togethercomputer/m2-bert-80M-32k-retrieval': { dimensions: 768, maxInputChars: 96_000, maxBatch: 128 },
  },
  voyageai: {
    'voyage-3.5': { dimensions: 1024, maxInputChars: 96_000, maxBatch: 128 },
    'voyage-3.5-lite': { dimensions: 1024, maxInputChars: 96_000, maxBatch: 128 },
    'voyage-3-large': { dimensions: 1024, maxInputChars: 96_000, maxBatch: 128 },
    'voyage-3': { dimensions: 1024, maxInputChars: 96_000, maxBatch: 128 },
    'voyage-3-lite': { dimensions: 512, maxInputChars: 96_000, maxBatch: 128 },
    'voyage-code-3': { dimensions: 1024, maxInputChars: 96_000, maxBatch: 128 },
    'voyage-finance-2': { dimensions: 1024, maxInputChars: 96_000, maxBatch: 128 },
    'voyage-law-2': { dimensions: 1024, maxInputChars: 48_000, maxBatch: 128 },
    'voyage-multilingual-2': { dimensions: 1024, maxInputChars: 96_000, maxBatch: 128 },
    'voyage-code-2': { dimensions: 1536, maxInputChars: 48_000, maxBatch: 128 },
    'voyage-large-2': { dimensions: 1536, maxInputChars: 48_000, maxBatch: 128 },
    'voyage-2': { dimensions: 1024, maxInputChars: 12_000, maxBatch: 128 },
  },
};

export const DEFAULT_MODEL: Record<EmbedProvider, string> = {
  openai: 'text-embedding-3-small',
  azure_openai: 'text-embedding-3-small',
  bedrock: 'amazon.titan-embed-text-v2:0',
  togetherai: 'togethercomputer/m2-bert-80M-8k-retrieval',
  voyageai: 'voyage-3.5',
  local: 'builtin-hashed-char-ngrams-384',
};
