// The job gate hands a freed slot to the oldest waiting job (issue 28, found by `npm run fuzz`: an early
// job of a burst of 70 waited over 240 s while the ones launched after it ran, because a waiting job
// asked with a growing back-off and the newest asked every second or two). JobGate on a dynalite table,
// jobs as the state machine's AcquireSlot step sees them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestTable } from '../support/dynamo';
import { JobGate, MAX_RUNNING_JOBS, HEAD_WAIT_SECONDS } from '../../lambdas/domain/job-gate';
import { keys } from '../../lambdas/data/keys';
import type { DynamoStore } from '../../lambdas/adapters/dynamo-store';
import type { Clock } from '../../lambdas/domain/ports';

let table: { store: DynamoStore; stop(): Promise<void> };
before(async () => {
  table = await startTestTable('job-gate-order');
});
after(async () => table?.stop());

let now = Date.parse('2026-12-05T10:00:00Z');
const clock: Clock = { now: () => new Date(now) };
const created = (i: number) => new Date(Date.parse('2026-12-05T09:00:00Z') + i * 1000).toISOString();

async function job(account: string, id: string): Promise<void> {
  await table.store.put({ ...keys.job(account, id), entity: 'job', createdAt: new Date(now).toISOString(), status: 'SCHEDULED' });
}

test('a freed slot goes to the oldest job refused before, not to a newer one asking first', async () => {
  const gate = new JobGate(table.store, clock);
  const acct = 'fifo';
  for (let i = 0; i < MAX_RUNNING_JOBS; i++) {
    await job(acct, `run-${i}`);
    assert.equal((await gate.take(acct, `run-${i}`, 1, created(i))).taken, true);
  }
  // -- the old job is refused (the gate is full) and becomes the head --
  await job(acct, 'old');
  const refused = await gate.take(acct, 'old', 1, created(10));
  assert.deepEqual(refused, { taken: false, first: true });
  // -- a newer job refused too: not the head --
  await job(acct, 'new');
  assert.deepEqual(await gate.take(acct, 'new', 1, created(20)), { taken: false, first: false });
  // -- a slot frees; the newer job asks first and is still refused: the slot is the head's --
  await table.store.update(keys.gate(acct), { add: { running: -1 } });
  now += 1000;
  assert.equal((await gate.take(acct, 'new', 2, created(20))).taken, false, 'the newer job does not take the head\'s slot');
  assert.equal((await gate.take(acct, 'old', 2, created(10))).taken, true, 'the head takes it');
  // -- the head is cleared once served: the next free slot is the newer job's --
  await table.store.update(keys.gate(acct), { add: { running: -1 } });
  assert.equal((await gate.take(acct, 'new', 3, created(20))).taken, true);
  assert.ok(HEAD_WAIT_SECONDS <= 5);
});

test('an older job refused later replaces a younger head; a head that stops asking loses its place', async () => {
  const gate = new JobGate(table.store, clock);
  const acct = 'lease';
  for (let i = 0; i < MAX_RUNNING_JOBS; i++) {
    await job(acct, `run-${i}`);
    await gate.take(acct, `run-${i}`, 1, created(i));
  }
  await job(acct, 'young');
  await job(acct, 'older');
  assert.equal((await gate.take(acct, 'young', 1, created(30))).first, true);
  assert.equal((await gate.take(acct, 'older', 1, created(15))).first, true, 'the older job is the head now');
  assert.equal((await gate.take(acct, 'young', 2, created(30))).first, false);
  // -- a head that is forgotten (cancelled) gives its place up at once --
  await table.store.update(keys.gate(acct), { add: { running: -1 } });
  await gate.forget(acct, 'older');
  assert.equal((await gate.take(acct, 'young', 3, created(30))).taken, true, 'the next job takes the slot without waiting out the lease');
  // -- young refused again becomes the head; it stops asking: after the lease a free slot goes to whoever asks --
  await job(acct, 'late');
  assert.equal((await gate.take(acct, 'late', 1, created(40))).first, true);
  await table.store.update(keys.gate(acct), { add: { running: -1 } });
  await job(acct, 'other');
  assert.equal((await gate.take(acct, 'other', 1, created(50))).taken, false);
  now += 31_000;
  assert.equal((await gate.take(acct, 'other', 2, created(50))).taken, true);
});
