// The official Qdrant REST client (@qdrant/js-client-rest) for a tenant's cluster. The client calls
// the global fetch with an undici agent of its own and accepts no fetch or agent, so every method of
// the client returned here runs inside withGuardedGlobalFetch, which sends its requests through the
// outbound policy's agent instead (names resolved by the policy's lookup at connect time, so a name
// answering differently than at the early check is still refused). The URL's host is also checked
// before the client is made, for an early, readable reason.
import type { QdrantClient } from '@qdrant/js-client-rest';
import { describeError } from '../definition';
import { withGuardedGlobalFetch } from '../../net/global-fetch-guard';
import { assertAllowedUrl } from '../../net/outbound';
import { StoreHttpError, StoreUnreachableError, storeCall } from '../records/http';
import type { RetryOptions } from '../records/retry';
import { clearTextProblem } from '../secure-transport';

export interface QdrantTarget {
  api_key: string;
  collection_name: string;
  url: string;
  batch_size: number;
}

const REQUEST_TIMEOUT_MS = 60_000;

/** Why url may not get the API key: plain http:// (secure-transport.ts); a keyless cluster may be http. */
export function qdrantClearText(c: { url?: unknown; api_key?: unknown }): string | undefined {
  return typeof c.url === 'string' && c.api_key ? clearTextProblem(c.url, 'url', 'API key') : undefined;
}

export async function qdrantClient(c: QdrantTarget): Promise<QdrantClient> {
  const clear = qdrantClearText(c);
  if (clear) throw new Error(clear);
  try {
    await assertAllowedUrl(c.url);
  } catch (err) {
    throw new StoreUnreachableError((err as Error).message);
  }
  const { QdrantClient: Client } = await import('@qdrant/js-client-rest'); // loaded on first use
  try {
    // The key goes in the `api-key` header as the client's apiKey option would send it (https:// only,
    // above); a keyless local cluster over http:// gets no header.
    return guardedMethods(new Client({ url: c.url, headers: c.api_key ? { 'api-key': c.api_key } : {}, timeout: REQUEST_TIMEOUT_MS, checkCompatibility: false }));
  } catch (err) {
    throw new Error(`url ${JSON.stringify(c.url)} is not usable: ${(err as Error).message}`);
  }
}

/** The client with each method call run inside the guarded-fetch scope (its requests are made there). */
function guardedMethods(client: QdrantClient): QdrantClient {
  return new Proxy(client, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => withGuardedGlobalFetch(async () => (v as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

/** Qdrant's own error text from an ApiError's body ({status:{error}} or plain text). */
function apiErrorText(data: unknown, fallback: string): string {
  if (typeof data === 'string' && data.trim()) return data.trim().slice(0, 1000);
  const error = (data as { status?: { error?: string } })?.status?.error;
  return error ?? fallback;
}

/** A client error as one that carries the status, Retry-After and Qdrant's text (for retries and reasons). */
export function normalizeQdrantError(err: unknown, url?: string): unknown {
  const e = err as Error & { status?: number; statusText?: string; headers?: Headers; data?: unknown; retry_after?: number; cause?: Error & { code?: string } };
  if (e?.name === 'QdrantClientResourceExhaustedError') {
    return new StoreHttpError(429, e.message, { 'retry-after': String(e.retry_after ?? 1) }, 'Qdrant');
  }
  if (typeof e?.status === 'number') {
    const text = apiErrorText(e.data, e.message || e.statusText || '');
    if (e.status === 429 || e.status >= 500) return new StoreHttpError(e.status, text, Object.fromEntries(e.headers?.entries?.() ?? []), 'Qdrant');
    if (e.status === 401 || e.status === 403) return Object.assign(new Error(`Qdrant rejected the API key (HTTP ${e.status}): ${text}`), { status: e.status });
    return Object.assign(new Error(`Qdrant answered HTTP ${e.status}: ${text}`), { status: e.status });
  }
  if (e?.name === 'QdrantClientTimeoutError') return new StoreUnreachableError(`request to ${hostOf(url)} timed out`, 'ETIMEDOUT');
  if (e instanceof TypeError && e.cause instanceof Error) {
    return new StoreUnreachableError(`cannot reach ${hostOf(url)}: ${e.cause.message || describeError(e.cause)}`, e.cause.code);
  }
  return err;
}

function hostOf(url?: string): string {
  try {
    return url ? new URL(url).host : 'Qdrant';
  } catch {
    return 'Qdrant';
  }
}

/** A Qdrant call with our retry policy (throttling, 5xx, transient network errors). */
export function qdrantCall<T>(url: string, fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  return storeCall(fn, { attempts: 5, ...opts, normalize: (err) => normalizeQdrantError(err, url) });
}
