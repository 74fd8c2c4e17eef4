// Retries for store calls: throttling (429) and server errors (5xx), plus transient network
// errors, under the shared back-off (../../retry.ts: equal jitter, Retry-After honoured, capped).
// Anything else (a record the store rejects, bad credentials) is final at once.
import { parseRetryAfter, retryWithBackoff } from '../../retry';

export interface RetryOptions {
  /** Attempts in all (default 5). */
  attempts?: number;
  /** First delay in ms (default 500), doubled per attempt, capped at maxDelayMs (default 20 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
  /** Classifies an error; default: retryableError. */
  retryable?: (err: unknown) => boolean;
  onRetry?: (err: unknown, attempt: number, delayMs: number) => void;
}

const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/** The HTTP status an SDK error carries, under any of the names clients use. */
export function statusOf(err: unknown): number | undefined {
  const e = err as Record<string, any> | undefined;
  const s = e?.status ?? e?.statusCode ?? e?.$metadata?.httpStatusCode ?? e?.response?.status ?? e?.meta?.statusCode ?? e?.code;
  return typeof s === 'number' && s >= 100 && s < 600 ? s : undefined;
}

export function retryableError(err: unknown): boolean {
  const status = statusOf(err);
  if (status !== undefined) return status === 429 || status === 408 || status >= 500;
  const code = (err as { code?: unknown; cause?: { code?: unknown } })?.code ?? (err as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === 'string' && TRANSIENT_CODES.has(code);
}

/** Retry-After (seconds or an HTTP date) from an error's response headers, in ms. */
export function retryAfterMs(err: unknown): number | undefined {
  const e = err as Record<string, any> | undefined;
  return parseRetryAfter(e?.headers ?? e?.response?.headers ?? e?.meta?.headers ?? e?.$response?.headers);
}

/** A store call under the shared back-off (../../retry.ts) with the store defaults: 5 attempts, 500 ms doubling, 20 s cap. */
export async function withRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  return retryWithBackoff(fn, {
    attempts: opts.attempts ?? 5,
    baseDelayMs: opts.baseDelayMs ?? 500,
    maxDelayMs: opts.maxDelayMs ?? 20_000,
    signal: opts.signal,
    retryable: opts.retryable ?? retryableError,
    retryAfterMs,
    onRetry: opts.onRetry,
  });
}
