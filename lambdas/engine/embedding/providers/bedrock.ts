// Amazon Bedrock embeddings through the official Bedrock runtime client (the one AWS SDK import under
// lambdas/engine; loaded lazily so nothing else pays for it). Titan text models take one input per
// InvokeModel call ({inputText}); Cohere v3 takes up to 96 ({texts, input_type}).
import { bedrockSession, classifyBedrockError } from '../../providers/bedrock';
import type { ModelSpec } from '../catalog';
import { batchedEmbedder, type RunnerOptions } from '../runner';
import type { Embedder, EmbedderConfig } from '../types';

export function createBedrockEmbedder(c: EmbedderConfig, spec: ModelSpec | undefined, run: RunnerOptions): Embedder {
  const family = spec?.bedrockFamily ?? (c.model.startsWith('cohere.') ? 'cohere' : 'titan');
  const dimensions = c.dimensions ?? spec?.dimensions ?? 0;
  const getClient = bedrockSession(c);

  async function invoke(body: unknown): Promise<Record<string, unknown>> {
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

  return batchedEmbedder({ provider: 'bedrock', model: c.model, dimensions }, { ...run, batchSize: family === 'cohere' ? run.batchSize : 1 }, call, classifyBedrockError);
}
