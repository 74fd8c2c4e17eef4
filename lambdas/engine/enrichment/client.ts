// What a provider adapter implements: one request (instruction, optional image) in, the model's
// text out, plus how to read its errors (status, retryable, server-suggested delay).
import type { ErrorInfo } from '../embedding/runner';
import type { ModelRequest } from './prompts';

export type { ErrorInfo };

export interface ModelClient {
  /** provider/model, for messages (never a secret). */
  label: string;
  complete(req: ModelRequest): Promise<string>;
  classify(err: unknown): ErrorInfo;
}

/** The model declined to answer (a refusal or a content filter): final for that element, not retried. */
export class RefusalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusalError';
  }
}

/** Decoded size of a base64 string, without decoding it. */
export function base64Bytes(b64: string): number {
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.floor((b64.length * 3) / 4) - pad;
}
