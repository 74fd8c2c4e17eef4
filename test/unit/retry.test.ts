// The one back-off (lambdas/retry.ts) and the one limiter (lambdas/concurrency.ts): Retry-After in
// both forms, jitter bounds, the cap, attempts, abort, and bounded concurrency keeping order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelay, parseRetryAfter, retryWithBackoff } from '../../lambdas/retry';
import { forEachLimited, mapLimited } from '../../lambdas/concurrency';

const fail = (status: number, headers?: Record<string, string>) => Object.assign(new Error(`HTTP ${status}`), { status, headers });
const quick = { attempts: 4, baseDelayMs: 1, maxDelayMs: 5, retryable: (e: unknown) => (e as { status?: number }).status === 429 };

test('Retry-After in seconds, as an HTTP date, and retry-after-ms', () => {
  assert.equal(parseRetryAfter({ 'retry-after': '3' }), 3000);
  assert.equal(parseRetryAfter({ 'Retry-After': '1.5' }), 1500);
  assert.equal(parseRetryAfter(new Headers({ 'retry-after': '2' })), 2000);
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }, now), 7000);
  assert.equal(parseRetryAfter({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, now), 0, 'a date in the past means now');
  assert.equal(parseRetryAfter({ 'retry-after-ms': '250', 'retry-after': '9' }), 250, 'the ms form wins');
  assert.equal(parseRetryAfter({ 'retry-after': '-4' }), 0);
  assert.equal(parseRetryAfter({ 'retry-after': 'soon' }), undefined);
  assert.equal(parseRetryAfter({ 'retry-after': '' }), undefined);
  assert.equal(parseRetryAfter({}), undefined);
  assert.equal(parseRetryAfter(undefined), undefined);
});

test('equal jitter: half the step fixed, half random; doubling per retry; the cap bounds it and any hint', () => {
  const o = { baseDelayMs: 100, maxDelayMs: 1000 };
  assert.equal(backoffDelay(1, o, undefined, () => 0), 50);
  assert.equal(backoffDelay(1, o, undefined, () => 0.999999), 99.99995);
  assert.equal(backoffDelay(3, o, undefined, () => 0), 200);
  for (let i = 0; i < 200; i++) {
    const d = backoffDelay(2, o);
    assert.ok(d >= 100 && d <= 200, `retry 2 waits within [100, 200] ms, got ${d}`);
  }
  assert.equal(backoffDelay(8, o, undefined, () => 1), 1000, 'capped');
  assert.equal(backoffDelay(1, o, 30_000), 1000, 'a Retry-After beyond the cap is capped');
  assert.equal(backoffDelay(1, o, 7), 7, 'a Retry-After wins over the back-off');
});

test('retries retryable failures up to the attempts, then throws the last error as is', async () => {
  let calls = 0;
  const delays: number[] = [];
  const err = await retryWithBackoff(async () => { calls++; throw fail(429); }, { ...quick, onRetry: (_e, _n, d) => delays.push(d) }).catch((e: unknown) => e);
  assert.equal(calls, 4);
  assert.equal(delays.length, 3);
  assert.ok(delays.every((d) => d <= 5));
  assert.equal((err as { status: number }).status, 429);
  let once = 0;
  assert.equal(await retryWithBackoff(async () => (once++ ? 'ok' : Promise.reject(fail(429))), quick), 'ok');
});

test('a final error is thrown at once', async () => {
  let calls = 0;
  await assert.rejects(retryWithBackoff(async () => { calls++; throw fail(400); }, quick), /HTTP 400/);
  assert.equal(calls, 1);
});

test('the Retry-After hint is the wait, capped', async () => {
  const delays: number[] = [];
  await retryWithBackoff(async () => { if (delays.length < 2) throw fail(429, { 'retry-after': delays.length ? '0.002' : '60' }); }, {
    ...quick,
    retryAfterMs: (e) => parseRetryAfter((e as { headers?: Record<string, string> }).headers),
    onRetry: (_e, _n, d) => delays.push(d),
  });
  assert.deepEqual(delays, [5, 2]);
});

test('an abort stops the wait and any further attempt', async () => {
  const ac = new AbortController();
  let calls = 0;
  const started = Date.now();
  const run = retryWithBackoff(async () => { calls++; throw fail(429); }, { ...quick, baseDelayMs: 10_000, maxDelayMs: 10_000, signal: ac.signal });
  setTimeout(() => ac.abort(new Error('stopped')), 20);
  await assert.rejects(run, /stopped/);
  assert.equal(calls, 1);
  assert.ok(Date.now() - started < 5000, 'did not sit out the back-off');
  const aborted = AbortSignal.abort(new Error('already'));
  await assert.rejects(retryWithBackoff(async () => { calls++; }, { ...quick, signal: aborted }), /already/);
  assert.equal(calls, 1, 'an aborted signal runs nothing');
});

test('bounded concurrency: never more than the limit in flight, results in order, first error stops new starts', async () => {
  let inFlight = 0;
  let peak = 0;
  const out = await mapLimited([5, 1, 4, 2, 3, 0, 6], 3, async (n, i) => {
    peak = Math.max(peak, ++inFlight);
    await new Promise((r) => setTimeout(r, n));
    inFlight--;
    return n * 10 + i;
  });
  assert.equal(peak, 3);
  assert.deepEqual(out, [50, 11, 42, 23, 34, 5, 66]);
  const started: number[] = [];
  await assert.rejects(forEachLimited([0, 1, 2, 3, 4, 5], 2, async (n) => { started.push(n); if (n === 1) throw new Error('boom'); await new Promise((r) => setTimeout(r, 5)); }), /boom/);
  assert.ok(started.length < 6, `no new starts after the first error (started ${started})`);
});
