// Prompter node settings: parsed with zod (a bad setting is a 422 at create, at its field), then
// credentials resolved from the node settings first and the deployment's environment second; the
// environment's credentials go only to the operator's endpoints (../providers/operator-endpoints.ts:
// a node naming its own base_url / endpoint_url carries its own keys). Secrets are never echoed: a
// 422 names the field, never its value.
import { z } from 'zod';
import { ValidationError, type ValidationIssue } from '../../errors';
import { zodIssuesToDetail } from '../../validation';
import { literalUrlProblem } from '../../net/outbound';
import { foreignEndpointIssues, withOperatorSettings } from '../providers/operator-endpoints';
import { DEFAULT_ENRICH_MODEL, PROMPTER_SUBTYPES, type EnrichProvider, type EnrichTask } from './catalog';

export type Env = Record<string, string | undefined>;

const str = z.string().min(1).max(2048);
const endpoint = str.refine((v) => /^https?:\/\//i.test(v), 'Input should be an http(s) URL');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** What a prompter node may set (the platform documents no settings: model and credentials are ours). */
export const PrompterSettings = z
  .object({
    model: str.optional(),
    model_name: str.optional(),
    api_key: str.optional(),
    base_url: endpoint.optional(),
    endpoint_url: endpoint.optional(),
    region: str.optional(),
    aws_access_key_id: str.optional(),
    aws_secret_access_key: str.optional(),
    aws_session_token: str.optional(),
    project: str.optional(),
    // (a Vertex location becomes part of the host name: a region name, nothing that could name a host)
    location: z.string().max(63).regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Input should be a location name such as us-central1').optional(),
    /** Replaces the task's instruction (the answer's shape is still asked for). */
    prompt: z.string().min(1).max(8000).optional(),
    concurrency: int(1, 64).optional(),
    max_retries: int(0, 10).optional(),
    timeout_ms: int(1000, 600_000).optional(),
    max_tokens: int(16, 16_384).optional(),
  })
  .loose();

/** What a model client needs: provider, model, credentials, endpoint and call limits. */
export interface ModelConfig {
  provider: EnrichProvider;
  model: string;
  apiKey?: string;
  baseUrl?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  project?: string;
  location?: string;
  concurrency: number;
  maxRetries: number;
  retryBaseMs: number;
  timeoutMs: number;
  maxTokens: number;
}

export interface PrompterConfig extends ModelConfig {
  subtype: string;
  task: EnrichTask;
  prompt?: string;
}

/** Prompter config for a node; issues at [...nodeLoc, 'subtype'] or [...nodeLoc, 'settings', field]. */
export function parsePrompterNode(subtype: string, settings: unknown, nodeLoc: (string | number)[] = []): PrompterConfig {
  const kind = PROMPTER_SUBTYPES[subtype];
  if (!kind) {
    throw ValidationError.single([...nodeLoc, 'subtype'], `unsupported prompter node subtype '${subtype}'; expected one of ${Object.keys(PROMPTER_SUBTYPES).join(', ')}`, 'value_error', subtype);
  }
  const res = PrompterSettings.safeParse(settings ?? {});
  // (the detail never carries the rejected value: it may be a key)
  if (!res.success) throw new ValidationError(zodIssuesToDetail(res.error.issues, [...nodeLoc, 'settings'], settings));
  const s = res.data;
  const issues: ValidationIssue[] = [];
  for (const f of ['base_url', 'endpoint_url'] as const) {
    const refused = s[f] ? literalUrlProblem(s[f]) : undefined;
    if (refused) issues.push({ loc: [...nodeLoc, 'settings', f], msg: refused, type: 'value_error' });
  }
  if (issues.length) throw new ValidationError(issues);
  return {
    subtype,
    ...kind,
    model: s.model_name ?? s.model ?? DEFAULT_ENRICH_MODEL[kind.provider],
    apiKey: s.api_key,
    baseUrl: s.base_url ?? s.endpoint_url,
    region: s.region,
    accessKeyId: s.aws_access_key_id,
    secretAccessKey: s.aws_secret_access_key,
    sessionToken: s.aws_session_token,
    project: s.project,
    location: s.location,
    prompt: s.prompt,
    concurrency: s.concurrency ?? 8,
    maxRetries: s.max_retries ?? 4,
    retryBaseMs: 500,
    timeoutMs: s.timeout_ms ?? 120_000,
    maxTokens: s.max_tokens ?? 1024,
  };
}

/**
 * The config with the deployment's credentials and endpoints filled in where the node left them out;
 * a node naming an endpoint the operator did not configure gets none of its credentials.
 */
export function withEnvironment<C extends ModelConfig>(c: C, env: Env): C {
  return withOperatorSettings(c, env);
}

const OFFLINE_CHOICE = 'or the deployment allows offline stand-ins with ALLOW_OFFLINE_STANDINS=true (elements are then left unenriched, and marked)';

/**
 * The operator-credentials rule for a model node: an issue at settings.api_key (Bedrock:
 * aws_access_key_id / aws_secret_access_key) when the node names an endpoint the deployment did not
 * configure and carries no keys of its own. Applies whether or not offline stand-ins are allowed.
 */
export function prompterEndpointIssues(c: ModelConfig, env: Env, nodeLoc: (string | number)[] = [], fields: { apiKey: string } = { apiKey: 'api_key' }): ValidationIssue[] {
  return foreignEndpointIssues(c, env, nodeLoc, fields.apiKey);
}

/**
 * Why the node's provider cannot be called: the endpoint rule's issue (prompterEndpointIssues), else
 * one issue at the settings field that would fix it, naming the environment variable that would
 * too. Empty when it can be called.
 */
export function prompterCredentialIssues(c: ModelConfig, env: Env, nodeLoc: (string | number)[] = [], fields: { apiKey: string } = { apiKey: 'api_key' }): ValidationIssue[] {
  const foreign = prompterEndpointIssues(c, env, nodeLoc, fields);
  if (foreign.length) return foreign;
  const r = withEnvironment(c, env);
  const what = `${c.provider}/${c.model}`;
  const issue = (field: string, how: string): ValidationIssue[] => [{ loc: [...nodeLoc, 'settings', field], msg: `no credentials for ${what}: ${how}; ${OFFLINE_CHOICE}`, type: 'missing' }];
  switch (c.provider) {
    case 'openai':
      return r.apiKey ? [] : issue(fields.apiKey, `give settings.${fields.apiKey} or set OPENAI_API_KEY in the deployment's environment`);
    case 'anthropic':
      return r.apiKey ? [] : issue(fields.apiKey, `give settings.${fields.apiKey} or set ANTHROPIC_API_KEY in the deployment's environment`);
    case 'bedrock': {
      // -- emulator-style AWS_* keys of a local stack must not send a job to real Bedrock: explicit only --
      // (a node's own endpoint_url counts only with its own keys: prompterEndpointIssues above)
      const ok = (c.accessKeyId && c.secretAccessKey) || env.BEDROCK_ENDPOINT_URL || env.BEDROCK_USE_DEFAULT_CREDENTIALS === 'true' || (env.AWS_LAMBDA_FUNCTION_NAME && !env.AWS_ENDPOINT_URL);
      if (ok) return [];
      return issue(c.accessKeyId ? 'aws_secret_access_key' : 'aws_access_key_id', "give settings.aws_access_key_id and settings.aws_secret_access_key or set BEDROCK_ENDPOINT_URL or BEDROCK_USE_DEFAULT_CREDENTIALS=true (on AWS Lambda its role is used)");
    }
    case 'vertexai':
      if (r.apiKey || (r.project && (env.GOOGLE_APPLICATION_CREDENTIALS || env.VERTEX_USE_DEFAULT_CREDENTIALS === 'true'))) return [];
      return issue(fields.apiKey, `give settings.${fields.apiKey} (Vertex AI express mode) or set VERTEX_API_KEY, or settings.project / GOOGLE_CLOUD_PROJECT with GOOGLE_APPLICATION_CREDENTIALS`);
  }
}

/** A loggable view of a config (no secrets). */
export function redactPrompterConfig(c: ModelConfig): Record<string, unknown> {
  const { apiKey, secretAccessKey, sessionToken, accessKeyId, ...rest } = c;
  return { ...rest, ...(apiKey ? { apiKey: '***' } : {}), ...(secretAccessKey ? { secretAccessKey: '***' } : {}), ...(sessionToken ? { sessionToken: '***' } : {}), ...(accessKeyId ? { accessKeyId: '***' } : {}) };
}
