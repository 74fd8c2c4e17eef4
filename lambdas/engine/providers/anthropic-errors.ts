// The official `@anthropic-ai/sdk` client's errors, as the enrichment runner and the VLM partitioner read them.
import { APIError } from '@anthropic-ai/sdk';
import type { ErrorInfo } from '../embedding/runner';
import { classifySdkError, type SdkApiError } from './sdk-errors';

export const classifyAnthropicError = (err: unknown): ErrorInfo =>
  classifySdkError(err, (e): e is SdkApiError => e instanceof APIError, (body) => body?.error?.message);
