// Teradata through the Query Service REST API (part of Vantage: `POST /systems/{system}/queries`
// with {query, params, batch, format, includeColumns}, basic auth with the database user and
// password; `GET /systems` lists the configured systems), not an official driver. Why: Teradata's
// drivers (teradatasql, `teradata-nodejs-driver` on npm, a native wrapper of a closed Go library)
// speak Teradata's proprietary, undocumented binary protocol, so no server can run here and no
// stand-in could be written against a documented protocol; the Query Service is Teradata's
// documented HTTP/JSON access. Every request goes through undici under the outbound policy
// (rest-client.ts connectorFetch: the policy's lookup on the address really connected to, literal
// addresses judged first), TLS always verified (CONNECTOR_CA_FILE adds a private CA).
//
// Mapping of the platform's config: `host` = the Vantage host, the Query Service being reached at
// https://{host}:{TERADATA_QUERY_SERVICE_PORT} (deployment setting, Teradata's default 1443); a
// `host` given as a full http(s) URL is used as is. The system name is the one of `GET /systems`
// whose host matches, else the only one. `dbs_port` is the database port the Query Service itself
// uses to reach the database (configured with the system there): accepted and echoed. `database`
// qualifies table names.
//
// Errors: the Query Service answers non-200 with {"error": "<database code>", "message": "..."};
// 420 is a database error. Retried: HTTP 429 (session limit), 412 (session busy / queue timeout),
// 5xx, transient network errors, and Teradata's transient codes 2631 (transaction aborted by a
// deadlock) and 3598 (concurrent change conflict). Anything else (3807 missing object, 3523 no
// privilege, 8017 bad logon, 3996 a value too long) is final at once.
import { connectorFetch, DatabaseHttpError } from '../rest-client';
import { config as appConfig } from '../../config';
import { redact } from '../agents';
import { OutboundPolicyError, policyReason } from '../../net/outbound';
import { retryableError, withRetry, type RetryOptions } from '../records/retry';

export interface TeradataConnection {
  host: string;
  user: string;
  password: string;
  database?: string | null;
  dbs_port?: number;
}

const ACCEPT = 'application/vnd.com.teradata.rest-v1.0+json';
const QUERY_TIMEOUT_S = 110;
/** Teradata's "try again" codes: deadlock (2631), concurrent change conflict (3598). */
export const TRANSIENT_CODES = new Set([2631, 3598]);
const SYSTEMS_TTL_MS = 5 * 60_000;

/** The Query Service base URL a `host` names. */
export function serviceBase(host: string): string {
  const h = host.trim();
  if (/^https?:\/\//i.test(h)) {
    const u = new URL(h);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  }
  if (!/^(\[[0-9a-f:.]+\]|[A-Za-z0-9.-]+)$/i.test(h)) throw new Error('host must be a host name or address (or the Query Service URL, https://host:port)');
  return `https://${h}:${appConfig().TERADATA_QUERY_SERVICE_PORT}`;
}

/** The host name the configured systems are matched against. */
function hostName(host: string): string {
  const h = host.trim();
  return (/^https?:\/\//i.test(h) ? new URL(h).hostname : h).replace(/^\[|\]$/g, '').toLowerCase();
}

/** A Teradata name used inside double quotes: not empty, no quote, at most 128 characters. */
export function identifierProblem(name: string, field: string): string | undefined {
  if (!name.trim()) return `${field} must not be empty`;
  if (name.includes('"')) return `${field} must not contain a double quote`;
  if (name.length > 128) return `${field} is longer than 128 characters`;
  return undefined;
}

export const quoteIdent = (name: string) => `"${name}"`;

/** "database"."table" (or "table": the user's default database). */
export function tableSql(c: TeradataConnection, table: string): string {
  return c.database ? `${quoteIdent(c.database)}.${quoteIdent(table)}` : quoteIdent(table);
}
export const tableLabel = (c: TeradataConnection, table: string) => (c.database ? `${c.database}.${table}` : table);

/** A failed request with the database's code; `retriable` says whether to try again. */
export class TeradataError extends DatabaseHttpError {
  constructor(message: string, httpStatus: number, readonly dbCode: number | undefined, retriable: boolean, headers: Record<string, string>) {
    super(message, httpStatus, retriable, headers);
  }
}

export interface ResultColumn {
  name: string;
  type?: string;
}

export interface StatementResult {
  resultSet: boolean;
  columns: ResultColumn[];
  rows: unknown[][];
  /** Update count of a statement without a result set. */
  count: number;
  /** The Query Service cut the result at its row limit. */
  rowLimitExceeded: boolean;
}

export interface QueryOptions extends Pick<RetryOptions, 'attempts' | 'onRetry' | 'signal'> {
  /** Parameter sets: one array per execution of the statement (`?` markers). */
  params?: unknown[][];
  /** Run the parameter sets as one JDBC batch. */
  batch?: boolean;
  /** Rows the Query Service may return (its rowLimit; a listing page asks for exactly its page). */
  rowLimit?: number;
}

const isRetriable = (err: unknown) => (err instanceof TeradataError ? err.retriable : !(err instanceof OutboundPolicyError) && retryableError(err));

function authHeader(c: TeradataConnection): string {
  return `Basic ${Buffer.from(`${c.user}:${c.password}`).toString('base64')}`;
}

async function send(url: string, c: TeradataConnection, init: { method: string; body?: string; signal?: AbortSignal }): Promise<unknown> {
  let res: Response;
  try {
    res = await connectorFetch(url, {
      method: init.method,
      headers: { authorization: authHeader(c), accept: ACCEPT, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      ...(init.body ? { body: init.body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
      redirect: 'manual',
    });
  } catch (err) {
    const policy = policyReason(err);
    if (policy) throw new OutboundPolicyError(policy);
    // the code travels as the cause (retry.ts reads it there), the reason reads "cannot reach host: ..."
    const e = err as Error & { code?: string };
    const code = e.code;
    throw new Error(`${e.message}${code && !e.message.includes(code) ? ` (${code})` : ''}`, { cause: { code } });
  }
  const text = await res.text();
  let payload: Record<string, unknown> | unknown[] | undefined;
  try {
    payload = text ? JSON.parse(text) : undefined;
  } catch {
    payload = undefined;
  }
  if (res.status === 200 || res.status === 201) {
    if (payload === undefined) throw new TeradataError(`Teradata Query Service answered HTTP ${res.status} without JSON`, res.status, undefined, false, {});
    return payload;
  }
  const headers = Object.fromEntries(res.headers.entries());
  const p = (payload && !Array.isArray(payload) ? payload : {}) as { error?: unknown; message?: unknown };
  const code = p.error !== undefined && /^\d+$/.test(String(p.error)) ? Number(p.error) : undefined;
  const message = typeof p.message === 'string' ? p.message : text.replace(/\s+/g, ' ').trim().slice(0, 500);
  const retriable = res.status === 429 || res.status === 412 || res.status >= 500 || (code !== undefined && TRANSIENT_CODES.has(code));
  const what =
    res.status === 401 ? 'Teradata Query Service rejected the credentials (HTTP 401)' : res.status === 420 ? 'Teradata (HTTP 420 database error)' : `Teradata Query Service (HTTP ${res.status})`;
  throw new TeradataError(`${what}: ${message || 'no message'}${code !== undefined ? ` (error ${code})` : ''}`, res.status, code, retriable, headers);
}

async function guarded<T>(c: TeradataConnection, fn: () => Promise<T>, opts: Pick<RetryOptions, 'attempts' | 'onRetry' | 'signal'>): Promise<T> {
  try {
    return await withRetry(fn, { attempts: opts.attempts ?? 5, signal: opts.signal, retryable: isRetriable, onRetry: opts.onRetry });
  } catch (err) {
    const e = err as Error;
    e.message = redact(e.message || String(err), [c.password]);
    throw e;
  }
}

interface SystemEntry {
  name?: unknown;
  host?: unknown;
}

const systems = new Map<string, { name: string; at: number }>();

/** The Query Service's system that serves this host (see the header). */
export async function systemName(c: TeradataConnection, signal?: AbortSignal): Promise<string> {
  const base = serviceBase(c.host);
  const key = `${base}|${hostName(c.host)}`;
  const hit = systems.get(key);
  if (hit && Date.now() - hit.at < SYSTEMS_TTL_MS) return hit.name;
  const payload = await guarded(c, () => send(`${base}/systems`, c, { method: 'GET', signal }), { signal, attempts: 3 });
  const list = (Array.isArray(payload) ? payload : ((payload as { systems?: unknown })?.systems ?? [])) as SystemEntry[];
  const named = Array.isArray(list) ? list.filter((s) => typeof s?.name === 'string') : [];
  const want = hostName(c.host);
  const matching = named.filter((s) => typeof s.host === 'string' && s.host.toLowerCase() === want);
  const pick = matching.length === 1 ? matching[0] : matching.length === 0 && named.length === 1 ? named[0] : undefined;
  if (!pick) {
    const names = named.map((s) => `${s.name}${typeof s.host === 'string' ? ` (${s.host})` : ''}`).join(', ');
    throw new Error(
      named.length
        ? `the Query Service at ${new URL(base).host} has ${named.length} systems (${names}) and ${matching.length ? 'several' : 'none'} with host ${want}: which one to use is ambiguous`
        : `the Query Service at ${new URL(base).host} has no system configured`,
    );
  }
  systems.set(key, { name: pick.name as string, at: Date.now() });
  return pick.name as string;
}

/** Runs one SQL request (retries per the header); the statements' results. Messages never carry the password. */
export async function runQuery(c: TeradataConnection, query: string, opts: QueryOptions = {}): Promise<StatementResult[]> {
  const system = await systemName(c, opts.signal);
  const url = `${serviceBase(c.host)}/systems/${encodeURIComponent(system)}/queries`;
  const body: Record<string, unknown> = { query, format: 'ARRAY', includeColumns: true, queryTimeout: QUERY_TIMEOUT_S };
  if (opts.params) body.params = opts.params;
  if (opts.batch) body.batch = true;
  if (opts.rowLimit !== undefined) body.rowLimit = opts.rowLimit;
  const json = JSON.stringify(body);
  const payload = (await guarded(c, () => send(url, c, { method: 'POST', body: json, signal: opts.signal }), opts)) as { results?: unknown };
  const results = Array.isArray(payload.results) ? (payload.results as Record<string, unknown>[]) : [];
  return results.map((r) => ({
    resultSet: r.resultSet === true,
    columns: Array.isArray(r.columns) ? (r.columns as ResultColumn[]) : [],
    rows: Array.isArray(r.data) ? (r.data as unknown[]).map((row) => (Array.isArray(row) ? row : Object.values(row as object))) : [],
    count: typeof r.count === 'number' ? r.count : typeof r.updateCount === 'number' ? r.updateCount : 0,
    rowLimitExceeded: r.rowLimitExceeded === true,
  }));
}

/** The first result set of a request. */
export async function selectRows(c: TeradataConnection, query: string, opts: QueryOptions = {}): Promise<StatementResult> {
  const results = await runQuery(c, query, opts);
  const set = results.find((r) => r.resultSet);
  if (!set) throw new Error('the Query Service returned no result set for a SELECT');
  return set;
}

/** Rows changed by a request (the update counts of its statements and parameter sets). */
export async function execute(c: TeradataConnection, query: string, opts: QueryOptions = {}): Promise<number> {
  const results = await runQuery(c, query, opts);
  return results.reduce((n, r) => n + (r.resultSet ? 0 : r.count), 0);
}
