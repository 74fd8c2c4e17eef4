// Issue 28: every account has limits (one tenant made 150 workflows, 200 connectors and 200 uploads in
// seconds). Lowered here so the test stays small; each is exact under concurrent requests, another
// account is not held by them, and a delete gives the room back.
process.env.ACCOUNT_MAX_CONNECTORS = '5';
process.env.ACCOUNT_MAX_WORKFLOWS = '4';
process.env.ACCOUNT_MAX_UPLOADS = '3';
process.env.ACCOUNT_CHECKS_PER_MINUTE = '6';

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL, eventually } from '../support/local-stack';
import { keyedStack, type Tenants } from './helpers';

let t: Tenants;
before(async () => {
  if (!NEEDS_LOCAL) t = await keyedStack();
});
after(async () => t?.stack.close());

const local = (name: string) => ({ name, type: 'local', config: { remote_url: 'inbox' } });

test('connectors: exactly the limit under 12 concurrent creates (409 naming it), sources and destinations together', { skip: NEEDS_LOCAL }, async () => {
  const route = (i: number) => (i % 2 ? 'sources' : 'destinations');
  const made = await Promise.all(Array.from({ length: 12 }, (_, i) => t.stack.call('POST', `/api/v1/${route(i)}/`, { ...t.asB, body: local(`c${i}`) })));
  const ok = made.filter((r) => r.status === 200);
  assert.equal(ok.length, 5, made.map((r) => r.status).join(','));
  const refused = made.find((r) => r.status === 409)!;
  assert.match(refused.body.detail, /At most 5 sources and destinations per account/);
  assert.equal((await t.stack.call('POST', '/api/v1/sources/', { ...t.asA, body: local('a') })).status, 200, "another account is not held by B's");
  const first = made.findIndex((r) => r.status === 200);
  assert.equal((await t.stack.call('DELETE', `/api/v1/${route(first)}/${made[first]!.body.id}`, t.asB)).status, 200);
  assert.equal((await t.stack.call('POST', '/api/v1/sources/', { ...t.asB, body: local('after-delete') })).status, 200, 'a delete gives the room back');
});

test('workflows: the limit counts live workflows; a soft delete frees one', { skip: NEEDS_LOCAL }, async () => {
  const made = await Promise.all(Array.from({ length: 8 }, (_, i) => t.stack.call('POST', '/api/v1/workflows/', { ...t.asB, body: { name: `w${i}`, workflow_type: 'basic' } })));
  const ok = made.filter((r) => r.status === 200);
  assert.equal(ok.length, 4, made.map((r) => r.status).join(','));
  assert.match(made.find((r) => r.status === 409)!.body.detail, /At most 4 workflows per account/);
  assert.equal((await t.stack.call('DELETE', `/api/v1/workflows/${ok[0]!.body.id}`, t.asB)).status, 200);
  assert.equal((await t.stack.call('POST', '/api/v1/workflows/', { ...t.asB, body: { name: 'again', workflow_type: 'basic' } })).status, 200);
});

test('uploads: at most the limit outstanding, per account', { skip: NEEDS_LOCAL }, async () => {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await t.stack.call('POST', '/api/v1/uploads/', { ...t.asB, body: { filename: `u${i}.txt`, size: 5 } });
    assert.equal(r.status, 201, r.text);
    ids.push(r.body.id);
  }
  const over = await t.stack.call('POST', '/api/v1/uploads/', { ...t.asB, body: { filename: 'u3.txt', size: 5 } });
  assert.equal(over.status, 409, over.text);
  assert.match(over.body.detail, /At most 3 uploads outstanding per account/);
  assert.equal((await t.stack.call('POST', '/api/v1/uploads/', { ...t.asA, body: { filename: 'a.txt', size: 5 } })).status, 201);
});

test('connection checks: at most the per-minute rate, then a 429 with Retry-After', { skip: NEEDS_LOCAL }, async () => {
  const src = await t.stack.call('POST', '/api/v1/sources/', { ...t.asA, body: local('checked') });
  assert.equal(src.status, 200, src.text);
  // -- 13 asks cross at most one minute boundary: one of the two minutes gets 7 and refuses one --
  const statuses: number[] = [];
  let retryAfter = 0;
  // -- each ask waits for the check before it to finish: an ask while one is queued answers that one --
  for (let i = 0; i < 13; i++) {
    const r = await t.stack.call('POST', `/api/v1/sources/${src.body.id}/connection-check`, t.asA);
    statuses.push(r.status);
    if (r.status === 429) {
      assert.match(r.body.detail, /At most 6 connection checks a minute per account/);
      retryAfter = Number(r.headers.get('retry-after'));
    } else {
      await eventually(async () => ((await t.stack.call('GET', `/api/v1/sources/${src.body.id}/connection-check`, t.asA)).body.status !== 'SCHEDULED' ? true : undefined), 'the check', 30_000);
    }
  }
  assert.ok(statuses.includes(429), statuses.join(','));
  assert.ok(statuses.filter((s) => s === 202).length >= 6, statuses.join(','));
  assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
});
