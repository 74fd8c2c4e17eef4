// How the official `openai` client's errors read to the retrying runners (embedding and enrichment).
import { APIError } from 'openai';
import { isRetryableStatus, retryAfterMs, type ErrorInfo } from '../embedding/runner';

export function classifyOpenAIError(err: unknown): ErrorInfo {
  if (err instanceof APIError) {
    const status = err.status as number | undefined;
    return {
      status,
      retryable: isRetryableStatus(status),
      retryAfterMs: retryAfterMs(err.headers as Headers | undefined),
      message: (err.error as { message?: string } | undefined)?.message ?? err.constructor.name,
    };
  }
  return { retryable: false, message: err instanceof Error ? err.message : String(err) };
}
