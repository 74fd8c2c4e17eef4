// Enrichment engine: the `prompter` job node (image and table descriptions, table to HTML, named
// entities) through each provider's official client. No AWS adapter here: Bedrock is a model client.
//
//   parsePrompterNode(subtype, settings, nodeLoc?) → PrompterConfig      (422 on bad settings)
//   prompterCredentialIssues(config, env, nodeLoc?) → issues              (422 at create without credentials)
//   prompterEndpointIssues(config, env, nodeLoc?) → issues                (422: own endpoint, no own key)
//   enrichElements(elements, config, env, { client? }) → { elements, failed, warning?, standIn? }
//
// Where answers go: prompts.ts. A failed element (refusal, malformed answer, oversized image, retries
// exhausted) keeps its text, gets metadata.enrichment_note, and is counted in `warning`; a provider
// refusing every call (an error status on each, such as a bad key or an unknown model) fails the
// node with the provider's message (ConnectorFailure: the file fails with it, not retried).
// Without credentials: refused (ValidationError) unless the deployment allows offline stand-ins
// (ALLOW_OFFLINE_STANDINS); then nothing is called and every target element is marked. A node naming
// an endpoint the operator did not configure, without keys of its own, is refused either way
// (prompterEndpointIssues: the deployment's credentials never go there).
import { ConnectorFailure, ValidationError } from '../../errors';
import { offlineStandInsAllowed } from '../../config';
import type { Element } from '../elements';
import { MAX_IMAGE_BYTES } from './catalog';
import { base64Bytes, type ModelClient } from './client';
import { applyAnswer, buildRequest, isTarget } from './prompts';
import { mapLimited } from '../../concurrency';
import { callWithRetry } from './runner';
import { prompterCredentialIssues, prompterEndpointIssues, withEnvironment, type Env, type ModelConfig, type PrompterConfig } from './settings';

export { PROMPTER_SUBTYPES, ENRICH_PROVIDERS, ENRICH_TASKS, DEFAULT_ENRICH_MODEL } from './catalog';
export { parsePrompterNode, prompterCredentialIssues, prompterEndpointIssues, redactPrompterConfig, withEnvironment, type ModelConfig, type PrompterConfig } from './settings';
export { callWithRetry } from './runner';
export type { ModelClient } from './client';

/** The official client for the config's provider (loaded on first use: a job pays only for its own). */
export async function createModelClient(c: ModelConfig): Promise<ModelClient> {
  switch (c.provider) {
    case 'openai':
      return (await import('./providers/openai')).createOpenAIClient(c);
    case 'anthropic':
      return (await import('./providers/anthropic')).createAnthropicClient(c);
    case 'bedrock':
      return (await import('./providers/bedrock')).createBedrockClient(c);
    case 'vertexai':
      return (await import('./providers/vertexai')).createVertexClient(c);
  }
}

export interface EnrichResult {
  elements: Element[];
  enriched: number;
  failed: { element_id: string; reason: string }[];
  /** One line for the job's warnings when some elements kept their text. */
  warning?: string;
  /** Set when the offline stand-in ran (nothing enriched): the job's warning. */
  standIn?: string;
}

/** Enriches `elements` in place per the node's task; returns them with what happened. */
export async function enrichElements(elements: Element[], config: PrompterConfig, env: Env = process.env, opts: { client?: ModelClient } = {}): Promise<EnrichResult> {
  const targets = elements.filter((e) => isTarget(config.task, e));
  // -- a workflow stored before the rule: refused before any client exists, stand-ins or not --
  const foreign = prompterEndpointIssues(config, env);
  if (foreign.length) throw new ValidationError(foreign);
  const missing = prompterCredentialIssues(config, env);
  if (missing.length) {
    // -- the stand-in switch is the one the VLM partitioner uses: a hosted vision model, replaced --
    if (!offlineStandInsAllowed('vlm', env)) throw new ValidationError(missing);
    const what = `${config.provider}/${config.model}`;
    for (const e of targets) (e.metadata as Record<string, unknown>).enrichment_note = `offline stand-in for ${what} (no credentials): ${config.task} not generated`;
    return { elements, enriched: 0, failed: [], standIn: `no credentials for ${what}; ${targets.length} element(s) left without ${config.task} (offline stand-in)` };
  }
  if (targets.length === 0) return { elements, enriched: 0, failed: [] };
  const resolved = withEnvironment(config, env);
  const client = opts.client ?? (await createModelClient(resolved));
  const limit = MAX_IMAGE_BYTES[config.provider];
  let calls = 0;
  let finalErrors = 0;
  const reasons = await mapLimited(targets, config.concurrency, async (el): Promise<string | undefined> => {
    const req = buildRequest(config.task, el, config.prompt);
    if ('skip' in req) return req.skip;
    if (req.image && base64Bytes(req.image.base64) > limit) return `image of ${base64Bytes(req.image.base64)} bytes is over ${client.label}'s limit of ${limit} bytes`;
    calls += 1;
    const out = await callWithRetry(client, () => client.complete(req), resolved);
    if (!out.ok) {
      if (out.final) finalErrors += 1;
      return out.reason;
    }
    try {
      applyAnswer(config.task, el, out.value);
      return undefined;
    } catch (err) {
      return `${client.label}: ${(err as Error).message}`;
    }
  });
  const failed = targets.flatMap((el, i) => (reasons[i] ? [{ element_id: el.element_id, reason: reasons[i]! }] : []));
  // -- every call refused by the provider itself: a configuration fault, said once, not per element --
  if (calls > 0 && finalErrors === calls) throw new ConnectorFailure(failed.find((f) => /\(HTTP \d+\)/.test(f.reason))?.reason ?? failed[0]!.reason);
  targets.forEach((el, i) => {
    if (reasons[i]) (el.metadata as Record<string, unknown>).enrichment_note = `${config.task} failed, original text kept: ${reasons[i]}`;
  });
  const enriched = targets.length - failed.length;
  const file = elements.find((e) => typeof e.metadata.filename === 'string')?.metadata.filename;
  const warning = failed.length
    ? `${failed.length} of ${targets.length} element(s)${file ? ` of ${file}` : ''} kept their original text (${config.task}): ${[...new Set(failed.map((f) => f.reason))].slice(0, 3).join('; ')}`
    : undefined;
  return { elements, enriched, failed, ...(warning ? { warning } : {}) };
}
