// The one retry with back-off for outbound calls (model providers, connector stores): a failed call
// the caller's classifier calls retryable is tried again after an "equal jitter" back-off (half of
// base·2^(n-1) fixed, half random, so a few attempts always span some seconds rather than a few
// milliseconds inside one busy spell), or after what the server's Retry-After says; either delay is
// capped at maxDelayMs. An abort signal stops the wait and any further attempt. The callers keep
// their own figures (attempts, base, cap) and their own idea of which errors are retryable.

/** Response headers as clients expose them: a fetch Headers or a plain record. */
export type HeaderSource = { get(name: string): string | null | undefined } | Record<string, unknown>;

function header(headers: HeaderSource, name: string): string | undefined {
  const raw = typeof headers.get === 'function'
    ? (headers as { get(name: string): string | null | undefined }).get(name)
    : (headers as Record<string, unknown>)[name] ?? (headers as Record<string, unknown>)[name.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase())];
  return raw === undefined || raw === null || raw === '' ? undefined : String(raw);
}

/** A server's suggested wait in ms: `retry-after-ms`, else `Retry-After` in seconds or as an HTTP date. */
export function parseRetryAfter(headers: HeaderSource | null | undefined, now = Date.now()): number | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const v = header(headers, 'retry-after');
  if (v === undefined) return undefined;
  const secs = Number(v);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** The wait before retry number `retry` (1 = after the first failure): the hint if given, else equal jitter; capped. */
export function backoffDelay(retry: number, o: { baseDelayMs: number; maxDelayMs: number }, hintedMs?: number, random = Math.random): number {
  const step = o.baseDelayMs * 2 ** (retry - 1);
  return Math.min(o.maxDelayMs, hintedMs ?? step / 2 + (random() * step) / 2);
}

export interface BackoffOptions {
  /** Attempts in all, the first included. */
  attempts: number;
  /** First back-off in ms, doubled per retry. */
  baseDelayMs: number;
  /** Cap on any wait, Retry-After included. */
  maxDelayMs: number;
  signal?: AbortSignal;
  /** Whether a failure is worth another attempt. */
  retryable: (err: unknown) => boolean;
  /** The server's suggested wait for a failure, in ms (Retry-After). */
  retryAfterMs?: (err: unknown) => number | undefined;
  onRetry?: (err: unknown, attempt: number, delayMs: number) => void;
}

/** Runs fn until it succeeds, fails with a final error, or runs out of attempts; the last error is thrown as is. */
export async function retryWithBackoff<T>(fn: () => Promise<T>, o: BackoffOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    o.signal?.throwIfAborted();
    try {
      return await fn();
    } catch (err) {
      if (attempt >= o.attempts || !o.retryable(err)) throw err;
      const delay = backoffDelay(attempt, o, o.retryAfterMs?.(err));
      o.onRetry?.(err, attempt, delay);
      await sleep(delay, o.signal);
    }
  }
}

/** Waits ms, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
