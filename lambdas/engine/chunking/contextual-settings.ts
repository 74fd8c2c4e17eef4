// Settings of contextual chunking on a chunk node (see contextual.ts): light enough for the API
// Lambdas' validation at create (no model client is imported here).
import { z } from 'zod';
import { ValidationError, type ValidationIssue } from '../../errors';
import { zodIssuesToDetail } from '../../validation';
import { ENRICH_PROVIDERS } from '../enrichment/catalog';
import { prompterCredentialIssues, type Env, type ModelConfig } from '../enrichment/settings';

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

