// The one place where errors become HTTP responses. Domain errors carry their status; anything
// else is logged with its stack and answered 500 without internals.
import { DomainError, RateLimited, ValidationError } from '../errors';
import { errorFields, log } from '../logger';
import { withoutServerPaths } from '../domain/server-paths';
import type { HttpResponse } from './response';
import { json } from './response';

/** A refusal's reason in the log: the message (or each 422 item's place and message, never the value sent), bounded. */
const reasonOf = (text: string) => withoutServerPaths(text).slice(0, 300);

export function errorResponse(err: unknown, context: Record<string, unknown> = {}): HttpResponse {
  // -- messages a tenant reads carry no server path (domain/server-paths.ts) --
  if (err instanceof ValidationError) {
    log.info('request refused', { ...context, status: 422, reason: reasonOf(err.issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ')) });
    return json(422, { detail: err.issues.map((i) => ({ ...i, msg: withoutServerPaths(i.msg) })) });
  }
  if (err instanceof RateLimited) {
    log.info('request refused', { ...context, status: 429, reason: reasonOf(err.message) });
    const res = json(429, { detail: err.message });
    res.headers['retry-after'] = String(err.retryAfterSeconds);
    return res;
  }
  if (err instanceof DomainError) {
    if (err.status >= 500) log.warn('request failed', { ...context, status: err.status, ...errorFields(err) });
    else log.info('request refused', { ...context, status: err.status, reason: reasonOf(err.message) });
    return json(err.status, { detail: withoutServerPaths(err.message) });
  }
  log.error('unhandled error', { ...context, ...errorFields(err) });
  return json(500, { detail: 'Internal server error' });
}
