// Revocation on warm Lambdas (README: a revoked key stops working within 30 s everywhere): two
// independent AuthService instances over the same real table (dynalite) stand for two warm
// processes. The revoking one refuses the key at once; the other, which had the key cached, accepts it
// until its cache entry expires (AUTH_CACHE_MS), then refuses it. A manual clock moves time.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AUTH_CACHE_MS, AuthService } from '../../lambdas/domain/auth';
import { Unauthorized } from '../../lambdas/errors';
import { startTestTable } from '../support/dynamo';

let table: Awaited<ReturnType<typeof startTestTable>>;
before(async () => {
  table = await startTestTable('wps-auth-revoke');
});
after(async () => {
  await table?.stop();
});

test('a key revoked by one process stops working on another warm process once its cache entry expires (30 s)', async () => {
  let now = Date.parse('2026-11-25T12:00:00Z');
  const clock = { now: () => new Date(now) };
  const defaults = { accountId: 'd', userId: 'd' };
  const api = new AuthService(table.store, 'keyed', defaults, clock); // the process that revokes
  const worker = new AuthService(table.store, 'keyed', defaults, clock); // another warm Lambda
  const { keyId, key } = await api.createKey('acct-r', 'user-r', 'ci');
  assert.equal((await worker.authenticate(key)).accountId, 'acct-r', 'the warm process has seen (and cached) the key');
  assert.equal((await api.authenticate(key)).keyId, keyId);

  now += 1000;
  await api.revokeKey('acct-r', keyId);
  await assert.rejects(api.authenticate(key), Unauthorized, 'the revoking process refuses it at once');

  now += AUTH_CACHE_MS - 1000 - 1; // still inside the window of the worker's cache entry
  assert.equal((await worker.authenticate(key)).accountId, 'acct-r', 'documented window: the other process may still accept it');
  now += 2; // past it
  await assert.rejects(worker.authenticate(key), (e: Error) => e instanceof Unauthorized && /invalid/.test(e.message), 'the other process refuses it once its cache expired');
  assert.equal(AUTH_CACHE_MS, 30_000, 'the README promises 30 s');
});
