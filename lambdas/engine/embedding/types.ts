// Embedding engine types shared by the providers.
import type { EmbedProvider } from './catalog';

/** What every provider exposes. `embedTexts` returns one vector per input, in input order. */
export interface Embedder {
  embedTexts(texts: string[]): Promise<number[][]>;
  readonly dimensions: number;
  readonly model: string;
  readonly provider: EmbedProvider | 'builtin';
  /**
   * Set when this embedder stands in for the hosted model asked for (no credentials, and the
   * deployment allows offline stand-ins): the job's warning and the note every embedded element
   * carries in `metadata.embeddings_note`. Never holds a secret.
   */
  readonly standIn?: { warning: string; elementNote: string };
}

/**
 * A validated embed configuration (from `parseEmbedNode`). Credentials are optional here: missing
 * ones are read from the environment by `createEmbedder`. Secrets are never logged; use
 * `redactEmbedderConfig` for anything that is.
 */
export interface EmbedderConfig {
  provider: EmbedProvider;
  model: string;
  /** Output size; known models fill it from the catalog, a local model from its config.json. */
  dimensions?: number;
  apiKey?: string;
  /** Endpoint override (OpenAI-compatible base URL, Voyage base URL, Bedrock endpoint, Azure resource endpoint). */
  baseUrl?: string;
  /** Azure OpenAI: API version and deployment name (defaults to the model name). */
  apiVersion?: string;
  deployment?: string;
  /** Bedrock credentials and region. */
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  /** local: a directory with config.json, tokenizer.json and onnx/model.onnx (transformers.js layout). */
  modelPath?: string;
  /** Request shaping (defaults per provider). */
  batchSize?: number;
  concurrency?: number;
  maxRetries?: number;
  /** First back-off delay in ms (doubles each retry, with jitter; Retry-After wins when given). */
  retryBaseMs?: number;
  timeoutMs?: number;
}

export type EmbedEnv = Record<string, string | undefined>;

export interface EmbedRuntime {
  /** Receives warnings (truncation, offline stand-in). Default: console.warn. Never given secrets. */
  onWarning?: (message: string) => void;
}

const SECRET_KEYS: (keyof EmbedderConfig)[] = ['apiKey', 'secretAccessKey', 'sessionToken', 'accessKeyId'];

/** The config with secrets replaced by '***', safe to log or store. */
export function redactEmbedderConfig(c: EmbedderConfig): EmbedderConfig {
  const out = { ...c };
  for (const k of SECRET_KEYS) if (out[k] !== undefined) (out as Record<string, unknown>)[k] = '***';
  return out;
}
