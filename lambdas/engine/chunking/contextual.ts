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
import { ConnectorFailure, ValidationError } from '../../errors';
import { offlineStandInsAllowed } from '../../config';
import type { Element } from '../elements';
import { mapLimited } from '../../concurrency';
import { callWithRetry, createModelClient, withEnvironment, type ModelClient, type ModelConfig } from '../enrichment/index';
import type { Env } from '../enrichment/settings';
import { CONTEXT_DOCUMENT_MAX_CHARS, contextualCredentialIssues } from './contextual-settings';

export { parseContextualChunking, contextualCredentialIssues, CONTEXTUAL_STRATEGIES, CONTEXT_DOCUMENT_MAX_CHARS } from './contextual-settings';

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
  // the document the model sees: the chunks' own text, cut to a bounded size
  const document = targets.map((c) => c.text).join('\n\n').slice(0, CONTEXT_DOCUMENT_MAX_CHARS);
  let finalErrors = 0;
  const reasons = await mapLimited(targets, config.concurrency, async (chunk) => {
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
