// Embedding engine: the `embed` job node.
//
//   parseEmbedNode(subtype, settings, nodeLoc?) → EmbedderConfig     (422 ValidationError on bad settings)
//   embedEndpointIssues / embedCredentialIssues(config, env, nodeLoc?) → issues   (422 at create)
//   createEmbedder(config, env = process.env, runtime?) → Embedder   { embedTexts, dimensions, model, provider }
//   embedElements(elements, embedder) → elements, each non-empty one given `embeddings`
//   createHashedEmbedder(dimensions?)                                the built-in deterministic embedder
//
// Subtypes: openai, azure_openai, bedrock, togetherai, voyageai (hosted, through their official
// clients: openai for OpenAI/Azure/Together, the AWS SDK Bedrock runtime, voyageai) and local
// (alias huggingface): model_name `builtin-hashed-char-ngrams-<dim>` (default, no model needed) or a
// transformers.js model directory named by settings.model_path or model_name: a name inside the
// operator's LOCAL_EMBEDDING_MODELS_DIR, never a path (absolute paths and '..' are a 422; symlinks
// leading out of the directory count as missing; errors name the model, not a server path).
//
// Credentials: node settings first, then the environment (OPENAI_API_KEY; AZURE_OPENAI_API_KEY,
// AZURE_OPENAI_ENDPOINT, OPENAI_API_VERSION; TOGETHER_API_KEY; VOYAGE_API_KEY; Bedrock: settings keys,
// or BEDROCK_ENDPOINT_URL / BEDROCK_USE_DEFAULT_CREDENTIALS=true / a real Lambda's role). Base URL
// overrides: OPENAI_BASE_URL, TOGETHER_BASE_URL, VOYAGE_BASE_URL, BEDROCK_ENDPOINT_URL. The
// environment's credentials go only to the operator's endpoints (../providers/operator-endpoints.ts):
// a node naming another base_url / endpoint_url / azure_endpoint must carry its own keys
// (embedEndpointIssues: a 422 at create, and the same refusal at run time, stand-ins or not).
// No silent stand-ins: a hosted subtype with no credentials is refused (embedCredentialIssues: a 422
// at create naming the missing setting; createEmbedder throws the same at run time) unless the
// deployment sets ALLOW_OFFLINE_STANDINS=true (config.ts; EMBEDDING_FALLBACK=none still refuses).
// Then it gets the hashed embedder at the model's dimensions, named `builtin-hashed-char-ngrams-<dim>
// (offline stand-in for <provider>/<model>)`, with `standIn` set: embedElements notes it in every
// embedded element's metadata.embeddings_note and the job records the warning. Secrets are never logged.
import { ValidationError, type ValidationIssue } from '../../errors';
import { literalUrlProblem } from '../../net/outbound';
import { modelNameProblem } from './providers/local-transformers';
import { offlineStandInsAllowed } from '../../config';
import { foreignEndpointIssues, isOperatorEndpoint, withOperatorSettings, type HostedProvider } from '../providers/operator-endpoints';
import type { Element } from '../elements';
import { DEFAULT_MODEL, EMBED_PROVIDERS, MODEL_CATALOG, type EmbedProvider, type ModelSpec } from './catalog';
import { HASHED_DEFAULT_DIMENSIONS, HASHED_MODEL_PREFIX, hashedEmbedding } from './hashed';
import type { RunnerOptions } from './runner';
import type { EmbedEnv, Embedder, EmbedderConfig, EmbedRuntime } from './types';

export type { Embedder, EmbedderConfig, EmbedEnv, EmbedRuntime } from './types';
export { redactEmbedderConfig } from './types';
export { EMBED_PROVIDERS, MODEL_CATALOG, DEFAULT_MODEL } from './catalog';
export type { EmbedProvider, ModelSpec } from './catalog';
export { hashedEmbedding, cosineSimilarity, HASHED_MODEL_PREFIX } from './hashed';
export { EmbeddingProviderError } from './runner';

const SUBTYPE_ALIASES: Record<string, EmbedProvider> = { huggingface: 'local' };
const HASHED_RE = new RegExp(`^${HASHED_MODEL_PREFIX}(?:-(\\d+))?$`);

/** The built-in deterministic embedder (hashed character n-grams; lexical, not semantic). */
export function createHashedEmbedder(dimensions = HASHED_DEFAULT_DIMENSIONS, model = `${HASHED_MODEL_PREFIX}-${dimensions}`): Embedder {
  return {
    provider: 'builtin',
    model,
    dimensions,
    embedTexts: async (texts) => texts.map((t) => hashedEmbedding(t, dimensions)),
  };
}

// ------------------------------------------------------------------------------------------------
// Node settings
// ------------------------------------------------------------------------------------------------

const STRING_SETTINGS: [string, keyof EmbedderConfig][] = [
  ['api_key', 'apiKey'],
  ['base_url', 'baseUrl'],
  ['endpoint_url', 'baseUrl'],
  ['azure_endpoint', 'baseUrl'],
  ['api_version', 'apiVersion'],
  ['deployment', 'deployment'],
  ['region', 'region'],
  ['aws_region', 'region'],
  ['aws_access_key_id', 'accessKeyId'],
  ['aws_secret_access_key', 'secretAccessKey'],
  ['aws_session_token', 'sessionToken'],
  ['model_path', 'modelPath'],
];
/** Integer settings with their range: the upper bounds keep a hostile value (1e308) from sizing arrays or fan-out. */
const INT_SETTINGS: [string, keyof EmbedderConfig, number, number][] = [
  ['dimensions', 'dimensions', 1, 16_384],
  ['batch_size', 'batchSize', 1, 4096],
  ['concurrency', 'concurrency', 1, 64],
  ['max_retries', 'maxRetries', 0, 20],
];

/**
 * Embedder config for an `embed` job node. `nodeLoc` locates the node (e.g. ['job_nodes', 3]);
 * issues are reported at [...nodeLoc, 'subtype'] or [...nodeLoc, 'settings', field]. Hosted models
 * must be known (see MODEL_CATALOG) unless `dimensions` is given. Credentials are not required here.
 */
export function parseEmbedNode(subtype: string, settings: unknown, nodeLoc: (string | number)[] = []): EmbedderConfig {
  const provider = SUBTYPE_ALIASES[subtype] ?? (EMBED_PROVIDERS as readonly string[]).find((p) => p === subtype) as EmbedProvider | undefined;
  if (!provider) {
    throw ValidationError.single(
      [...nodeLoc, 'subtype'],
      `unsupported embed node subtype '${subtype}'; expected one of ${EMBED_PROVIDERS.join(', ')}`,
      'value_error',
      subtype,
    );
  }
  if (settings !== undefined && settings !== null && (typeof settings !== 'object' || Array.isArray(settings))) {
    throw ValidationError.single([...nodeLoc, 'settings'], 'Input should be a valid dictionary', 'dict_type');
  }
  const s = (settings ?? {}) as Record<string, unknown>;
  const loc = (f: string) => [...nodeLoc, 'settings', f];
  const issues: ValidationIssue[] = [];
  const config: EmbedderConfig = { provider, model: DEFAULT_MODEL[provider] };
  const rawModel = s.model_name ?? s.model;
  if (rawModel !== undefined && rawModel !== null && rawModel !== '') {
    if (typeof rawModel !== 'string') issues.push({ loc: loc('model_name'), msg: 'Input should be a valid string', type: 'string_type' });
    else config.model = rawModel;
  }
  for (const [name, key] of STRING_SETTINGS) {
    const v = s[name];
    if (v === undefined || v === null || v === '') continue;
    // -- never echo a value back: it may be a secret --
    if (typeof v !== 'string') issues.push({ loc: loc(name), msg: 'Input should be a valid string', type: 'string_type' });
    else (config as unknown as Record<string, unknown>)[key] = v;
    // Endpoint settings: a literal address the outbound policy refuses is a 422 now (names are
    // judged when the connection is made).
    const refused = key === 'baseUrl' && typeof v === 'string' ? literalUrlProblem(v) : undefined;
    if (refused) issues.push({ loc: loc(name), msg: refused, type: 'value_error' });
  }
  for (const [name, key, min, max] of INT_SETTINGS) {
    const v = s[name];
    if (v === undefined || v === null || v === '') continue;
    const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
      issues.push({ loc: loc(name), msg: `Input should be an integer from ${min} to ${max}`, type: 'value_error', input: v });
    } else (config as unknown as Record<string, unknown>)[key] = n;
  }
  if (issues.length === 0) {
    if (provider === 'local') {
      const m = config.modelPath ? null : HASHED_RE.exec(config.model);
      if (m) config.dimensions = config.dimensions ?? (m[1] ? Number(m[1]) : HASHED_DEFAULT_DIMENSIONS);
      else {
        // -- a tenant names a model of the operator's directory; a path would probe the host's files --
        const field = config.modelPath ? 'model_path' : 'model_name';
        const problem = modelNameProblem(config.modelPath ?? config.model);
        if (problem) issues.push({ loc: loc(field), msg: problem, type: 'value_error' });
      }
    } else {
      const spec = MODEL_CATALOG[provider][config.model];
      if (!spec && config.dimensions === undefined) {
        issues.push({
          loc: loc('model_name'),
          msg: `unknown model '${config.model}' for ${provider}; expected one of ${Object.keys(MODEL_CATALOG[provider]).join(', ')} (or give 'dimensions')`,
          type: 'value_error',
          input: config.model,
        });
      } else config.dimensions ??= spec!.dimensions;
    }
  }
  if (issues.length) throw new ValidationError(issues);
  return config;
}

// ------------------------------------------------------------------------------------------------
// Factory
// ------------------------------------------------------------------------------------------------

function credentialsFromEnv(c: EmbedderConfig, env: EmbedEnv): EmbedderConfig {
  if (c.provider === 'local') return { ...c };
  // -- a node naming its own endpoint gets none of the deployment's credentials --
  const r = withOperatorSettings(c as EmbedderConfig & { provider: HostedProvider }, env);
  if (c.provider === 'bedrock' && isOperatorEndpoint(c.provider, c.baseUrl, env)) {
    if (!r.accessKeyId && !r.secretAccessKey && env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) {
      r.accessKeyId = env.AWS_ACCESS_KEY_ID;
      r.secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
      r.sessionToken ??= env.AWS_SESSION_TOKEN;
    }
  }
  return r;
}

/** Whether the hosted provider has what it needs to be called. */
function isConfigured(c: EmbedderConfig, original: EmbedderConfig, env: EmbedEnv): boolean {
  switch (c.provider) {
    case 'azure_openai':
      return Boolean(c.apiKey && c.baseUrl);
    case 'bedrock':
      // -- emulator-style AWS_* test keys in a local environment must not send us to real Bedrock;
      //    the process's keys or role only reach the operator's endpoints --
      return Boolean(
        (original.accessKeyId && original.secretAccessKey) ||
          (isOperatorEndpoint('bedrock', original.baseUrl, env) &&
            (env.BEDROCK_ENDPOINT_URL || env.BEDROCK_USE_DEFAULT_CREDENTIALS === 'true' || (env.AWS_LAMBDA_FUNCTION_NAME && !env.AWS_ENDPOINT_URL && c.accessKeyId))),
      );
    default:
      return Boolean(c.apiKey);
  }
}

const OFFLINE_CHOICE = "subtype 'local' is the offline choice (or the deployment allows offline stand-ins with ALLOW_OFFLINE_STANDINS=true)";
const ENV_KEY: Partial<Record<EmbedProvider, string>> = { openai: 'OPENAI_API_KEY', togetherai: 'TOGETHER_API_KEY', voyageai: 'VOYAGE_API_KEY' };

/**
 * The operator-credentials rule for an embed node: an issue at settings.api_key (Bedrock:
 * aws_access_key_id / aws_secret_access_key) when the node names an endpoint the deployment did not
 * configure and carries no keys of its own. Applies whether or not offline stand-ins are allowed.
 */
export function embedEndpointIssues(config: EmbedderConfig, env: EmbedEnv = process.env, nodeLoc: (string | number)[] = []): ValidationIssue[] {
  return config.provider === 'local' ? [] : foreignEndpointIssues({ ...config, provider: config.provider }, env, nodeLoc);
}

/**
 * Why a hosted embed config cannot be called: the endpoint rule's issue (embedEndpointIssues), else
 * one issue per missing credential setting, at [...nodeLoc, 'settings', field], saying which
 * setting or environment variable would provide it. Empty for `local` and for a configured
 * provider. Never includes a setting's value.
 */
export function embedCredentialIssues(config: EmbedderConfig, env: EmbedEnv = process.env, nodeLoc: (string | number)[] = []): ValidationIssue[] {
  if (config.provider === 'local') return [];
  const foreign = embedEndpointIssues(config, env, nodeLoc);
  if (foreign.length) return foreign;
  const resolved = credentialsFromEnv(config, env);
  if (isConfigured(resolved, config, env)) return [];
  const what = `${config.provider}/${config.model}`;
  const issue = (field: string, source: string): ValidationIssue => ({
    loc: [...nodeLoc, 'settings', field],
    msg: `no credentials for ${what}: ${source}; ${OFFLINE_CHOICE}`,
    type: 'missing',
  });
  switch (config.provider) {
    case 'azure_openai': {
      const out: ValidationIssue[] = [];
      if (!resolved.apiKey) out.push(issue('api_key', "give settings.api_key or set AZURE_OPENAI_API_KEY in the deployment's environment"));
      if (!resolved.baseUrl) out.push(issue('azure_endpoint', "give settings.azure_endpoint or set AZURE_OPENAI_ENDPOINT in the deployment's environment"));
      return out;
    }
    case 'bedrock': {
      const field = config.accessKeyId && !config.secretAccessKey ? 'aws_secret_access_key' : 'aws_access_key_id';
      return [issue(field, "give settings.aws_access_key_id and settings.aws_secret_access_key or set BEDROCK_ENDPOINT_URL or BEDROCK_USE_DEFAULT_CREDENTIALS=true in the deployment's environment (on AWS Lambda its role is used)")];
    }
    default:
      return [issue('api_key', `give settings.api_key or set ${ENV_KEY[config.provider]} in the deployment's environment`)];
  }
}

const defaultWarn = (m: string) => console.warn(`[embed] ${m}`);

/** Builds the embedder for a config; hosted clients are created lazily on first use. */
export async function createEmbedder(config: EmbedderConfig, env: EmbedEnv = process.env, runtime: EmbedRuntime = {}): Promise<Embedder> {
  const onWarning = runtime.onWarning ?? defaultWarn;
  if (config.provider === 'local') {
    const m = config.modelPath ? null : HASHED_RE.exec(config.model);
    if (m) return createHashedEmbedder(config.dimensions ?? (m[1] ? Number(m[1]) : HASHED_DEFAULT_DIMENSIONS));
    const name = config.modelPath ?? config.model;
    const { createLocalTransformersEmbedder, resolveLocalModel } = await import('./providers/local-transformers');
    const found = resolveLocalModel(name, env.LOCAL_EMBEDDING_MODELS_DIR);
    if ('problem' in found) throw ValidationError.single(['settings', config.modelPath ? 'model_path' : 'model_name'], `local embedding model unavailable: ${found.problem}`);
    return createLocalTransformersEmbedder({ ...config, modelPath: found.dir }, name);
  }
  // -- a workflow stored before the rule: refused before any client exists, stand-ins or not --
  const foreign = embedEndpointIssues(config, env);
  if (foreign.length) throw new ValidationError(foreign);
  const resolved = credentialsFromEnv(config, env);
  const spec: ModelSpec | undefined = MODEL_CATALOG[config.provider][config.model];
  if (!isConfigured(resolved, config, env)) {
    const dims = config.dimensions ?? spec?.dimensions ?? HASHED_DEFAULT_DIMENSIONS;
    const what = `${config.provider}/${config.model}`;
    // -- refused unless the deployment opted in: validation at create asks the same question --
    if (!offlineStandInsAllowed('embed', env)) throw new ValidationError(embedCredentialIssues(config, env));
    const warning = `no credentials for ${what}; offline hashed stand-in (not semantic) used`;
    onWarning(`${warning} at ${dims} dimensions`);
    return {
      ...createHashedEmbedder(dims, `${HASHED_MODEL_PREFIX}-${dims} (offline stand-in for ${what})`),
      standIn: { warning, elementNote: `offline stand-in for ${what} (no credentials): ${HASHED_MODEL_PREFIX}-${dims}, hashed character n-grams, not semantic` },
    };
  }
  const maxBatch = spec?.maxBatch ?? 64;
  const run: RunnerOptions = {
    batchSize: Math.min(resolved.batchSize ?? maxBatch, maxBatch),
    concurrency: resolved.concurrency ?? 4,
    maxRetries: resolved.maxRetries ?? 5,
    retryBaseMs: resolved.retryBaseMs ?? 500,
    maxInputChars: spec?.maxInputChars ?? 24_000,
    label: `${config.provider}/${config.model}`,
    onWarning,
  };
  switch (config.provider) {
    case 'bedrock': {
      const { createBedrockEmbedder } = await import('./providers/bedrock');
      return createBedrockEmbedder(resolved, spec, run);
    }
    case 'voyageai': {
      const { createVoyageEmbedder } = await import('./providers/voyageai');
      return createVoyageEmbedder(resolved, spec, run);
    }
    default: {
      const { createOpenAICompatibleEmbedder } = await import('./providers/openai');
      return createOpenAICompatibleEmbedder(resolved, spec, run);
    }
  }
}

/**
 * Embeds the text of each element with non-blank text and stores the vector in `embeddings`
 * (in place; elements without text are left without embeddings), with `metadata.embeddings_note`
 * when the embedder is an offline stand-in. Returns the same array.
 */
export async function embedElements<T extends Element>(elements: T[], embedder: Pick<Embedder, 'embedTexts' | 'standIn'>): Promise<T[]> {
  const targets = elements.filter((e) => typeof e.text === 'string' && e.text.trim() !== '');
  if (targets.length === 0) return elements;
  const vectors = await embedder.embedTexts(targets.map((e) => e.text));
  const note = embedder.standIn?.elementNote;
  targets.forEach((e, i) => {
    e.embeddings = vectors[i]!;
    // -- a stand-in's vectors are marked where they go: a vector store keeps the metadata beside them --
    if (note) e.metadata.embeddings_note = note;
  });
  return elements;
}
