// Retries for store calls: throttling (429) and server errors (5xx), plus transient network
// errors, with exponential back-off and full jitter, honouring Retry-After when the store sends it.
// Anything else (a record the store rejects, bad credentials) is final at once.

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
  const h = e?.headers ?? e?.response?.headers ?? e?.meta?.headers ?? e?.$response?.headers;
  const raw = typeof h?.get === 'function' ? h.get('retry-after') : h?.['retry-after'] ?? h?.['Retry-After'];
  if (raw === undefined || raw === null) return undefined;
  const secs = Number(raw);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(String(raw));
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

export async function withRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const attempts = opts.attempts ?? 5;
  const base = opts.baseDelayMs ?? 500;
  const cap = opts.maxDelayMs ?? 20_000;
  const retryable = opts.retryable ?? retryableError;
  for (let attempt = 1; ; attempt++) {
    opts.signal?.throwIfAborted();
    try {
      return await fn();
    } catch (err) {
      if (attempt >= attempts || !retryable(err)) throw err;
      const hinted = retryAfterMs(err);
      // -- "equal jitter": half the back-off fixed, half random, so five attempts always span a few
      // -- seconds (full jitter could spend them all in a few milliseconds, inside one busy spell) --
      const step = base * 2 ** (attempt - 1);
      const delay = Math.min(cap, hinted ?? step / 2 + (Math.random() * step) / 2);
      opts.onRetry?.(err, attempt, delay);
      await sleep(delay, opts.signal);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
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
