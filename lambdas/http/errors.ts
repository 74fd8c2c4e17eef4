// The one place where errors become HTTP responses. Domain errors carry their status; anything
// else is logged with its stack and answered 500 without internals.
import { DomainError, RateLimited, ValidationError } from '../errors';
import { errorFields, log } from '../logger';
import { withoutServerPaths } from '../domain/server-paths';
import type { HttpResponse } from './response';
import { json } from './response';

/** A refusal's reason in the log: the message (or each 422 item's place and message, never the value sent), bounded. */
const reasonOf = (text: string) => withoutServerPaths(text).slice(0, 300);

/** What a client reads of an error: its status and `detail` (the REST body; MCP tool errors carry the same). */
export interface ErrorPayload {
  status: number;
  detail: unknown;
  retryAfterSeconds?: number;
}

/** The status and body of an error, logged once as a refusal or a failure. */
export function errorPayload(err: unknown, context: Record<string, unknown> = {}): ErrorPayload {
  // -- messages a tenant reads carry no server path (domain/server-paths.ts) --
  if (err instanceof ValidationError) {
    log.info('request refused', { ...context, status: 422, reason: reasonOf(err.issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ')) });
    return { status: 422, detail: err.issues.map((i) => ({ ...i, msg: withoutServerPaths(i.msg) })) };
  }
  if (err instanceof RateLimited) {
    log.info('request refused', { ...context, status: 429, reason: reasonOf(err.message) });
    return { status: 429, detail: err.message, retryAfterSeconds: err.retryAfterSeconds };
  }
  if (err instanceof DomainError) {
    if (err.status >= 500) log.warn('request failed', { ...context, status: err.status, ...errorFields(err) });
    else log.info('request refused', { ...context, status: err.status, reason: reasonOf(err.message) });
    return { status: err.status, detail: withoutServerPaths(err.message) };
  }
  log.error('unhandled error', { ...context, ...errorFields(err) });
  return { status: 500, detail: 'Internal server error' };
}

export function errorResponse(err: unknown, context: Record<string, unknown> = {}): HttpResponse {
  const p = errorPayload(err, context);
  const res = json(p.status, { detail: p.detail });
  if (p.retryAfterSeconds !== undefined) res.headers['retry-after'] = String(p.retryAfterSeconds);
  return res;
}
