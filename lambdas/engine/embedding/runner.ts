// Request shaping shared by the hosted providers: input truncation to the provider limit (with one
// warning per call), batching, a concurrency cap, and retry with exponential back-off and jitter on
// 429 and 5xx (and network errors), honouring Retry-After. Errors that reach the caller carry the
// provider status but never request headers or credentials.
import { forEachLimited } from '../../concurrency';
import { policyReason } from '../../net/outbound';
import { retryWithBackoff } from '../../retry';
import type { Embedder } from './types';

export interface RunnerOptions {
  batchSize: number;
  concurrency: number;
  maxRetries: number;
  retryBaseMs: number;
  maxInputChars: number;
  label: string;
  onWarning: (message: string) => void;
}

/** Classifies a provider error: status (if any), whether to retry, and a server-suggested delay. */
export interface ErrorInfo {
  status?: number;
  retryable: boolean;
  retryAfterMs?: number;
  message: string;
}

export class EmbeddingProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EmbeddingProviderError';
  }
}

export function isRetryableStatus(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 429 || status >= 500;
}

/** Truncates inputs over the limit (never mid surrogate pair) and warns once with the count. */
export function truncateInputs(texts: string[], o: Pick<RunnerOptions, 'maxInputChars' | 'label' | 'onWarning'>): string[] {
  let n = 0;
  const out = texts.map((t) => {
    if (t.length <= o.maxInputChars) return t;
    n += 1;
    let cut = o.maxInputChars;
    const c = t.charCodeAt(cut);
    if (c >= 0xdc00 && c <= 0xdfff) cut -= 1;
    return t.slice(0, cut);
  });
  if (n) o.onWarning(`${o.label}: ${n} input(s) longer than ${o.maxInputChars} characters were truncated`);
  return out;
}

/**
 * Embeds `texts` through `call` (one provider request per batch), at most `concurrency` requests in
 * flight, retrying retryable failures up to `maxRetries` times.
 */
export async function runBatched(
  texts: string[],
  o: RunnerOptions,
  call: (batch: string[]) => Promise<number[][]>,
  classify: (err: unknown) => ErrorInfo,
): Promise<number[][]> {
  const inputs = truncateInputs(texts, o);
  const batches: [number, string[]][] = [];
  for (let i = 0; i < inputs.length; i += o.batchSize) batches.push([i, inputs.slice(i, i + o.batchSize)]);
  const out = new Array<number[]>(inputs.length);
  await forEachLimited(batches, o.concurrency, async ([start, batch]) => {
    const vecs = await withRetry(() => call(batch), o, classify);
    if (vecs.length !== batch.length) {
      throw new EmbeddingProviderError(`${o.label}: provider returned ${vecs.length} embeddings for ${batch.length} inputs`);
    }
    for (let k = 0; k < vecs.length; k++) out[start + k] = vecs[k]!;
  });
  return out;
}

/** One provider call under the shared back-off: `maxRetries` retries after the first, waits capped at 60 s. */
async function withRetry<T>(fn: () => Promise<T>, o: RunnerOptions, classify: (err: unknown) => ErrorInfo): Promise<T> {
  try {
    return await retryWithBackoff(fn, {
      attempts: o.maxRetries + 1,
      baseDelayMs: o.retryBaseMs,
      maxDelayMs: 60_000,
      retryable: (err) => !policyReason(err) && classify(err).retryable,
      retryAfterMs: (err) => classify(err).retryAfterMs,
    });
  } catch (err) {
    // A connection the outbound policy refused is final, and its reason is the useful message.
    const refused = policyReason(err);
    if (refused) throw new EmbeddingProviderError(`${o.label}: ${refused}`);
    const info = classify(err);
    throw new EmbeddingProviderError(`${o.label}: ${info.message}${info.status ? ` (HTTP ${info.status})` : ''}`, info.status);
  }
}

/**
 * A hosted model's embedder (`what`: provider, model and output size): texts go out in batches by
 * `call` through runBatched, its errors judged by `classify`.
 */
export function batchedEmbedder(
  what: Pick<Embedder, 'provider' | 'model' | 'dimensions'>,
  o: RunnerOptions,
  call: (batch: string[]) => Promise<number[][]>,
  classify: (err: unknown) => ErrorInfo,
): Embedder {
  return { ...what, embedTexts: (texts) => runBatched(texts, o, call, classify) };
}
