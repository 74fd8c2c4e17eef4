// Runs one request per element through a model client: at most `concurrency` requests in flight
// (a queue, so 100 images at 8 in flight take ~13 round trips), each retried on 429/5xx/network
// errors up to `maxRetries` times, waiting what Retry-After says (else exponential back-off with
// jitter, capped at 60 s). Failures are per element: the caller keeps that element's text.
import { policyReason } from '../../net/outbound';
import { RefusalError, type ModelClient } from './client';

export interface CallOptions {
  concurrency: number;
  maxRetries: number;
  retryBaseMs: number;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string; status?: number; final: boolean };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One call with bounded retries; never throws (the outcome says why it failed). */
export async function callWithRetry(client: ModelClient, fn: () => Promise<string>, o: CallOptions): Promise<Outcome<string>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return { ok: true, value: await fn() };
    } catch (err) {
      if (err instanceof RefusalError) return { ok: false, reason: `${client.label}: ${err.message}`, final: false };
      // a connection the outbound policy refused is final, and its reason is the useful message
      const refused = policyReason(err);
      if (refused) return { ok: false, reason: `${client.label}: ${refused}`, final: true };
      const info = client.classify(err);
      if (!info.retryable || attempt >= o.maxRetries) {
        const tried = info.retryable ? ` after ${attempt + 1} attempts` : '';
        // an error status other than throttling/5xx is the provider refusing the call (key, model, quota)
        return { ok: false, reason: `${client.label}: ${info.message}${info.status ? ` (HTTP ${info.status})` : ''}${tried}`, status: info.status, final: !info.retryable && info.status !== undefined };
      }
      const backoff = o.retryBaseMs * 2 ** attempt;
      await sleep(Math.min(info.retryAfterMs ?? backoff / 2 + Math.random() * (backoff / 2), 60_000));
    }
  }
}

/** Maps `items` through `work` with at most `concurrency` in flight, keeping order. */
export async function mapBounded<T, R>(items: T[], concurrency: number, work: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return out;
}
