// Voyage AI embeddings through the official `voyageai` client (POST {base}/embeddings, Bearer auth),
// with the client's own retries off so the shared runner owns retry and back-off.
import { VoyageAIClient, VoyageAIError } from 'voyageai';
import { guardedFetch } from '../../../net/outbound';
import type { ModelSpec } from '../catalog';
import { batchedEmbedder, isRetryableStatus, type ErrorInfo, type RunnerOptions } from '../runner';
import type { Embedder, EmbedderConfig } from '../types';

export const VOYAGE_BASE_URL = 'https://api.voyageai.com/v1';

function classify(err: unknown): ErrorInfo {
  if (err instanceof VoyageAIError) {
    const status = err.statusCode;
    const body = err.body as { detail?: string } | undefined;
    return { status, retryable: isRetryableStatus(status), message: body?.detail ?? `Voyage AI error` };
  }
  const name = (err as { name?: string })?.name;
  if (name === 'VoyageAITimeoutError') return { retryable: true, message: 'timeout' };
  return { retryable: false, message: err instanceof Error ? err.message : String(err) };
}

export function createVoyageEmbedder(c: EmbedderConfig, spec: ModelSpec | undefined, run: RunnerOptions): Embedder {
  const client = new VoyageAIClient({
    apiKey: c.apiKey,
    baseUrl: c.baseUrl ?? VOYAGE_BASE_URL,
    maxRetries: 0,
    timeoutInSeconds: Math.ceil((c.timeoutMs ?? 60_000) / 1000),
    fetch: guardedFetch, // the outbound policy (base_url may come from node settings)
  });
  const dimensions = c.dimensions ?? spec?.dimensions ?? 0;
  const sendDimensions = c.dimensions !== undefined && spec !== undefined && c.dimensions !== spec.dimensions;
  return batchedEmbedder(
    { provider: 'voyageai', model: c.model, dimensions },
    run,
    async (batch) => {
      const res = await client.embed({
        input: batch,
        model: c.model,
        inputType: 'document',
        ...(sendDimensions ? { outputDimension: c.dimensions } : {}),
      });
      const data = [...(res.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      return data.map((d) => d.embedding as number[]);
    },
    classify,
  );
}
