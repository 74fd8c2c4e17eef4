// Local sentence embeddings with @huggingface/transformers (ONNX Runtime for Node) from a model
// directory the user provides: config.json, tokenizer.json (+ tokenizer_config.json) and
// onnx/model.onnx, i.e. the layout of any transformers.js model (e.g. Xenova/all-MiniLM-L6-v2 copied
// to disk). Remote model downloads are disabled: nothing is fetched at run time. Vectors are
// mean-pooled over tokens and L2-normalised (sentence-transformers convention).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Embedder, EmbedderConfig } from '../types';

type FeatureExtractor = (texts: string[], opts: { pooling: 'mean'; normalize: boolean }) => Promise<{ tolist(): number[][] }>;

/** Checks the directory has what transformers.js needs; returns a reason when it does not. */
export function localModelProblem(dir: string): string | undefined {
  if (!existsSync(dir)) return `model directory ${dir} does not exist`;
  for (const f of ['config.json', 'tokenizer.json', path.join('onnx', 'model.onnx')]) {
    if (!existsSync(path.join(dir, f))) return `model directory ${dir} has no ${f}`;
  }
  return undefined;
}

function dimensionsFromConfig(dir: string): number | undefined {
  try {
    const cfg = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    for (const k of ['hidden_size', 'd_model', 'dim', 'hidden_dim', 'embedding_size']) {
      const v = cfg[k];
      if (typeof v === 'number' && v > 0) return v;
    }
  } catch {
    // -- unreadable config: dimensions are learnt from the first batch --
  }
  return undefined;
}

export function createLocalTransformersEmbedder(c: EmbedderConfig): Embedder {
  const dir = path.resolve(c.modelPath!);
  let dimensions = c.dimensions ?? dimensionsFromConfig(dir) ?? 0;
  const batchSize = c.batchSize ?? 32;
  let extractorPromise: Promise<FeatureExtractor> | undefined;
  const getExtractor = () =>
    (extractorPromise ??= (async () => {
      const problem = localModelProblem(dir);
      if (problem) throw new Error(problem);
      const tf = await import('@huggingface/transformers');
      tf.env.allowRemoteModels = false;
      tf.env.allowLocalModels = true;
      tf.env.localModelPath = `${path.dirname(dir)}${path.sep}`;
      const extractor = await tf.pipeline('feature-extraction', path.basename(dir), { dtype: 'fp32', local_files_only: true });
      return extractor as unknown as FeatureExtractor;
    })());
  return {
    provider: 'local',
    model: c.model,
    get dimensions() {
      return dimensions;
    },
    async embedTexts(texts: string[]): Promise<number[][]> {
      const extractor = await getExtractor();
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const res = await extractor(texts.slice(i, i + batchSize), { pooling: 'mean', normalize: true });
        for (const v of res.tolist()) out.push(v);
      }
      if (!dimensions && out[0]) dimensions = out[0].length;
      return out;
    },
  };
}
