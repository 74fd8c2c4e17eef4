// IBM watsonx.data's Iceberg REST catalog, as the platform's connector reaches it through pyiceberg's
// RestCatalog: a bearer token from IBM IAM (the API key exchanged with grant type
// urn:ibm:params:oauth:grant-type:apikey, cached until five minutes before it expires), the catalog at
// https://<iceberg_endpoint>/mds/iceberg with warehouse = catalog (GET /v1/config gives the path
// prefix), HEAD for namespace/table existence, GET to load a table, POST to commit. Every call goes
// through the outbound policy (guardedFetch); 429/5xx are retried with back-off (max_retries_connection
// attempts, as the platform retries RESTError); a 409 on commit is a CommitConflict for the writer.
// The IAM token URL is IBM's; IBM_IAM_TOKEN_URL (a deployment setting, never a tenant's) points it at
// a stand-in in tests. Long integers (snapshot ids use 63 bits) are parsed as BigInt.
// Secrets go over TLS only (secure-transport.ts): the IAM token URL (it gets the API key) and the
// catalog (it gets the bearer token) must be https:// (watsonxClearText, checked at validation and
// before every call); TLS is verified against the system roots plus CONNECTOR_CA_FILE. The object
// storage endpoint is not under this rule: S3 requests are SigV4-signed, the HMAC secret never sent.
import { createHash } from 'node:crypto';
import { Agent as UndiciAgent, fetch as undiciFetch } from 'undici';
import { describeError } from '../definition';
import { connectorCa, redact } from '../agents';
import { clearTextProblem, hasSecret } from '../secure-transport';
import { guardedUndiciConnect, policyReason } from '../../net/outbound';
import { retryableError, withRetry } from '../records/retry';

export interface WatsonxTarget {
  iam_api_key: string;
  access_key_id: string;
  secret_access_key: string;
  iceberg_endpoint: string;
  object_storage_endpoint: string;
  object_storage_region: string;
  catalog: string;
  namespace: string;
  table: string;
  max_retries?: number;
  max_retries_connection?: number;
  record_id_key?: string;
}

export const DEFAULT_IAM_TOKEN_URL = 'https://iam.cloud.ibm.com/identity/token';
export const ICEBERG_PATH = '/mds/iceberg';

export const iamTokenUrl = () => process.env.IBM_IAM_TOKEN_URL || DEFAULT_IAM_TOKEN_URL;

/**
 * Why the config's API key or bearer token would travel in clear text: an http:// iceberg_endpoint
 * (the bearer token), or an http:// IAM token URL (the API key; a deployment setting), or undefined.
 */
export function watsonxClearText(c: { iceberg_endpoint?: unknown; iam_api_key?: unknown }, iamUrl = iamTokenUrl()): { field: string; message: string } | undefined {
  if (!hasSecret(c.iam_api_key)) return undefined;
  const iam = clearTextProblem(iamUrl, 'IBM_IAM_TOKEN_URL', 'IAM API key');
  if (iam) return { field: 'IBM_IAM_TOKEN_URL', message: iam };
  const endpoint = typeof c.iceberg_endpoint === 'string' && c.iceberg_endpoint.trim() ? clearTextProblem(endpointUrl(c.iceberg_endpoint), 'iceberg_endpoint', 'IAM bearer token') : undefined;
  return endpoint ? { field: 'iceberg_endpoint', message: endpoint } : undefined;
}

// One agent per CA bundle: the outbound policy on every connection, TLS verified against the system
// roots plus CONNECTOR_CA_FILE (a private CA, or the tests' stand-in).
const agents = new Map<string, UndiciAgent>();
const catalogFetch: typeof fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
  const ca = connectorCa();
  const key = ca ? ca[ca.length - 1]! : '';
  let agent = agents.get(key);
  if (!agent) agents.set(key, (agent = new UndiciAgent({ keepAliveTimeout: 10_000, connect: guardedUndiciConnect(ca ? { ca } : {}) })));
  return undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as object), dispatcher: agent } as Parameters<typeof undiciFetch>[1]);
}) as unknown as typeof fetch;

/** https://<endpoint> as the platform builds it; an endpoint written with its scheme is used as written. */
export function endpointUrl(endpoint: string): string {
  const e = endpoint.trim().replace(/\/+$/, '');
  return /^https?:\/\//i.test(e) ? e : `https://${e.replace(/^\/+/, '')}`;
}

/** An HTTP failure of IAM or the catalog, in the service's words (status kept for retries). */
export class CatalogError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly headers?: Headers,
  ) {
    super(message);
  }
}

/** A commit the catalog refused because the table moved on (409 CommitFailedException). */
export class CommitConflict extends CatalogError {}

/** A 401 with a cached token: retried once with a fresh one. */
class TokenRefused extends CatalogError {}

const LONG_MARK = '~iceberg-long~';

/** JSON with integers too long for a double (≥ 16 digits) as BigInt. */
export function parseJsonLongs(text: string): any {
  // Strings are matched first so that digits inside them are left alone.
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (t) => (/^-?\d{16,}$/.test(t) ? `"${LONG_MARK}${t}"` : t));
  return JSON.parse(marked, (_k, v) => (typeof v === 'string' && v.startsWith(LONG_MARK) ? BigInt(v.slice(LONG_MARK.length)) : v));
}

/** JSON with BigInt values written as plain integers. */
export function stringifyJsonLongs(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${LONG_MARK}${v}` : v)).replace(/"~iceberg-long~(-?\d+)"/g, '$1');
}

const tokens = new Map<string, { token: string; expiresAt: number }>();

export interface LoadedTable {
  metadataLocation?: string;
  metadata: TableMetadata;
}

export interface IcebergField {
  id: number;
  name: string;
  required: boolean;
  type: string | { type: string; 'element-id'?: number; element?: unknown; 'element-required'?: boolean; [k: string]: unknown };
}

export interface Snapshot {
  'snapshot-id': bigint | number;
  'parent-snapshot-id'?: bigint | number | null;
  'sequence-number'?: bigint | number;
  'timestamp-ms': bigint | number;
  'manifest-list': string;
  summary: Record<string, string>;
  'schema-id'?: number;
}

export interface TableMetadata {
  'format-version': number;
  'table-uuid': string;
  location: string;
  'last-sequence-number'?: bigint | number;
  'current-schema-id': number;
  schemas: { 'schema-id': number; type: 'struct'; fields: IcebergField[] }[];
  'default-spec-id'?: number;
  'partition-specs'?: { 'spec-id': number; fields: unknown[] }[];
  'current-snapshot-id'?: bigint | number | null;
  snapshots?: Snapshot[];
  refs?: Record<string, { 'snapshot-id': bigint | number; type: string }>;
  properties?: Record<string, string>;
}

export class IcebergCatalog {
  readonly base: string;
  private prefix: string | undefined;

  /** `attempts` overrides max_retries_connection (the check makes one attempt, as the platform's precheck). */
  constructor(
    private readonly c: WatsonxTarget,
    private readonly opts: { attempts?: number } = {},
  ) {
    this.base = `${endpointUrl(c.iceberg_endpoint)}${ICEBERG_PATH}`;
  }

  /** A message with the config's secrets removed. */
  clean(message: string): string {
    return redact(message, [this.c.iam_api_key, this.c.secret_access_key]);
  }

  private retry<T>(fn: () => Promise<T>, signal?: AbortSignal, log?: (m: string, f?: Record<string, unknown>) => void): Promise<T> {
    return withRetry(fn, {
      attempts: Math.max(1, this.opts.attempts ?? this.c.max_retries_connection ?? 10),
      baseDelayMs: 500,
      maxDelayMs: 10_000,
      signal,
      retryable: (err) => err instanceof TokenRefused || retryableError(err),
      onRetry: (err, attempt, delayMs) => log?.('ibm_watsonx_s3 catalog call retried', { attempt, delayMs, status: (err as CatalogError).status }),
    });
  }

  private failure(op: string, err: unknown): Error {
    if (err instanceof CatalogError) return err;
    const refused = policyReason(err);
    return new Error(this.clean(`${op} failed: ${refused ?? describeError(err)}`));
  }

  /** IAM bearer token for the API key (cached per key until 5 minutes before its expiration). */
  private tokenKey(): string {
    return createHash('sha256').update(`${iamTokenUrl()}\n${this.c.iam_api_key}`).digest('hex');
  }

  /** Refuses, before any request, a config whose key or token would go in clear text (stored before the rule). */
  private assertTls(): void {
    const clear = watsonxClearText(this.c);
    if (clear) throw new Error(clear.message);
  }

  async token(signal?: AbortSignal): Promise<string> {
    this.assertTls();
    const url = iamTokenUrl();
    const key = this.tokenKey();
    const cached = tokens.get(key);
    if (cached && cached.expiresAt > Date.now() / 1000 + 300) return cached.token;
    const out = await this.retry(async () => {
      let res: Response;
      try {
        res = await catalogFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ grant_type: 'urn:ibm:params:oauth:grant-type:apikey', apikey: this.c.iam_api_key }).toString(),
          signal,
        });
      } catch (err) {
        throw this.failure('IBM IAM token request', err);
      }
      const text = await res.text();
      if (!res.ok) {
        let why = text.slice(0, 300);
        try {
          const j = JSON.parse(text) as { errorCode?: string; errorMessage?: string };
          if (j.errorMessage) why = `${j.errorCode ? `${j.errorCode}: ` : ''}${j.errorMessage}`;
        } catch {
          /* not JSON: the text as is */
        }
        throw new CatalogError(this.clean(`IBM IAM token request failed: ${why} (HTTP ${res.status})`), res.status, res.headers);
      }
      return JSON.parse(text) as { access_token: string; expiration?: number; expires_in?: number };
    }, signal);
    const expiresAt = out.expiration ?? Date.now() / 1000 + (out.expires_in ?? 3600);
    if (tokens.size >= 1000) tokens.clear(); // one entry per API key in use; bounded
    tokens.set(key, { token: out.access_token, expiresAt });
    return out.access_token;
  }

  /** One catalog request; the catalog's ErrorModel text on failure. */
  private async request(op: string, method: string, path: string, opts: { body?: unknown; signal?: AbortSignal; log?: (m: string, f?: Record<string, unknown>) => void } = {}): Promise<{ status: number; json: any }> {
    let renewed = false;
    this.assertTls();
    return this.retry(async () => {
      const token = await this.token(opts.signal);
      let res: Response;
      try {
        res = await catalogFetch(`${this.base}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body: opts.body !== undefined ? stringifyJsonLongs(opts.body) : undefined,
          signal: opts.signal,
        });
      } catch (err) {
        throw this.failure(`${op} at ${this.base}`, err);
      }
      const text = method === 'HEAD' ? '' : await res.text();
      if (res.status === 404 && method === 'HEAD') return { status: 404, json: undefined };
      if (!res.ok) {
        let why = text.slice(0, 300) || res.statusText;
        try {
          const e = (JSON.parse(text) as { error?: { message?: string; type?: string } }).error;
          if (e?.message) why = `${e.type ? `${e.type}: ` : ''}${e.message}`;
        } catch {
          /* not JSON */
        }
        const msg = this.clean(`${op} failed: ${why} (HTTP ${res.status})`);
        if (res.status === 409 && method === 'POST') throw new CommitConflict(msg, 409);
        if (res.status === 401 && !renewed) {
          // A token revoked or expired early: a fresh one, once (pyiceberg asks IAM again on a new catalog).
          renewed = true;
          tokens.delete(this.tokenKey());
          throw new TokenRefused(msg, 401);
        }
        throw new CatalogError(msg, res.status, res.headers);
      }
      return { status: res.status, json: text ? parseJsonLongs(text) : undefined };
    }, opts.signal, opts.log);
  }

  /** The path prefix the catalog's config names for the warehouse (pyiceberg: overrides.prefix). */
  async pathPrefix(signal?: AbortSignal): Promise<string> {
    if (this.prefix === undefined) {
      const { json } = await this.request(`GET /v1/config of catalog '${this.c.catalog}'`, 'GET', `/v1/config?warehouse=${encodeURIComponent(this.c.catalog)}`, { signal });
      const p = json?.overrides?.prefix ?? json?.defaults?.prefix;
      this.prefix = typeof p === 'string' && p ? `/${p.replace(/^\/+|\/+$/g, '')}` : '';
    }
    return this.prefix;
  }

  private async nsPath(signal?: AbortSignal): Promise<string> {
    // pyiceberg splits a dotted namespace into levels and joins them with the unit separator.
    return `/v1${await this.pathPrefix(signal)}/namespaces/${encodeURIComponent(this.c.namespace.split('.').join('\u001f'))}`;
  }

  async namespaceExists(signal?: AbortSignal): Promise<boolean> {
    return (await this.request(`HEAD namespace '${this.c.namespace}'`, 'HEAD', await this.nsPath(signal), { signal })).status !== 404;
  }

  async tableExists(signal?: AbortSignal): Promise<boolean> {
    return (await this.request(`HEAD table '${this.c.namespace}.${this.c.table}'`, 'HEAD', `${await this.nsPath(signal)}/tables/${encodeURIComponent(this.c.table)}`, { signal })).status !== 404;
  }

  async loadTable(signal?: AbortSignal, log?: (m: string, f?: Record<string, unknown>) => void): Promise<LoadedTable> {
    const { json } = await this.request(`load table '${this.c.namespace}.${this.c.table}'`, 'GET', `${await this.nsPath(signal)}/tables/${encodeURIComponent(this.c.table)}`, { signal, log });
    return { metadataLocation: json['metadata-location'], metadata: json.metadata };
  }

  /** POST the table's commit (requirements and updates of the REST spec's CommitTableRequest). */
  async commit(requirements: unknown[], updates: unknown[], signal?: AbortSignal, log?: (m: string, f?: Record<string, unknown>) => void): Promise<void> {
    const path = `${await this.nsPath(signal)}/tables/${encodeURIComponent(this.c.table)}`;
    await this.request(`commit to table '${this.c.namespace}.${this.c.table}'`, 'POST', path, {
      body: { identifier: { namespace: this.c.namespace.split('.'), name: this.c.table }, requirements, updates },
      signal,
      log,
    });
  }
}
