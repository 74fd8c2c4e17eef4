// The one rule for the deployment's own model credentials (OPENAI_API_KEY, AZURE_OPENAI_API_KEY,
// TOGETHER_API_KEY, VOYAGE_API_KEY, ANTHROPIC_API_KEY, VERTEX_API_KEY / GOOGLE_API_KEY and
// application default credentials, the process's AWS keys or role): they go only to endpoints the
// operator chose, the provider's default or the operator's own *_BASE_URL / *_ENDPOINT setting. A
// node whose settings name another endpoint (base_url, endpoint_url, azure_endpoint) must carry its
// own credentials for it. The embed and prompter engines (and contextual chunking) consult this when
// they fill credentials from the environment (withOperatorSettings: one table for both), when a node
// is planned (a 422 at create) and before a client is made at run time (workflows stored before the
// rule); VLM partitioning takes endpoints from the environment only.
import type { ValidationIssue } from '../../errors';

export type Env = Record<string, string | undefined>;
export type HostedProvider = 'openai' | 'azure_openai' | 'togetherai' | 'voyageai' | 'anthropic' | 'vertexai' | 'bedrock';

/** A config field the environment may fill: the settings read, the first one set wins; else `default`. */
type Fill = { env: readonly string[]; default?: string };
type Filled = 'apiKey' | 'baseUrl' | 'region' | 'project' | 'location' | 'apiVersion';

const AWS_REGION: Fill = { env: ['AWS_REGION', 'AWS_DEFAULT_REGION'] };

/**
 * Where each provider's deployment credentials may go: the hosts of its default endpoints (any path
 * there is the provider's), and the environment settings naming the operator's own endpoint (matched
 * as a whole URL). `fill`: the config fields the environment fills for the operator's endpoints, in
 * order; `anyEndpoint`: those of them that are no credentials, filled for every endpoint.
 */
const OPERATOR_ENDPOINTS: Record<HostedProvider, { defaultHosts?: RegExp; env: readonly string[]; fill: Partial<Record<Filled, Fill>>; anyEndpoint?: readonly Filled[] }> = {
  openai: { defaultHosts: /^api\.openai\.com$/, env: ['OPENAI_BASE_URL'], fill: { apiKey: { env: ['OPENAI_API_KEY'] }, baseUrl: { env: ['OPENAI_BASE_URL'] } } },
  // (no public default: the operator's AZURE_OPENAI_ENDPOINT only)
  azure_openai: {
    env: ['AZURE_OPENAI_ENDPOINT'],
    fill: { apiKey: { env: ['AZURE_OPENAI_API_KEY'] }, baseUrl: { env: ['AZURE_OPENAI_ENDPOINT'] }, apiVersion: { env: ['OPENAI_API_VERSION'], default: '2024-10-21' } },
    anyEndpoint: ['apiVersion'],
  },
  togetherai: { defaultHosts: /^api\.together\.xyz$/, env: ['TOGETHER_BASE_URL'], fill: { apiKey: { env: ['TOGETHER_API_KEY'] }, baseUrl: { env: ['TOGETHER_BASE_URL'] } } },
  voyageai: { defaultHosts: /^api\.voyageai\.com$/, env: ['VOYAGE_BASE_URL'], fill: { apiKey: { env: ['VOYAGE_API_KEY'] }, baseUrl: { env: ['VOYAGE_BASE_URL'] } } },
  anthropic: { defaultHosts: /^api\.anthropic\.com$/, env: ['ANTHROPIC_BASE_URL'], fill: { apiKey: { env: ['ANTHROPIC_API_KEY'] }, baseUrl: { env: ['ANTHROPIC_BASE_URL'] } } },
  // global, regional ({location}-aiplatform) and multi-regional (aiplatform.{us,eu}.rep) hosts
  vertexai: {
    defaultHosts: /^(?:[a-z0-9-]+-)?aiplatform(?:\.[a-z0-9-]+\.rep)?\.googleapis\.com$/,
    env: ['VERTEX_BASE_URL', 'GOOGLE_VERTEX_BASE_URL'],
    fill: {
      apiKey: { env: ['VERTEX_API_KEY', 'GOOGLE_API_KEY'] },
      baseUrl: { env: ['VERTEX_BASE_URL'] },
      project: { env: ['GOOGLE_CLOUD_PROJECT'] },
      location: { env: ['GOOGLE_CLOUD_LOCATION'], default: 'us-central1' },
    },
  },
  bedrock: {
    defaultHosts: /^bedrock-runtime(?:-fips)?\.[a-z0-9-]+\.amazonaws\.com$/,
    env: ['BEDROCK_ENDPOINT_URL'],
    fill: { baseUrl: { env: ['BEDROCK_ENDPOINT_URL'] }, region: AWS_REGION },
    anyEndpoint: ['region'],
  },
};

/** A URL as compared: scheme, host (lower case, default port dropped), path without trailing slashes, query. */
function normalised(raw: string): URL | undefined {
  try {
    const url = new URL(raw.trim());
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return undefined;
    return url;
  } catch {
    return undefined;
  }
}
const asCompared = (u: URL) => `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}${u.search}`;

/**
 * Whether `endpoint` (a node's endpoint setting; undefined when it names none) is one the operator
 * configured for `provider`: none named, the provider's default host over https, or the operator's
 * own endpoint setting. Anything unparsable, with user info, or elsewhere is the tenant's.
 */
export function isOperatorEndpoint(provider: HostedProvider, endpoint: string | undefined, env: Env): boolean {
  if (endpoint === undefined || endpoint === '') return true;
  const url = normalised(endpoint);
  if (!url) return false;
  const spec = OPERATOR_ENDPOINTS[provider];
  if (url.protocol === 'https:' && url.port === '' && spec.defaultHosts?.test(url.hostname)) return true;
  return spec.env.some((name) => {
    const own = env[name] ? normalised(env[name]!) : undefined;
    return own !== undefined && asCompared(own) === asCompared(url);
  });
}

/** The config fields the environment may fill (both engines' configs have those of their providers). */
export type EnvFilledConfig = { provider: HostedProvider; baseUrl?: string } & { [F in Filled]?: string };

/**
 * The config with the deployment's settings filled in where the node left them out (`??=`): for the
 * operator's endpoints its credentials and endpoint, for any other only what is no credential
 * (Bedrock's region, Azure OpenAI's API version).
 */
export function withOperatorSettings<C extends EnvFilledConfig>(c: C, env: Env): C {
  const r: Record<string, unknown> = { ...c };
  const spec = OPERATOR_ENDPOINTS[c.provider];
  const fields = isOperatorEndpoint(c.provider, c.baseUrl, env) ? (Object.keys(spec.fill) as Filled[]) : (spec.anyEndpoint ?? []);
  for (const field of fields) {
    const fill = spec.fill[field]!;
    r[field] ??= fill.env.map((name) => env[name]).find((v) => v !== undefined) ?? fill.default;
  }
  return r as C;
}

/** What the rule reads of an embed or model config (both engines' configs have these fields). */
export interface ModelTarget {
  provider: HostedProvider;
  model: string;
  baseUrl?: string;
  apiKey?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/**
 * The rule as a 422: one issue when the node names an endpoint the operator did not configure and
 * carries no credentials of its own (an api key; for Bedrock both AWS keys), at
 * [...nodeLoc, 'settings', field] with field `apiKeyField` (Bedrock: the missing AWS key); empty
 * otherwise. The deployment's credentials are then never used. Never includes a setting's value.
 */
export function foreignEndpointIssues(c: ModelTarget, env: Env, nodeLoc: (string | number)[] = [], apiKeyField = 'api_key'): ValidationIssue[] {
  const bedrock = c.provider === 'bedrock';
  const own = bedrock ? Boolean(c.accessKeyId && c.secretAccessKey) : Boolean(c.apiKey);
  if (own || isOperatorEndpoint(c.provider, c.baseUrl, env)) return [];
  const field = bedrock ? (c.accessKeyId ? 'aws_secret_access_key' : 'aws_access_key_id') : apiKeyField;
  const settings = OPERATOR_ENDPOINTS[c.provider].env.join(' / ');
  return [
    {
      loc: [...nodeLoc, 'settings', field],
      msg: `${c.provider}/${c.model}: the node's endpoint setting names an endpoint the deployment did not configure (only the provider's own or ${settings} is given the deployment's credentials); give settings.${field} for that endpoint`,
      type: 'missing',
    },
  ];
}
