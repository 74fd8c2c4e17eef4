// Amazon Bedrock embeddings through the official Bedrock runtime client (the one AWS SDK import under
// lambdas/engine; loaded lazily so nothing else pays for it). Titan text models take one input per
// InvokeModel call ({inputText}); Cohere v3 takes up to 96 ({texts, input_type}).
import { assertAllowedUrl } from '../../../net/outbound';
import type { ModelSpec } from '../catalog';
import { isRetryableStatus, runBatched, type ErrorInfo, type RunnerOptions } from '../runner';
import type { Embedder, EmbedderConfig } from '../types';

type BedrockModule = typeof import('@aws-sdk/client-bedrock-runtime');
let modulePromise: Promise<BedrockModule> | undefined;
const loadModule = () => (modulePromise ??= import('@aws-sdk/client-bedrock-runtime'));

function classify(err: unknown): ErrorInfo {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number }; $retryable?: unknown };
  const status = e?.$metadata?.httpStatusCode;
  const throttled = e?.name === 'ThrottlingException' || e?.name === 'ServiceUnavailableException' || e?.name === 'ModelNotReadyException';
  return {
    status,
    retryable: throttled || (status !== undefined ? isRetryableStatus(status) : e?.$retryable !== undefined),
    message: e?.name && e.name !== 'Error' ? `${e.name}: ${e.message ?? ''}` : (e?.message ?? String(err)),
  };
}

export function createBedrockEmbedder(c: EmbedderConfig, spec: ModelSpec | undefined, run: RunnerOptions): Embedder {
  const family = spec?.bedrockFamily ?? (c.model.startsWith('cohere.') ? 'cohere' : 'titan');
  const dimensions = c.dimensions ?? spec?.dimensions ?? 0;
  let clientPromise: Promise<{ mod: BedrockModule; client: InstanceType<BedrockModule['BedrockRuntimeClient']> }> | undefined;
  const getClient = () =>
    (clientPromise ??= loadModule().then((mod) => ({
      mod,
      client: new mod.BedrockRuntimeClient({
        region: c.region ?? 'us-east-1',
        maxAttempts: 1,
        ...(c.baseUrl ? { endpoint: c.baseUrl } : {}),
        ...(c.accessKeyId && c.secretAccessKey
          ? { credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, ...(c.sessionToken ? { sessionToken: c.sessionToken } : {}) } }
          : {}),
      }),
    })));

  async function invoke(body: unknown): Promise<Record<string, unknown>> {
    // The client speaks HTTP/2, whose sessions take no agent: an endpoint from node settings is checked
    // under the outbound policy (resolved) before each call instead of on the socket itself.
    if (c.baseUrl) await assertAllowedUrl(c.baseUrl);
    const { mod, client } = await getClient();
    const res = await client.send(
      new mod.InvokeModelCommand({ modelId: c.model, contentType: 'application/json', accept: 'application/json', body: JSON.stringify(body) }),
    );
    return JSON.parse(new TextDecoder().decode(res.body)) as Record<string, unknown>;
  }

  const call = async (batch: string[]): Promise<number[][]> => {
    if (family === 'cohere') {
      const out = await invoke({ texts: batch, input_type: 'search_document', truncate: 'END' });
      return out.embeddings as number[][];
    }
    const vecs: number[][] = [];
    for (const text of batch) {
      const body: Record<string, unknown> = { inputText: text };
      if (c.model === 'amazon.titan-embed-text-v2:0') {
        body.normalize = true;
        if (c.dimensions) body.dimensions = c.dimensions;
      } else if (family === 'titan-image' && c.dimensions) {
        body.embeddingConfig = { outputEmbeddingLength: c.dimensions };
      }
      const out = await invoke(body);
      vecs.push(out.embedding as number[]);
    }
    return vecs;
  };

  return {
    provider: 'bedrock',
    model: c.model,
    dimensions,
    embedTexts: (texts) => runBatched(texts, { ...run, batchSize: family === 'cohere' ? run.batchSize : 1 }, call, classify),
  };
}
