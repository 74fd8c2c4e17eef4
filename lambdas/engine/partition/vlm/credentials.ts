// Which VLM providers the deployment's environment holds credentials for: plain checks of the
// environment, no client imported, so node planning in the API (lambdas/domain) can ask without
// loading the providers' SDKs into every handler bundle. The clients themselves (./index.ts) live in
// the partition engine.
import type { VlmOptions } from '../types';

export type Env = Record<string, string | undefined>;

/** Providers with an adapter here (the platform's enum also names vertexai, google, azure_openai). */
export const VLM_PROVIDERS = ['openai', 'anthropic', 'bedrock', 'anthropic_bedrock'] as const;
export type VlmProviderName = (typeof VLM_PROVIDERS)[number];

/** Where each provider's credentials come from (the environment only; no secret in node settings). */
const VLM_CREDENTIALS: Record<VlmProviderName, string> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  bedrock: 'AWS credentials with BEDROCK_ENDPOINT or BEDROCK_USE_DEFAULT_CREDENTIALS=true (on AWS Lambda its role)',
  anthropic_bedrock: 'AWS credentials with BEDROCK_ENDPOINT or BEDROCK_USE_DEFAULT_CREDENTIALS=true (on AWS Lambda its role)',
};

/**
 * The AWS keys that count as Bedrock access. Emulator keys (npm start points the SDK at local
 * emulators) never do: only with an explicit endpoint, an explicit opt-in, or on a real Lambda (its
 * role's keys), as for embeddings.
 */
export function bedrockKeys(env: Env): { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined {
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env;
  if (!accessKeyId || !secretAccessKey) return undefined;
  const usable = env.BEDROCK_ENDPOINT || env.BEDROCK_USE_DEFAULT_CREDENTIALS === 'true' || (env.AWS_LAMBDA_FUNCTION_NAME && !env.AWS_ENDPOINT_URL);
  return usable ? { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) } : undefined;
}

const HAS_CREDENTIALS: Record<VlmProviderName, (env: Env) => boolean> = {
  openai: (env) => Boolean(env.OPENAI_API_KEY),
  anthropic: (env) => Boolean(env.ANTHROPIC_API_KEY),
  bedrock: (env) => Boolean(bedrockKeys(env)),
  anthropic_bedrock: (env) => Boolean(bedrockKeys(env)),
};

/** The provider these options would call: the one named if it has credentials, else the first that has; undefined for none. */
export function configuredVlmProvider(opts: VlmOptions | undefined, env: Env = process.env): VlmProviderName | undefined {
  const wanted = opts?.provider?.toLowerCase();
  if (wanted) return (VLM_PROVIDERS as readonly string[]).includes(wanted) && HAS_CREDENTIALS[wanted as VlmProviderName](env) ? (wanted as VlmProviderName) : undefined;
  return VLM_PROVIDERS.find((p) => HAS_CREDENTIALS[p](env));
}

/**
 * Why no vision model would be called for these options (an unsupported provider, or no
 * credentials in the deployment's environment), or undefined when one would. The partition engine
 * then falls back to the local text layer and OCR; job nodes refuse that unless the deployment
 * allows offline stand-ins. The text names settings and environment variables, never a value.
 */
export function vlmCredentialProblem(opts: VlmOptions | undefined, env: Env = process.env): string | undefined {
  if (configuredVlmProvider(opts, env)) return undefined;
  const wanted = opts?.provider?.toLowerCase();
  if (wanted && !(VLM_PROVIDERS as readonly string[]).includes(wanted)) {
    return `VLM provider '${wanted}' is not available here (one of ${VLM_PROVIDERS.join(', ')})`;
  }
  const needs = wanted ? VLM_CREDENTIALS[wanted as VlmProviderName] : `one of ${[...new Set(Object.values(VLM_CREDENTIALS))].join('; ')}`;
  return `no credentials for the VLM provider${wanted ? ` '${wanted}'` : ''} (set ${needs} in the deployment's environment)`;
}

/** What a refusal adds to vlmCredentialProblem's reason. */
export const VLM_OFFLINE_CHOICE = "strategy 'hi_res' (local OCR) is the offline choice (or the deployment allows offline stand-ins with ALLOW_OFFLINE_STANDINS=true)";
