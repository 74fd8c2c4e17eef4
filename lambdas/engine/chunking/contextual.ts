// Contextual chunking (chunk node setting `contextual_chunking_strategy: "v1"`), as the platform
// documents it: each chunk's text becomes `Prefix: <context>; Original: <chunk text>`, the context a
// couple of sentences a model writes to situate the chunk in its whole document (Anthropic's
// "contextual retrieval" technique, which the platform cites). Runs after chunking and before
// embedding, so the vectors include the context.
//
// Model: which one the platform uses is not documented. Here it is a setting:
// `contextual_chunking_provider` (anthropic, the default, as in Anthropic's method; or openai,
// bedrock, vertexai) and `contextual_chunking_model` (default claude-haiku-4-5: a small model, one
// call per chunk), with the credentials of the prompter node's providers (`contextual_chunking_api_key`
// or the deployment's ANTHROPIC_API_KEY / OPENAI_API_KEY / …, *_BASE_URL). A chunk whose call fails
// keeps its plain text and is counted in the node's warning; every call refused fails the node.
import { z } from 'zod';
import { ConnectorFailure, ValidationError, type ValidationIssue } from '../../domain/errors';
import { zodIssuesToDetail } from '../../domain/validation';
import { offlineStandInsAllowed } from '../../config';
import type { Element } from '../elements';
import { ENRICH_PROVIDERS } from '../enrichment/catalog';
import { callWithRetry, createModelClient, mapBounded, prompterCredentialIssues, withEnvironment, type ModelClient, type ModelConfig } from '../enrichment/index';
import type { Env } from '../enrichment/settings';

export const CONTEXTUAL_STRATEGIES = ['v1'] as const;
const DEFAULT_MODEL: Record<(typeof ENRICH_PROVIDERS)[number], string> = {
  anthropic: 'claude-haiku-4-5',
  openai: 'gpt-4o-mini',
  bedrock: 'us.anthropic.claude-3-5-haiku-20241022-v1:0',
  vertexai: 'gemini-2.0-flash-001',
};
/** The document shown with each chunk is cut to this many characters (a model's context, and cost). */
export const CONTEXT_DOCUMENT_MAX_CHARS = 60_000;

const Settings = z
  .object({
    contextual_chunking_strategy: z.enum(CONTEXTUAL_STRATEGIES).nullish(),
    contextual_chunking_provider: z.enum(ENRICH_PROVIDERS).optional(),
    contextual_chunking_model: z.string().min(1).max(200).optional(),
    contextual_chunking_api_key: z.string().min(1).max(2048).optional(),
    contextual_chunking_concurrency: z.coerce.number().int().min(1).max(64).optional(),
  })
  .loose();

/** The model config of a chunk node asking for contextual chunking, or undefined when it does not. */
export function parseContextualChunking(settings: unknown, nodeLoc: (string | number)[] = []): ModelConfig | undefined {
  const res = Settings.safeParse(settings ?? {});
  if (!res.success) throw new ValidationError(zodIssuesToDetail(res.error.issues, [...nodeLoc, 'settings'], settings));
  const s = res.data;
  if (!s.contextual_chunking_strategy) return undefined;
  const provider = s.contextual_chunking_provider ?? 'anthropic';
  return {
    provider,
    model: s.contextual_chunking_model ?? DEFAULT_MODEL[provider],
    apiKey: s.contextual_chunking_api_key,
    concurrency: s.contextual_chunking_concurrency ?? 8,
    maxRetries: 4,
    retryBaseMs: 500,
    timeoutMs: 120_000,
    maxTokens: 200,
  };
}

/** 422 issues when the contextual model has no credentials (at create, like a prompter node's). */
export function contextualCredentialIssues(c: ModelConfig, env: Env, nodeLoc: (string | number)[] = []): ValidationIssue[] {
  return prompterCredentialIssues(c, env, nodeLoc, { apiKey: 'contextual_chunking_api_key' });
}

const SYSTEM = 'You situate a chunk of a document within the whole document, to improve search retrieval of the chunk. Answer only with the short context.';

function prompt(document: string, chunk: string): string {
  return `<document>\n${document}\n</document>\nThis chunk comes from the document above:\n<chunk>\n${chunk}\n</chunk>\nWrite one or two short sentences that place this chunk within the overall document (what the document is, which part this is about), for search retrieval. Answer with the context only.`;
}

/** The platform's documented form: the context begins with `Prefix:` and ends with `;`, the chunk with `Original:`. */
export const contextualText = (context: string, original: string) => `Prefix: ${context.replace(/\s+/g, ' ').replace(/;+\s*$/, '').trim()}; Original: ${original}`;

/** Prefixes each chunk (in place) with its context; returns a warning when some chunks kept plain text. */
export async function contextualizeChunks(chunks: Element[], config: ModelConfig, env: Env = process.env, opts: { client?: ModelClient } = {}): Promise<{ warning?: string }> {
  const targets = chunks.filter((c) => c.text.trim() !== '');
  if (targets.length === 0) return {};
  const missing = contextualCredentialIssues(config, env);
  if (missing.length) {
    // -- the deployment allowed offline stand-ins: the chunks stay plain, and the job says so --
    if (!offlineStandInsAllowed('vlm', env)) throw new ValidationError(missing);
    return { warning: `no credentials for ${config.provider}/${config.model}; ${targets.length} chunk(s) left without context (offline stand-in)` };
  }
  const resolved = withEnvironment(config, env);
  const client = opts.client ?? (await createModelClient(resolved));
  const document = targets.map((c) => c.text).join('\n\n').slice(0, CONTEXT_DOCUMENT_MAX_CHARS);
  let finalErrors = 0;
  const reasons = await mapBounded(targets, config.concurrency, async (chunk) => {
    const out = await callWithRetry(client, () => client.complete({ system: SYSTEM, prompt: prompt(document, chunk.text) }), resolved);
    if (!out.ok) {
      if (out.final) finalErrors += 1;
      return out.reason;
    }
    if (!out.value.trim()) return `${client.label}: empty context`;
    chunk.text = contextualText(out.value, chunk.text);
    return undefined;
  });
  const failed = reasons.filter((r): r is string => r !== undefined);
  if (finalErrors === targets.length) throw new ConnectorFailure(failed[0]!);
  return failed.length ? { warning: `${failed.length} of ${targets.length} chunk(s) kept their text without context: ${[...new Set(failed)].slice(0, 3).join('; ')}` } : {};
}
