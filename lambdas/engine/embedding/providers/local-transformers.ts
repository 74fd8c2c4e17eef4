// Local sentence embeddings with @huggingface/transformers (ONNX Runtime for Node) from a model
// directory the user provides: config.json, tokenizer.json (+ tokenizer_config.json) and
// onnx/model.onnx, i.e. the layout of any transformers.js model (e.g. Xenova/all-MiniLM-L6-v2 copied
// to disk). Remote model downloads are disabled: nothing is fetched at run time. Vectors are
// mean-pooled over tokens and L2-normalised (sentence-transformers convention).
//
// Model names are the tenant's, directories the operator's: a name resolves only inside the models
// directory (LOCAL_EMBEDDING_MODELS_DIR), symlinks resolved first, and no message shows a server path
// (a name outside, missing, or a symlink leading out all read "does not exist in the models
// directory", so the answer is no oracle for files elsewhere on the host).
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Embedder, EmbedderConfig } from '../types';

type FeatureExtractor = (texts: string[], opts: { pooling: 'mean'; normalize: boolean }) => Promise<{ tolist(): number[][] }>;

/** Why a tenant-given model name is not a plain name inside the models directory, or undefined. */
export function modelNameProblem(name: string): string | undefined {
  const segments = name.split(/[\\/]+/);
  if (!name.trim() || path.isAbsolute(name) || path.win32.isAbsolute(name) || name.includes('\0') || segments.some((s) => s === '..' || s === '.') || name.startsWith('~')) {
    return `'${name.slice(0, 200)}' is not a model name: give a name inside the deployment's models directory (LOCAL_EMBEDDING_MODELS_DIR), not a path`;
  }
  return undefined;
}

function within(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * The real directory of a model `name` inside `modelsDir`, or a reason naming only `name`.
 * Never reveals whether anything exists outside the models directory.
 */
export function resolveLocalModel(name: string, modelsDir: string | undefined): { dir: string } | { problem: string } {
  const bad = modelNameProblem(name);
  if (bad) return { problem: bad };
  if (!modelsDir) return { problem: `no models directory for '${name}': this deployment has none (its operator sets LOCAL_EMBEDDING_MODELS_DIR)` };
  let root: string;
  try {
    root = realpathSync(modelsDir);
  } catch {
    return { problem: `the deployment's models directory is not available (its operator sets LOCAL_EMBEDDING_MODELS_DIR)` };
  }
  const missing = { problem: `model '${name}' does not exist in the models directory` };
  const lexical = path.resolve(root, name);
  if (!within(root, lexical)) return missing;
  let dir: string;
  try {
    dir = realpathSync(lexical);
  } catch {
    return missing;
  }
  // -- a symlink leading out of the models directory is as absent as a missing name --
  if (!within(root, dir)) return missing;
  const problem = localModelProblem(dir, name);
  return problem ? { problem } : { dir };
}

/** Checks the directory has what transformers.js needs; returns a reason (naming `label`) when it does not. */
export function localModelProblem(dir: string, label: string): string | undefined {
  if (!existsSync(dir)) return `model '${label}' does not exist in the models directory`;
  for (const f of ['config.json', 'tokenizer.json', path.join('onnx', 'model.onnx')]) {
    if (!existsSync(path.join(dir, f))) return `model '${label}' has no ${f.split(path.sep).join('/')}`;
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

/**
 * An embedder on the model directory `c.modelPath` (resolved by resolveLocalModel); `label` is the
 * name the tenant gave, the only one its errors show.
 */
export function createLocalTransformersEmbedder(c: EmbedderConfig, label = c.model): Embedder {
  const dir = path.resolve(c.modelPath!);
  let dimensions = c.dimensions ?? dimensionsFromConfig(dir) ?? 0;
  const batchSize = c.batchSize ?? 32;
  let extractorPromise: Promise<FeatureExtractor> | undefined;
  const getExtractor = () =>
    (extractorPromise ??= (async () => {
      const problem = localModelProblem(dir, label);
      if (problem) throw new Error(problem);
      const tf = await import('@huggingface/transformers');
      tf.env.allowRemoteModels = false;
      tf.env.allowLocalModels = true;
      tf.env.localModelPath = `${path.dirname(dir)}${path.sep}`;
      try {
        const extractor = await tf.pipeline('feature-extraction', path.basename(dir), { dtype: 'fp32', local_files_only: true });
        return extractor as unknown as FeatureExtractor;
      } catch (err) {
        // -- the library's message names files by their server path: the tenant sees its model's name --
        const msg = String((err as Error)?.message ?? err).split(dir).join(`<${label}>`).split(path.dirname(dir)).join('<models>');
        throw new Error(`local model '${label}' could not be loaded: ${msg}`);
      }
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
