// Issue 31: a refused request (4xx) is logged with its status and reason, a 422 with each item's place
// and message but never the value that was sent (it may be a secret).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorResponse } from '../../../lambdas/http/errors';
import { NotFound, RateLimited, ValidationError } from '../../../lambdas/errors';

function logged(fn: () => void): Record<string, unknown>[] {
  const saved = process.env.LOG_LEVEL;
  const write = process.stdout.write.bind(process.stdout);
  const lines: Record<string, unknown>[] = [];
  process.env.LOG_LEVEL = 'info';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    for (const l of String(chunk).split('\n')) if (l.startsWith('{')) lines.push(JSON.parse(l) as Record<string, unknown>);
    return true;
  }) as typeof process.stdout.write;
  try {
    fn();
  } finally {
    process.stdout.write = write;
    if (saved === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = saved;
  }
  return lines;
}

test('a 4xx answer is logged with its status and message; a 422 with the field and message, not the value', () => {
  const ctx = { method: 'POST', path: '/api/v1/sources/' };
  const [nf] = logged(() => errorResponse(new NotFound('Source 123 not found'), ctx));
  assert.deepEqual({ msg: nf!.msg, status: nf!.status, reason: nf!.reason, path: nf!.path }, { msg: 'request refused', status: 404, reason: 'Source 123 not found', path: '/api/v1/sources/' });
  const [bad] = logged(() => errorResponse(ValidationError.single(['body', 'config', 'password'], 'String should have at most 100 characters', 'string_too_long', 'hunter2-secret-value'), ctx));
  assert.equal(bad!.status, 422);
  assert.equal(bad!.reason, 'body.config.password: String should have at most 100 characters');
  assert.doesNotMatch(JSON.stringify(bad), /hunter2/);
  const [rate] = logged(() => errorResponse(new RateLimited('Jobs must be launched at least 1 second apart; retry shortly.', 1), ctx));
  assert.equal(rate!.status, 429);
});
