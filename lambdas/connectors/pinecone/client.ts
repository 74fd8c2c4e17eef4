// The official Pinecone client (@pinecone-database/pinecone) for one operation: its requests go
// through the outbound fetch (network policy, bounded time, 429/5xx surfaced for our retries, so
// the client's own 5xx retry is off). PINECONE_CONTROLLER_HOST points the control plane
// (api.pinecone.io) elsewhere; the data plane is the host that describe_index returns.
import type { IndexModel, Pinecone } from '@pinecone-database/pinecone';
import { outboundFetch, storeCall } from '../records/http';
import type { RetryOptions } from '../records/retry';

export interface PineconeTarget {
  api_key: string;
  index_name: string;
  namespace: string;
  batch_size: number;
}

export function controllerHost(): string {
  return (process.env.PINECONE_CONTROLLER_HOST ?? 'https://api.pinecone.io').replace(/\/+$/, '');
}

/** The client; the SDK is loaded on first use (registry users that only validate configs never need it). */
export async function pineconeClient(apiKey: string, signal?: AbortSignal): Promise<Pinecone> {
  const { Pinecone: PineconeClient } = await import('@pinecone-database/pinecone');
  return new PineconeClient({
    apiKey,
    controllerHostUrl: controllerHost(),
    fetchApi: outboundFetch({ store: 'Pinecone', signal }),
    maxRetries: 0,
    sourceTag: 'workflow_service',
  });
}

/** Pinecone index names hold lowercase letters, digits and hyphens (platform: format_destination_name). */
export function formatIndexName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '-');
}

/** A Pinecone call with our retry policy (throttling, 5xx, transient network errors). */
export function pineconeCall<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  return storeCall(fn, { attempts: 5, ...opts });
}

export function isNotFound(err: unknown): boolean {
  return (err as Error)?.name === 'PineconeNotFoundError';
}

/** serverless | pod | byoc, from an index description. */
export function indexKind(model: IndexModel): 'serverless' | 'pod' | 'byoc' | 'unknown' {
  const spec = (model.spec ?? {}) as unknown as Record<string, unknown>;
  if (spec.serverless) return 'serverless';
  if (spec.pod) return 'pod';
  if (spec.byoc) return 'byoc';
  return 'unknown';
}

/** The store's message without the client's boilerplate links. */
export function pineconeMessage(err: unknown): string {
  const e = err as Error & { cause?: unknown };
  const msg = e?.message ?? String(err);
  if (e?.name === 'PineconeAuthorizationError') return 'Pinecone rejected the API key (HTTP 401)';
  if (e?.name === 'PineconeBadRequestError' || e?.name === 'PineconeUnprocessableEntityError' || e?.name === 'PineconeConflictError') return `Pinecone refused the request: ${msg}`;
  return msg;
}
