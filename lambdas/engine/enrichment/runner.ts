// Runs one request per element through a model client (the callers keep at most `concurrency` in
// flight with mapLimited, ../../concurrency.ts, so 100 images at 8 in flight take ~13 round trips),
// each retried on 429/5xx/network errors up to `maxRetries` times by the shared back-off
// (../../retry.ts: Retry-After honoured, else exponential back-off with jitter, capped at 60 s).
// Failures are per element: the caller keeps that element's text.
import { policyReason } from '../../net/outbound';
import { retryWithBackoff } from '../../retry';
import { RefusalError, type ModelClient } from './client';

export interface CallOptions {
  concurrency: number;
  maxRetries: number;
  retryBaseMs: number;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string; status?: number; final: boolean };

/** One call with bounded retries (the shared back-off, waits capped at 60 s); never throws (the outcome says why it failed). */
export async function callWithRetry(client: ModelClient, fn: () => Promise<string>, o: CallOptions): Promise<Outcome<string>> {
  try {
    const value = await retryWithBackoff(fn, {
      attempts: o.maxRetries + 1,
      baseDelayMs: o.retryBaseMs,
      maxDelayMs: 60_000,
      retryable: (err) => !(err instanceof RefusalError) && !policyReason(err) && client.classify(err).retryable,
      retryAfterMs: (err) => client.classify(err).retryAfterMs,
    });
    return { ok: true, value };
  } catch (err) {
    if (err instanceof RefusalError) return { ok: false, reason: `${client.label}: ${err.message}`, final: false };
    // a connection the outbound policy refused is final, and its reason is the useful message
    const refused = policyReason(err);
    if (refused) return { ok: false, reason: `${client.label}: ${refused}`, final: true };
    const info = client.classify(err);
    // a retryable error that still reached here ran out of attempts
    const tried = info.retryable ? ` after ${o.maxRetries + 1} attempts` : '';
    // an error status other than throttling/5xx is the provider refusing the call (key, model, quota)
    return { ok: false, reason: `${client.label}: ${info.message}${info.status ? ` (HTTP ${info.status})` : ''}${tried}`, status: info.status, final: !info.retryable && info.status !== undefined };
  }
}
