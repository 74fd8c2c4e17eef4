// Messages between the partition sandbox's pool (sandbox.ts) and its processes (sandbox-worker.ts),
// and the typed errors carried across the thread boundary.
import * as errors from '../../errors';
import { DomainError } from '../../errors';
import type { FileType, PartitionExtras, PartitionOptions } from './types';

export interface SandboxRequest {
  id: number;
  data: Uint8Array;
  filename: string;
  contentType?: string;
  options?: Partial<PartitionOptions>;
  extras: PartitionExtras;
  /** The caller's environment now (settings and provider keys may change after the child started). */
  env: Record<string, string | undefined>;
  /** The caller's log context (job_id, file_id): the child's lines carry it too. */
  log?: Record<string, unknown>;
  /** The caller follows the pages read: the child sends progress messages (at most one a PROGRESS_EVERY_MS). */
  progress?: boolean;
}

/** The least time between two progress messages of one document (the last page's is always sent). */
export const PROGRESS_EVERY_MS = 500;

export interface SerializedError {
  name: string;
  message: string;
  issues?: errors.ValidationIssue[];
  retryAfterSeconds?: number;
}

export type SandboxReply =
  | { ready: true }
  | { id: number; ok: true; json: Uint8Array; warnings: string[]; filetype: FileType; pageCount?: number }
  | { id: number; ok: false; error: SerializedError }
  | { id: number; progress: [pagesDone: number, pagesTotal: number] };

/**
 * The error as data. The class goes by its export name in lambdas/errors.ts, not `err.name`: in a
 * minified bundle a class's own name is a minifier's, while a namespace's keys keep the export names.
 */
export function serializeError(err: unknown): SerializedError {
  const e = err instanceof Error ? err : new Error(String(err));
  const exported = e instanceof DomainError ? Object.entries(errors).find(([, v]) => v === e.constructor)?.[0] : undefined;
  return {
    name: exported ?? 'Error',
    message: e.message,
    ...(e instanceof errors.ValidationError ? { issues: e.issues } : {}),
    ...(e instanceof errors.RateLimited ? { retryAfterSeconds: e.retryAfterSeconds } : {}),
  };
}

/** The typed error again on this side (a DomainError subclass by name; anything else a plain Error). */
export function deserializeError(s: SerializedError): Error {
  if (s.name === 'ValidationError') return new errors.ValidationError(s.issues ?? []);
  if (s.name === 'RateLimited') return new errors.RateLimited(s.message, s.retryAfterSeconds);
  const ctor = (errors as Record<string, unknown>)[s.name];
  if (typeof ctor === 'function' && ctor.prototype instanceof DomainError) return new (ctor as new (m: string) => DomainError)(s.message);
  return new Error(s.message);
}

