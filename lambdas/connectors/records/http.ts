// Outbound HTTP for the official store clients that accept a fetch function or a custom fetcher
// (Pinecone, Astra DB): undici's fetch over one keep-alive agent whose connections resolve names
// under the outbound network policy (lambdas/net/outbound.ts), so a name cannot re-resolve to a private
// address between the check and the connect; IP literals are checked before the request. TLS is
// verified against the system roots plus CONNECTOR_CA_FILE.
//
// Throttling (429) and server errors (5xx) are thrown as StoreHttpError carrying the status,
// the Retry-After header and the store's own text, so withRetry (retry.ts) can back off and the
// final failure reason quotes the store. Clients wrap what their fetch throws; storeError() finds
// it again in the cause chain.
import type { Agent } from 'undici';
import { describeError } from '../definition';
import { connectorCa } from '../agents';
import { assertAllowedUrl, guardedUndiciConnect } from '../../net/outbound';
import { withRetry, type RetryOptions } from './retry';

// undici loads on first use: most users of the connector registry (config validation) never send.
// One agent per CA bundle: TLS is always verified, CONNECTOR_CA_FILE adding a private or test CA.
let undici: Promise<typeof import('undici')> | undefined;
const agents = new Map<string, Agent>();
async function loadUndici(): Promise<{ agent: Agent; fetch: typeof import('undici').fetch }> {
  const { Agent: AgentClass, fetch } = await (undici ??= import('undici'));
  const ca = connectorCa();
  const key = ca ? ca[ca.length - 1]! : '';
  let agent = agents.get(key);
  if (!agent) {
    agent = new AgentClass({
      keepAliveTimeout: 10_000,
      connections: 32,
      // The policy is read per connection: it is configuration, and tests switch it.
      connect: guardedUndiciConnect(ca ? { ca } : {}),
    });
    agents.set(key, agent);
  }
  return { agent, fetch };
}

// Both error classes keep the name "Error" so reasons read as the message alone.

/**
 * A 429 or 5xx answer of a store: retryable, with the store's text and headers. The status sits
 * under `response` (where retry.ts reads it), not as `status`: some clients (Pinecone's) would
 * otherwise run their own retry loop on it and replace it by their own error.
 */
export class StoreHttpError extends Error {
  readonly response: { status: number; headers: Record<string, string> };
  constructor(status: number, body: string, headers: Record<string, string>, store: string) {
    super(`${store} answered HTTP ${status}${body ? `: ${body}` : ''}`);
    this.response = { status, headers };
  }
}

/** A request that got no answer (refused, unresolvable, timed out), with the host and the cause. */
export class StoreUnreachableError extends Error {
  /** The system error code rides on `cause` (where retry.ts looks) so reasons are not prefixed by it. */
  constructor(message: string, code?: string) {
    super(message, code ? { cause: { code } } : undefined);
  }
}

export interface OutboundFetchOptions {
  /** Store name for messages ("Pinecone"). */
  store: string;
  signal?: AbortSignal;
  /** Per request (default 60 s). */
  timeoutMs?: number;
}

const MAX_ERROR_BODY = 1000;

/** A fetch for an official client: outbound policy, bounded time, 429/5xx thrown as StoreHttpError. */
export function outboundFetch(opts: OutboundFetchOptions): typeof globalThis.fetch {
  // A client may ask for no limit (0 or Infinity): keep one anyway, requests must end.
  const timeoutMs = opts.timeoutMs && Number.isFinite(opts.timeoutMs) && opts.timeoutMs > 0 ? Math.min(opts.timeoutMs, 600_000) : 60_000;
  const fn = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    try {
      await assertAllowedUrl(url);
    } catch (err) {
      throw new StoreUnreachableError((err as Error).message);
    }
    const signals = [AbortSignal.timeout(timeoutMs), opts.signal, init.signal ?? undefined].filter((s): s is AbortSignal => Boolean(s));
    const { agent, fetch } = await loadUndici();
    let res: Awaited<ReturnType<typeof fetch>>;
    try {
      res = await fetch(url, { ...(init as object), signal: AbortSignal.any(signals), redirect: 'manual', dispatcher: agent } as never);
    } catch (err) {
      throw unreachable(url, err, opts.signal);
    }
    if (res.status === 429 || res.status >= 500) {
      const text = await res.text().catch(() => '');
      throw new StoreHttpError(res.status, text.slice(0, MAX_ERROR_BODY), Object.fromEntries(res.headers.entries()), opts.store);
    }
    return res as unknown as Response;
  };
  return fn as typeof globalThis.fetch;
}

function unreachable(url: string, err: unknown, outer?: AbortSignal): StoreUnreachableError {
  const host = safeHost(url);
  if (outer?.aborted) return new StoreUnreachableError(`request to ${host} aborted`);
  const e = err as Error & { cause?: Error & { code?: string } };
  if (e?.name === 'TimeoutError' || e?.cause?.name === 'TimeoutError') return new StoreUnreachableError(`request to ${host} timed out`, 'ETIMEDOUT');
  const cause = e?.cause instanceof Error ? e.cause : e;
  return new StoreUnreachableError(`cannot reach ${host}: ${cause?.message || describeError(cause)}`, (cause as { code?: string })?.code);
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The StoreHttpError or StoreUnreachableError an SDK wrapped (cause chain), or undefined. */
export function storeError(err: unknown): StoreHttpError | StoreUnreachableError | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 6; depth++) {
    if (e instanceof StoreHttpError || e instanceof StoreUnreachableError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Runs one store operation with retries on throttling, 5xx and transient network errors (Retry-After
 * honoured). `normalize` turns a client's own error into one that carries status/headers (or returns
 * it unchanged); errors our fetch raised are unwrapped from the client's wrappers first.
 */
export function storeCall<T>(fn: () => Promise<T>, opts: RetryOptions & { normalize?: (err: unknown) => unknown } = {}): Promise<T> {
  const { normalize, ...retry } = opts;
  return withRetry(async () => {
    try {
      return await fn();
    } catch (err) {
      throw storeError(err) ?? (normalize ? normalize(err) : err);
    }
  }, retry);
}
