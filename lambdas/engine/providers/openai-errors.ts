// The official `openai` client's errors, as the runners and the VLM partitioner read them.
import { APIError } from 'openai';
import type { ErrorInfo } from '../embedding/runner';
import { classifySdkError, type SdkApiError } from './sdk-errors';

export const classifyOpenAIError = (err: unknown): ErrorInfo =>
  classifySdkError(err, (e): e is SdkApiError => e instanceof APIError, (body) => body?.message);
