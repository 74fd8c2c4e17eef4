// Issue 28: e-mail channels were a relay: every create, recipient change and exhausted code mailed
// any address (153 mails in seconds). Verification mails now have an hourly allowance per account and
// per recipient (defaults 20 and 5); beyond either the request is a 429 naming the limit, and nothing
// is sent or kept.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL } from '../support/local-stack';
import { keyedStack, type Tenants } from './helpers';

let t: Tenants;
const ACCT = '/api/v1/notifications/channels';
const email = (to: string) => ({ channel_type: 'email', email_config: { recipient_email: to }, event_types: ['job.completed'] });

before(async () => {
  if (!NEEDS_LOCAL) t = await keyedStack();
});
after(async () => t?.stack.close());

test('one address gets at most 5 verification mails an hour, whoever asks', { skip: NEEDS_LOCAL }, async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await t.stack.call('POST', ACCT, { ...t.asA, body: email('victim@example.com') })).status);
  // -- the fifth from another account counts against the same address --
  statuses.push((await t.stack.call('POST', ACCT, { ...t.asB, body: email('Victim@Example.com') })).status);
  assert.deepEqual(statuses, [201, 201, 201, 201, 201]);
  const refused = await t.stack.call('POST', ACCT, { ...t.asB, body: email('victim@example.com') });
  assert.equal(refused.status, 429, refused.text);
  assert.match(refused.body.detail, /At most 5 verification e-mails per hour to one address/);
  assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After says when');
  const listed = await t.stack.call('GET', `${ACCT}?channel_type=email`, t.asB);
  assert.equal(listed.body.items.length, 1, 'the refused channel was not kept');
});

test('one account sends at most 20 an hour: creates and recipient changes alike', { skip: NEEDS_LOCAL }, async () => {
  const created = await t.stack.call('POST', ACCT, { ...t.asA, body: email('first@example.com') });
  assert.equal(created.status, 201);
  // -- A has sent 5 so far (4 above, this one); 15 more to distinct addresses, by creates and PATCHes --
  for (let i = 0; i < 10; i++) assert.equal((await t.stack.call('POST', ACCT, { ...t.asA, body: email(`a${i}@example.com`) })).status, 201, `create ${i}`);
  for (let i = 0; i < 5; i++) {
    const r = await t.stack.call('PATCH', `${ACCT}/${created.body.id}`, { ...t.asA, body: { email_config: { recipient_email: `moved${i}@example.com` } } });
    assert.equal(r.status, 200, `change ${i}: ${r.text}`);
  }
  const change = await t.stack.call('PATCH', `${ACCT}/${created.body.id}`, { ...t.asA, body: { email_config: { recipient_email: 'one-more@example.com' } } });
  assert.equal(change.status, 429, change.text);
  assert.match(change.body.detail, /At most 20 verification e-mails per hour per account/);
  const kept = await t.stack.call('GET', `${ACCT}/${created.body.id}`, t.asA);
  assert.equal(kept.body.email_config?.recipient_email ?? kept.body.recipient_email, 'moved4@example.com', 'the refused change was not applied');
  const create = await t.stack.call('POST', ACCT, { ...t.asA, body: email('fresh@example.com') });
  assert.equal(create.status, 429);
  // -- another account is not held by A's allowance --
  assert.equal((await t.stack.call('POST', ACCT, { ...t.asB, body: email('b-own@example.com') })).status, 201);
});
