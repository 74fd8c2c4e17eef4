// Salesforce REST API client of the salesforce source: the OAuth 2.0 JWT bearer flow and SOQL queries,
// as the platform's connector does them through simple_salesforce (API v57.0).
//
// Not jsforce: 3.10.19 and later (3.10.26 is the current release) load undici 8, which needs
// Node >= 22.19 and throws at require on Node 20 (this project's engines floor); earlier 3.x send
// through node-fetch with no way to hand it an agent (only an HTTP proxy from the environment), later
// ones through one process-wide undici dispatcher that an https_proxy variable bypasses; either way
// its own retries of 429/503 ignore Retry-After, and it has no JWT bearer helper. So the documented
// REST API through connectorFetch (rest-client.ts): every connection, to the login host and to the
// instance_url the token answer names, passes the outbound policy at connect time.
//
// Login: POST <SALESFORCE_LOGIN_URL>/services/oauth2/token, grant_type jwt-bearer, assertion = RS256
// JWT {iss: consumer_key, sub: username, aud: SALESFORCE_LOGIN_URL, exp: now + 3 min} signed with
// private_key. The answer's instance_url must be an http(s) origin (https unless the login URL is
// plain http, i.e. a local stand-in) and is checked against the policy before use. Sessions are kept
// per credentials for 10 minutes (Salesforce's shortest session timeout is 15) and renewed once on a
// 401 (INVALID_SESSION_ID). Every call is retried (records/retry.ts) on 429, 5xx, transient network
// errors and 403 REQUEST_LIMIT_EXCEEDED, Retry-After honoured. Messages carry Salesforce's own text
// (`errorCode: message`, `error: error_description`), never the key or the access token.
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { config } from '../../config';
import { describeError, type ConnectorConfig } from '../definition';
import { redact } from '../agents';
import { CursorGuard } from '../paging';
import { retryableError, withRetry } from '../records/retry';
import { connectorFetch } from '../rest-client';
import { assertAllowedUrl, policyReason } from '../../net/outbound';
import { parseSalesforceJson } from './documents';

export const API_VERSION = '57.0';
export const DATA_PATH = `/services/data/v${API_VERSION}`;

export interface SalesforceConfig extends ConnectorConfig {
  categories: string[];
  consumer_key: string;
  private_key: string;
  username: string;
}

/** A non-2xx answer: status and headers where retry.ts looks, Salesforce's error code and text. */
export class SalesforceHttpError extends Error {
  override readonly name = 'SalesforceHttpError';
  constructor(
    message: string,
    readonly status: number,
    readonly headers: Headers,
    readonly errorCode: string | undefined,
  ) {
    super(message);
  }
}

/** The login URL (operator setting), without a trailing slash: token endpoint base and JWT audience. */
export function loginUrl(): string {
  return config().SALESFORCE_LOGIN_URL.replace(/\/+$/, '');
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/** The JWT bearer assertion simple_salesforce sends (RS256, iss/sub/aud/exp). */
export function jwtAssertion(c: SalesforceConfig, aud: string, nowMs = Date.now()): string {
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const payload = b64url(JSON.stringify({ iss: c.consumer_key, sub: c.username, aud, exp: Math.floor(nowMs / 1000) + 180 }));
  let key;
  try {
    key = createPrivateKey(c.private_key);
  } catch {
    throw new Error('Salesforce login: private_key is not a readable PEM private key');
  }
  return `${header}.${payload}.${b64url(sign('sha256', Buffer.from(`${header}.${payload}`), key))}`;
}

/** Salesforce's text of a failed answer: `error: error_description` (OAuth) or `errorCode: message` (REST). */
function errorText(body: string): { text: string; code?: string } {
  try {
    const b = JSON.parse(body) as unknown;
    const first = (Array.isArray(b) ? b[0] : b) as Record<string, unknown> | undefined;
    if (first && typeof first.error === 'string') {
      return { text: typeof first.error_description === 'string' ? `${first.error}: ${first.error_description}` : first.error, code: first.error };
    }
    if (first && typeof first.errorCode === 'string') {
      const msg = typeof first.message === 'string' ? first.message.replace(/\s+/g, ' ').trim() : '';
      return { text: msg ? `${first.errorCode}: ${msg}` : first.errorCode, code: first.errorCode };
    }
  } catch {
    // not JSON
  }
  return { text: body.replace(/\s+/g, ' ').trim().slice(0, 300) };
}

/** 429/408/5xx/transient as retry.ts, plus Salesforce's throttling answer 403 REQUEST_LIMIT_EXCEEDED. */
function retryable(err: unknown): boolean {
  if (err instanceof SalesforceHttpError && err.status === 403 && err.errorCode === 'REQUEST_LIMIT_EXCEEDED') return true;
  return retryableError(err);
}

async function send(url: string, init: RequestInit, secrets: readonly string[], signal?: AbortSignal): Promise<string> {
  return withRetry(
    async () => {
      const res = await connectorFetch(url, { ...init, redirect: 'error', ...(signal ? { signal } : {}) });
      const body = await res.text();
      if (res.ok) return body;
      const { text, code } = errorText(body);
      throw new SalesforceHttpError(redact(text || res.statusText || `HTTP ${res.status}`, secrets), res.status, res.headers, code);
    },
    { signal, retryable },
  );
}

export interface Session {
  accessToken: string;
  instanceUrl: string;
  at: number;
}

const SESSION_TTL_MS = 10 * 60_000;
const sessions = new Map<string, Session>();

function sessionKey(c: SalesforceConfig): string {
  return createHash('sha256').update(JSON.stringify([loginUrl(), c.consumer_key, c.username, c.private_key])).digest('hex');
}

/** The instance origin of a token answer, refused unless it is an http(s) origin the policy allows. */
async function instanceOrigin(raw: unknown, login: string): Promise<string> {
  let u: URL;
  try {
    u = new URL(String(raw));
  } catch {
    throw new Error(`Salesforce login: the token answer's instance_url ${JSON.stringify(raw)} is not a URL`);
  }
  const plainLogin = new URL(login).protocol === 'http:';
  if (u.protocol !== 'https:' && !(plainLogin && u.protocol === 'http:')) throw new Error(`Salesforce login: the token answer's instance_url ${u.origin} is not https; refused`);
  if (u.username || u.password) throw new Error('Salesforce login: the token answer\'s instance_url carries credentials; refused');
  try {
    await assertAllowedUrl(u.origin);
  } catch (err) {
    throw new Error(`Salesforce instance_url refused: ${policyReason(err) ?? (err as Error).message}`);
  }
  return u.origin;
}

/** A session for the config: the cached one, or a new JWT bearer login. */
export async function session(c: SalesforceConfig, signal?: AbortSignal, renew = false): Promise<Session> {
  const key = sessionKey(c);
  const cached = sessions.get(key);
  if (cached && !renew && Date.now() - cached.at < SESSION_TTL_MS) return cached;
  const login = loginUrl();
  const secrets = [c.private_key];
  let body: string;
  try {
    body = await send(
      `${login}/services/oauth2/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: jwtAssertion(c, login) }).toString(),
      },
      secrets,
      signal,
    );
  } catch (err) {
    throw failure('login', err, secrets);
  }
  let answer: { access_token?: unknown; instance_url?: unknown };
  try {
    answer = JSON.parse(body) as typeof answer;
  } catch {
    throw new Error(`Salesforce login failed: the token answer is not JSON (${body.slice(0, 80).replace(/\s+/g, ' ')})`);
  }
  if (typeof answer.access_token !== 'string' || !answer.access_token) throw new Error('Salesforce login failed: the token answer has no access_token');
  const s: Session = { accessToken: answer.access_token, instanceUrl: await instanceOrigin(answer.instance_url, login), at: Date.now() };
  if (sessions.size >= 200) sessions.delete(sessions.keys().next().value!);
  sessions.set(key, s);
  return s;
}

/** The error a caller reports: Salesforce's text with the operation, a policy refusal, or the network cause. */
export function failure(op: string, err: unknown, secrets: readonly string[] = []): Error {
  const refused = policyReason(err);
  if (refused) return new Error(`Salesforce ${op} refused: ${refused}`);
  if (err instanceof SalesforceHttpError) {
    if (op === 'login') return new Error(`Salesforce login failed: ${err.message} (HTTP ${err.status})`);
    return new Error(`Salesforce ${op} failed: ${err.message} (HTTP ${err.status})`);
  }
  if (err instanceof Error && err.message.startsWith('Salesforce ')) return err;
  return new Error(redact(`Salesforce ${op} failed: ${describeError(err).split('\n')[0]}`, secrets));
}

/**
 * GET of a REST path of the instance (`/services/data/...`, a nextRecordsUrl included) with the
 * session's token; a 401 renews the session once. Returns the body parsed with numbers kept lossless.
 */
export async function apiGet(c: SalesforceConfig, path: string, signal?: AbortSignal): Promise<unknown> {
  if (!path.startsWith(`${DATA_PATH}/`)) throw new Error(`Salesforce: ${JSON.stringify(path.slice(0, 100))} is not a REST path of API v${API_VERSION}; refused`);
  let s = await session(c, signal);
  for (let renewed = false; ; renewed = true) {
    const secrets = [c.private_key, s.accessToken];
    try {
      const body = await send(`${s.instanceUrl}${path}`, { headers: { authorization: `Bearer ${s.accessToken}`, accept: 'application/json' } }, secrets, signal);
      return parseSalesforceJson(body);
    } catch (err) {
      if (!renewed && err instanceof SalesforceHttpError && err.status === 401) {
        s = await session(c, signal, true);
        continue;
      }
      throw err;
    }
  }
}

interface QueryPage {
  done?: boolean;
  records?: Record<string, unknown>[];
  nextRecordsUrl?: string;
}

/** Every record of a SOQL query, page by page through nextRecordsUrl (query_all_iter without deleted rows). */
export async function* queryAll(c: SalesforceConfig, soql: string, op: string, signal?: AbortSignal): AsyncIterable<Record<string, unknown>> {
  const guard = new CursorGuard(`Salesforce ${op}`);
  let path: string | undefined = `${DATA_PATH}/query?q=${encodeURIComponent(soql)}`;
  while (path) {
    let page: QueryPage;
    try {
      page = (await apiGet(c, path, signal)) as QueryPage;
    } catch (err) {
      throw failure(op, err, [c.private_key]);
    }
    if (!page || !Array.isArray(page.records)) throw new Error(`Salesforce ${op} failed: the answer has no records list`);
    yield* page.records;
    const next = page.done === false ? page.nextRecordsUrl : undefined;
    if (page.done === false && typeof next !== 'string') throw new Error(`Salesforce ${op} failed: a page not done has no nextRecordsUrl`);
    path = next === undefined ? undefined : guard.next(next);
  }
}
