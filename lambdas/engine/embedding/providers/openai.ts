// OpenAI-compatible providers through the official `openai` client: OpenAI itself, Azure OpenAI
// (deployment URL + `api-key` header, via AzureOpenAI) and Together AI (OpenAI-compatible API at its
// own base URL). The client's own retries are off; the shared runner retries instead.
import { AzureOpenAI, OpenAI } from 'openai';
import { classifyOpenAIError } from '../../providers/openai-errors';
import { guardedFetch } from '../../../net/outbound';
import type { ModelSpec } from '../catalog';
import { batchedEmbedder, type RunnerOptions } from '../runner';
import type { Embedder, EmbedderConfig } from '../types';

export const TOGETHER_BASE_URL = 'https://api.together.xyz/v1';

export function createOpenAICompatibleEmbedder(c: EmbedderConfig, spec: ModelSpec | undefined, run: RunnerOptions): Embedder {
  // Every connection goes through the outbound policy (a tenant may give base_url in node settings).
  const common = { apiKey: c.apiKey, maxRetries: 0, timeout: c.timeoutMs ?? 60_000, fetch: guardedFetch };
  let client: OpenAI;
  if (c.provider === 'azure_openai') {
    client = new AzureOpenAI({ ...common, endpoint: c.baseUrl, apiVersion: c.apiVersion, deployment: c.deployment ?? c.model });
  } else {
    client = new OpenAI({ ...common, baseURL: c.baseUrl ?? (c.provider === 'togetherai' ? TOGETHER_BASE_URL : undefined) });
  }
  const dimensions = c.dimensions ?? spec?.dimensions ?? 0;
  // -- text-embedding-3-* accept a smaller `dimensions`; send it only when it differs from the native size --
  const sendDimensions = c.dimensions !== undefined && spec !== undefined && c.dimensions !== spec.dimensions && c.model.startsWith('text-embedding-3');
  return batchedEmbedder(
    { provider: c.provider, model: c.model, dimensions },
    run,
    async (batch) => {
      const res = await client.embeddings.create({
        model: c.model,
        input: batch,
        encoding_format: 'float',
        ...(sendDimensions ? { dimensions: c.dimensions } : {}),
      });
      return [...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    },
    classifyOpenAIError,
  );
}
