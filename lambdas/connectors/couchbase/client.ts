// Couchbase through the Query service's documented REST API (SQL++ over HTTP: POST /query/service,
// JSON body {statement, args | $name params, scan_consistency}, basic auth), not the official SDK.
// Why: the Node SDK is a native C++ core that bootstraps from the cluster map and opens its own
// sockets to every node the server names, with no socket or lookup hook, so a tenant's "cluster"
// could send it to private addresses past the outbound policy. Every request here goes through
// undici with the policy's lookup on the address really connected to (lambdas/net/outbound.ts),
// literal addresses checked first, TLS always verified (CONNECTOR_CA_FILE adds a private CA, as
// self-managed clusters use self-signed certificates).
//
// connection_string: couchbase://host[,host2...] → http://host:8093, couchbases://host →
// https://host:18093 (Capella answers on its hostname). Every request carries the password (basic
// auth), so couchbase:// and http:// are refused when a password is set (secure-transport.ts), at
// validation and before any request; without one they stay allowed. A port other than the KV defaults
// (11210/11207) is taken as the Query service's port (remapped clusters, stand-ins). Hosts are tried
// in order when one cannot be reached.
//
// Errors carry the service's own text (errors[].msg and code). Retried: HTTP 429/503, a 5xx without
// a Query answer, transient network errors, and errors the service marks retriable (`retry: true`,
// also under `reason`) or rate limits (1191/1192); anything else (bad credentials 10000, missing
// keyspace 12003, a refused document 12009) is final at once.
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { describeError } from '../definition';
import { config as appConfig } from '../../config';
import { connectorCa, redact } from '../agents';
import { guardedLookup, literalHostProblem, OutboundPolicyError, policyReason } from '../../net/outbound';
import { retryableError, withRetry, type RetryOptions } from '../records/retry';
import { clearTextProblem, hasSecret } from '../secure-transport';
import { DatabaseHttpError } from '../rest-client';

export interface CouchbaseTarget {
  connection_string: string;
  username: string;
  password: string;
  bucket: string;
  scope?: string;
  collection?: string;
  batch_size: number;
}

const QUERY_PORT = { plain: 8093, tls: 18093 };
const KV_PORTS = new Set([11210, 11207]);
const REQUEST_TIMEOUT_MS = 60_000;
const RETRY_CODES = new Set([1191, 1192]); // request count / rate limits of the user

/** The Query service base URLs a connection string names (first host first). */
export function queryBases(connectionString: string): string[] {
  const m = /^(couchbases?|https?):\/\/([^/?#]+)\/?(?:\?.*)?$/i.exec(connectionString.trim());
  if (!m) throw new Error('connection_string must be couchbase://host[,host...] or couchbases://host (the Query service is reached on 8093 / 18093)');
  const scheme = m[1]!.toLowerCase();
  const tls = scheme === 'couchbases' || scheme === 'https';
  const hosts = m[2]!.split(',').map((h) => h.trim()).filter(Boolean);
  if (!hosts.length) throw new Error('connection_string names no host');
  return hosts.map((h) => {
    const hp = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d+))?(?:=\w+)?$/i.exec(h);
    if (!hp) throw new Error(`connection_string host ${JSON.stringify(h)} is not host[:port]`);
    const given = hp[2] ? Number(hp[2]) : undefined;
    if (given !== undefined && !(given >= 1 && given <= 65535)) throw new Error(`connection_string port ${given} is out of range`);
    const port = given === undefined || (KV_PORTS.has(given) && scheme.startsWith('couchbase')) ? (tls ? QUERY_PORT.tls : QUERY_PORT.plain) : given;
    return `${tls ? 'https' : 'http'}://${hp[1]}:${port}`;
  });
}

/**
 * Why the connection string may not be used with this password: not a connection string
 * (queryBases' message), or a clear-text scheme while a password is set. Undefined when usable.
 */
export function connectionStringProblem(connectionString: string, password: unknown): string | undefined {
  try {
    queryBases(connectionString);
  } catch (err) {
    return (err as Error).message;
  }
  return hasSecret(password) ? clearTextProblem(connectionString.trim(), 'connection_string', 'password') : undefined;
}

/** A name used inside backticks (bucket, scope, collection, field): no backtick, not empty. */
export function identifierProblem(name: string, field: string): string | undefined {
  if (!name.trim()) return `${field} must not be empty`;
  if (name.includes('`')) return `${field} must not contain a backtick`;
  if (name.length > 251) return `${field} is longer than 251 characters`;
  return undefined;
}

export const scopeOf = (c: CouchbaseTarget) => c.scope || '_default';
export const collectionOf = (c: CouchbaseTarget) => c.collection || '_default';

/** `bucket`.`scope`.`collection` as SQL++ names it. */
export function keyspace(c: CouchbaseTarget): string {
  return [c.bucket, scopeOf(c), collectionOf(c)].map((n) => `\`${n}\``).join('.');
}
export const keyspaceLabel = (c: CouchbaseTarget) => `${c.bucket}.${scopeOf(c)}.${collectionOf(c)}`;

export interface QueryProblem {
  code?: number;
  msg?: string;
  retry?: boolean;
  reason?: { code?: number; retry?: boolean };
}

/** A failed statement with the service's errors; `retriable` says whether to try again. */
export class QueryError extends DatabaseHttpError {
  /** queryCode: the service's first error code (not `code`: reasons would be prefixed by it). */
  constructor(message: string, httpStatus: number, readonly queryCode: number | undefined, retriable: boolean, headers: Record<string, string>) {
    super(message, httpStatus, retriable, headers);
  }
}

export interface QueryResult {
  results: unknown[];
  metrics: { resultCount?: number; mutationCount?: number };
}

export interface QueryOptions extends Pick<RetryOptions, 'attempts' | 'onRetry' | 'signal'> {
  /** Positional parameters ($1, $2...). */
  args?: unknown[];
  /** Named parameters (without the $). */
  named?: Record<string, unknown>;
  /** request_plus for statements that must see every earlier write (the delete before a rewrite). */
  requestPlus?: boolean;
}

const agents = new Map<string, Agent>();
function dispatcher(): Agent {
  const ca = connectorCa();
  const key = appConfig().CONNECTOR_CA_FILE ?? '';
  let agent = agents.get(key);
  if (!agent) {
    const connector = buildConnector({ lookup: guardedLookup, ...(ca ? { ca } : {}) } as buildConnector.BuildOptions);
    agent = new Agent({
      keepAliveTimeout: 10_000,
      connections: 16,
      connect: (opts, cb) => {
        const problem = literalHostProblem(opts.hostname);
        if (problem) return cb(new OutboundPolicyError(problem), null);
        return connector(opts, cb);
      },
    });
    agents.set(key, agent);
  }
  return agent;
}

const hostOf = (base: string) => new URL(base).host;

function problemsText(problems: QueryProblem[]): string {
  return problems.map((p) => `${p.msg ?? 'error'}${p.code !== undefined ? ` (code ${p.code})` : ''}`).join('; ');
}

/** Sends one request to one node; throws QueryError (answered) or an Error with `cause.code` (no answer). */
async function send(base: string, c: CouchbaseTarget, body: Record<string, unknown>, signal?: AbortSignal): Promise<QueryResult> {
  // also checked per request: a pooled keep-alive connection skips the connect-time check
  const literal = literalHostProblem(new URL(base).hostname);
  if (literal) throw new OutboundPolicyError(literal);
  const signals = [AbortSignal.timeout(REQUEST_TIMEOUT_MS), signal].filter((s): s is AbortSignal => Boolean(s));
  let res: Awaited<ReturnType<typeof undiciFetch>>;
  try {
    res = await undiciFetch(`${base}/query/service`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`,
      },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.any(signals),
      dispatcher: dispatcher(),
    });
  } catch (err) {
    const policy = policyReason(err);
    if (policy) throw new OutboundPolicyError(policy);
    if (signal?.aborted) throw new Error(`request to ${hostOf(base)} aborted`);
    const e = err as Error & { cause?: Error & { code?: string } };
    if (e?.name === 'TimeoutError') throw new Error(`request to ${hostOf(base)} timed out`, { cause: { code: 'ETIMEDOUT' } });
    const cause = e?.cause instanceof Error ? e.cause : e;
    throw new Error(`cannot reach ${hostOf(base)}: ${cause?.message || describeError(cause)}`, { cause: { code: (cause as { code?: string })?.code } });
  }
  const text = await res.text();
  const headers = Object.fromEntries(res.headers.entries());
  let payload: { status?: string; results?: unknown[]; errors?: QueryProblem[]; metrics?: QueryResult['metrics'] } | undefined;
  try {
    payload = JSON.parse(text);
  } catch {
    payload = undefined;
  }
  const problems = Array.isArray(payload?.errors) ? payload!.errors : [];
  if (res.status === 200 && payload?.status === 'success' && !problems.length) {
    return { results: Array.isArray(payload.results) ? payload.results : [], metrics: payload.metrics ?? {} };
  }
  if (!problems.length) {
    // not a Query answer: a proxy, a node going down, a throttle in front of the service
    const retriable = res.status === 429 || res.status >= 500;
    throw new QueryError(`Couchbase Query service answered HTTP ${res.status}${text ? `: ${text.slice(0, 500)}` : ''}`, res.status, undefined, retriable, headers);
  }
  const marked = problems.some((p) => p.retry === true || p.reason?.retry === true || (p.code !== undefined && RETRY_CODES.has(p.code)));
  const retriable = marked || res.status === 429 || res.status === 503;
  const prefix = res.status === 401 ? 'Couchbase rejected the credentials (HTTP 401)' : `Couchbase Query service (HTTP ${res.status})`;
  throw new QueryError(`${prefix}: ${problemsText(problems)}`, res.status, problems[0]?.code, retriable, headers);
}

const isRetriable = (err: unknown) => (err instanceof QueryError ? err.retriable : !(err instanceof OutboundPolicyError) && retryableError(err));

/**
 * Runs one SQL++ statement with retries (see the header), trying the connection string's hosts in
 * order when one cannot be reached. Messages never carry the password.
 */
export async function runQuery(c: CouchbaseTarget, statement: string, opts: QueryOptions = {}): Promise<QueryResult> {
  const problem = connectionStringProblem(c.connection_string, c.password);
  if (problem) throw new Error(problem);
  const bases = queryBases(c.connection_string);
  const body: Record<string, unknown> = { statement, timeout: `${REQUEST_TIMEOUT_MS - 5000}ms` };
  if (opts.args) body.args = opts.args;
  for (const [k, v] of Object.entries(opts.named ?? {})) body[`$${k}`] = v;
  if (opts.requestPlus) body.scan_consistency = 'request_plus';
  try {
    return await withRetry(
      async () => {
        let last: unknown;
        for (const base of bases) {
          try {
            return await send(base, c, body, opts.signal);
          } catch (err) {
            last = err;
            // answered or refused by policy: the same on every node
            if (err instanceof QueryError || err instanceof OutboundPolicyError || opts.signal?.aborted) throw err;
          }
        }
        throw last;
      },
      { attempts: opts.attempts ?? 5, signal: opts.signal, retryable: isRetriable, onRetry: opts.onRetry },
    );
  } catch (err) {
    const e = err as Error;
    e.message = redact(e.message || describeError(err), [c.password]);
    throw e;
  }
}
