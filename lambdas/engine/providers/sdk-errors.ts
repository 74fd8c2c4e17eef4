// How the official `openai` and `@anthropic-ai/sdk` clients' errors read to the callers (the
// retrying runners of embedding and enrichment, the VLM partitioner). Both clients throw an APIError
// class of their own carrying status, headers and the parsed error body; the text sits at a
// different path in each body. Anthropic's 529 (overloaded) is retryable like a 5xx. No SDK is
// imported here: each client's own file (openai-errors.ts, anthropic-errors.ts) names its class.
import { parseRetryAfter, type HeaderSource } from '../../retry';
import { isRetryableStatus, type ErrorInfo } from '../embedding/runner';

export interface SdkApiError extends Error {
  status?: unknown;
  headers?: unknown;
  error?: unknown;
}

export function classifySdkError(err: unknown, isApiError: (e: unknown) => e is SdkApiError, messageOf: (body: any) => unknown): ErrorInfo { // eslint-disable-line @typescript-eslint/no-explicit-any
  if (isApiError(err)) {
    const status = err.status as number | undefined;
    const message = messageOf(err.error);
    const cause = (err.cause as Error | undefined)?.message;
    return {
      status,
      retryable: isRetryableStatus(status),
      retryAfterMs: parseRetryAfter(err.headers as HeaderSource | undefined),
      message: typeof message === 'string' ? message : cause ? `${err.constructor.name}: ${cause}` : err.constructor.name,
    };
  }
  return { retryable: false, message: err instanceof Error ? err.message : String(err) };
}
