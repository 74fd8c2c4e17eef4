// HTTP for the source connectors that speak a service's REST API (Box, Confluence, Jira) or whose
// official client takes a fetch (Dropbox SDK): undici fetch on a dispatcher under the outbound policy
// (names resolved through guardedLookup at connect time, literal addresses judged before connecting,
// redirect hops included), TLS always verified with CONNECTOR_CA_FILE added to the roots (a
// self-hosted Confluence or Jira behind a private CA), a bound on every request. `restCall` adds
// the retries of records/retry.ts (429/408/5xx/transient, Retry-After honoured) and turns a non-2xx
// answer into an HttpError whose message is the service's own text with every secret redacted.
import { Agent as UndiciAgent, fetch as undiciFetch } from 'undici';
import { connectorCa, redact } from './agents';
import { guardedUndiciConnect, literalUrlProblem, OutboundPolicyError, policyReason } from '../net/outbound';
import { withRetry } from './records/retry';

/** A non-2xx answer: status and headers where retry.ts looks (statusOf, retryAfterMs). */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    message: string,
    readonly status: number,
    readonly headers: Headers,
  ) {
    super(message);
  }
}

/**
 * A failed request to a database's HTTP API; only a `retriable` one shows its status and headers
 * where retry.ts reads Retry-After (`response`). Subclasses add the database's own error code.
 */
export class DatabaseHttpError extends Error {
  readonly response?: { status: number; headers: Record<string, string> };
  constructor(
    message: string,
    readonly httpStatus: number,
    readonly retriable: boolean,
    headers: Record<string, string>,
  ) {
    super(message);
    if (retriable) this.response = { status: httpStatus, headers };
  }
}

let dispatcher: { agent: UndiciAgent; key: string } | undefined;
function connectorDispatcher(): UndiciAgent {
  const ca = connectorCa();
  const key = ca ? ca[ca.length - 1]! : '';
  if (!dispatcher || dispatcher.key !== key) {
    const agent = new UndiciAgent({ keepAliveTimeout: 10_000, connect: guardedUndiciConnect(ca ? { ca } : {}) });
    dispatcher = { agent, key };
  }
  return dispatcher.agent;
}

const REQUEST_TIMEOUT_MS = 120_000;

/**
 * fetch under the outbound policy, for clients that take one (the Dropbox SDK). A refused or failed
 * connection is an Error naming the host and the cause (the cause's code kept for retries).
 */
export async function connectorFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const problem = literalUrlProblem(url);
  if (problem) throw new OutboundPolicyError(problem);
  const signals = [AbortSignal.timeout(REQUEST_TIMEOUT_MS), init.signal].filter((s): s is AbortSignal => Boolean(s));
  try {
    return (await undiciFetch(url, { ...(init as object), signal: AbortSignal.any(signals), dispatcher: connectorDispatcher() } as never)) as unknown as Response;
  } catch (err) {
    const refused = policyReason(err);
    if (refused) throw new OutboundPolicyError(refused);
    const cause = ((err as { cause?: Error & { code?: string } }).cause ?? err) as Error & { code?: string };
    const e = new Error(`cannot reach ${new URL(url).host}: ${cause.message}`) as Error & { code?: string };
    if (cause.code) e.code = cause.code;
    throw e;
  }
}

export interface RestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Secret values to redact from any message. */
  secrets?: readonly (string | null | undefined)[];
  /** The service's error text from a non-2xx body (default: the body's first 300 characters). */
  errorText?: (body: string) => string | undefined;
  /** Attempts in all (default 5). */
  attempts?: number;
}

/**
 * One request with retries; resolves to the 2xx response, rejects with an HttpError (`<op> failed:
 * HTTP <status>: <service text>`) or a connection error. The response body is the caller's to read.
 */
export function restCall(op: string, url: string, opts: RestOptions = {}): Promise<Response> {
  return withRetry(
    async () => {
      const res = await connectorFetch(url, {
        method: opts.method ?? 'GET',
        headers: opts.headers,
        ...(opts.body !== undefined ? { body: opts.body } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        redirect: 'follow',
      });
      if (res.ok) return res;
      const body = await res.text().catch(() => '');
      const text = (opts.errorText?.(body) ?? body.replace(/\s+/g, ' ').trim()).slice(0, 300);
      throw new HttpError(redact(`${op} failed: HTTP ${res.status}${text ? `: ${text}` : ''}`, opts.secrets ?? []), res.status, res.headers);
    },
    { signal: opts.signal, attempts: opts.attempts ?? 5 },
  ).catch((err) => {
    if (err instanceof HttpError) throw err;
    const refused = policyReason(err);
    throw new Error(redact(refused ? `${op} refused: ${refused}` : `${op} failed: ${(err as Error).message}`, opts.secrets ?? []));
  });
}

/** restCall and the JSON body. */
export async function restJson<T>(op: string, url: string, opts: RestOptions = {}): Promise<T> {
  const res = await restCall(op, url, { ...opts, headers: { Accept: 'application/json', ...opts.headers } });
  const body = await res.text();
  try {
    return JSON.parse(body) as T;
  } catch {
    throw new Error(`${op} failed: the answer is not JSON (${body.slice(0, 100).replace(/\s+/g, ' ')})`);
  }
}
