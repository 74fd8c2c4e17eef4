// The official Astra DB Data API client (@datastax/astra-db-ts) for one operation. Its HTTP goes
// through a custom Fetcher over the outbound fetch (network policy, bounded time, 429/5xx surfaced
// for our retries); its logging stays in-process events (nothing printed: commands carry documents).
// The endpoint is https:// only: every call carries the token (CONNECTOR_CA_FILE trusts a test CA).
import type { Db, Fetcher, FetcherRequestInfo, FetcherResponseInfo } from '@datastax/astra-db-ts';
import { outboundFetch, storeCall } from '../records/http';
import { clearTextProblem } from '../secure-transport';
import type { RetryOptions } from '../records/retry';

export interface AstraTarget {
  api_endpoint: string;
  token: string;
  collection_name: string;
  keyspace: string | null;
  batch_size: number;
  binary_encode_vectors: boolean;
  flatten_metadata: boolean;
}

export const DEFAULT_KEYSPACE = 'default_keyspace';

class PolicyFetcher implements Fetcher {
  constructor(private readonly signal?: AbortSignal) {}

  async fetch(info: FetcherRequestInfo): Promise<FetcherResponseInfo> {
    const f = outboundFetch({ store: 'Astra DB', signal: this.signal, timeoutMs: info.timeout });
    const res = await f(info.url, { method: info.method, headers: info.headers, body: info.body });
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      headers[k] = v;
    });
    return { url: res.url || info.url, statusText: res.statusText, httpVersion: 1, headers, body: await res.text(), status: res.status };
  }
}

export function keyspaceOf(c: AstraTarget): string {
  return c.keyspace ?? DEFAULT_KEYSPACE;
}

/** The SDK, loaded on first use (registry users that only validate configs never need it). */
export const astraSdk = () => import('@datastax/astra-db-ts');

/** Why api_endpoint may not be used: not a URL, or not https:// (every call carries the token). */
export function apiEndpointProblem(endpoint: string): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return `api_endpoint ${JSON.stringify(endpoint)} is not a URL`;
  }
  return clearTextProblem(endpoint, 'api_endpoint', 'token') ?? (url.protocol === 'https:' ? undefined : 'api_endpoint must be an https:// URL');
}

export async function openDb(c: AstraTarget, signal?: AbortSignal): Promise<Db> {
  const problem = apiEndpointProblem(c.api_endpoint);
  if (problem) throw new Error(problem);
  const { DataAPIClient } = await astraSdk();
  const client = new DataAPIClient({
    httpOptions: { client: 'custom', fetcher: new PolicyFetcher(signal) },
    logging: [{ events: 'all', emits: 'event' }],
  });
  return client.db(c.api_endpoint.replace(/\/+$/, ''), { token: c.token, keyspace: keyspaceOf(c) });
}

/** The Data API's error codes of an error (DataAPIResponseError, CollectionInsertManyError). */
export function errorCodes(err: unknown): string[] {
  const e = err as { errorDescriptors?: { errorCode?: string }[]; errors?: () => unknown[] };
  if (typeof e?.errors === 'function') return e.errors().flatMap(errorCodes);
  return (e?.errorDescriptors ?? []).map((d) => d.errorCode ?? '').filter(Boolean);
}

/** The store's message of a client error, without secrets (the token is never part of it). */
export function astraMessage(err: unknown): string {
  const e = err as Error & { status?: number; body?: string; errorDescriptors?: { message?: string; errorCode?: string }[]; errors?: () => unknown[] };
  if (e?.name === 'DataAPIHttpError') return `Astra DB answered HTTP ${e.status}${e.body ? `: ${e.body.slice(0, 1000)}` : ''}`;
  if (typeof e?.errors === 'function') {
    const msgs = [...new Set(e.errors().flatMap((x) => ((x as typeof e).errorDescriptors ?? []).map((d) => `${d.errorCode ? `${d.errorCode}: ` : ''}${d.message ?? ''}`)))];
    if (msgs.length) return `Astra DB refused: ${msgs.join('; ')}`;
  }
  if (e?.errorDescriptors?.length) return `Astra DB refused: ${e.errorDescriptors.map((d) => `${d.errorCode ? `${d.errorCode}: ` : ''}${d.message ?? ''}`).join('; ')}`;
  // Operation errors (CollectionDeleteManyError, ...) wrap the command's error as their cause.
  const cause = (err as { cause?: unknown })?.cause;
  if (cause instanceof Error && /^(DataAPI|Collection)/.test(cause.name)) return astraMessage(cause);
  return e?.message ?? String(err);
}

/** A Data API call with our retry policy; DataAPIHttpError statuses (429/5xx) are retried too. */
export function astraCall<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  return storeCall(fn, {
    attempts: 5,
    ...opts,
    normalize: (err) => {
      const e = err as { name?: string; status?: number; raw?: { headers?: Record<string, string> } };
      if (e?.name === 'DataAPIHttpError' && typeof e.status === 'number') {
        return Object.assign(new Error(astraMessage(err)), { response: { status: e.status, headers: e.raw?.headers ?? {} } });
      }
      if (/^(DataAPI|Collection)/.test(e?.name ?? '')) return Object.assign(new Error(astraMessage(err)), { original: err });
      return err;
    },
  });
}
