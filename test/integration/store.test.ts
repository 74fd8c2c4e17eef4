// The DynamoDB store adapter through the real SDK against dynalite: conditional puts, deletes,
// prefix queries with paging and order, conditional updates and counters, expiry filtering.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DynamoStore } from '../../lambdas/adapters/dynamo-store';
import { startTestTable } from '../support/dynamo';
import { Conflict, NotFound } from '../../lambdas/errors';

let stop: () => Promise<void>;
let store: DynamoStore;
const now = new Date().toISOString();

before(async () => {
  ({ store, stop } = await startTestTable('store-test'));
});
after(async () => {
  await stop();
});

test('put with ifNotExists refuses a taken key; ifExists refuses a missing one', async () => {
  await store.put({ PK: 'A', SK: 'X#1', entity: 'T', createdAt: now, v: 1 }, { ifNotExists: true });
  await assert.rejects(store.put({ PK: 'A', SK: 'X#1', entity: 'T', createdAt: now }, { ifNotExists: true }), Conflict);
  await assert.rejects(store.put({ PK: 'A', SK: 'X#nope', entity: 'T', createdAt: now }, { ifExists: true }), NotFound);
  assert.equal((await store.get({ PK: 'A', SK: 'X#1' }))?.v, 1);
});

test('queryPrefix returns one partition in sort order, descending and limited on request', async () => {
  for (const i of [3, 1, 2]) await store.put({ PK: 'Q', SK: `ITEM#${i}`, entity: 'T', createdAt: now });
  await store.put({ PK: 'Q', SK: 'OTHER#1', entity: 'T', createdAt: now });
  await store.put({ PK: 'Q2', SK: 'ITEM#9', entity: 'T', createdAt: now });
  assert.deepEqual((await store.queryPrefix('Q', 'ITEM#')).map((i) => i.SK), ['ITEM#1', 'ITEM#2', 'ITEM#3']);
  assert.deepEqual((await store.queryPrefix('Q', 'ITEM#', { descending: true, limit: 2 })).map((i) => i.SK), ['ITEM#3', 'ITEM#2']);
});

test('update: conditions, counters, upsert, and Conflict when a condition fails', async () => {
  const key = { PK: 'G', SK: 'GATE' };
  const take = () =>
    store.update(key, {
      add: { running: 1 },
      conditions: [{ or: [{ attr: 'running', op: 'notExists' }, { attr: 'running', op: 'lt', value: 2 }] }],
      upsert: true,
    });
  assert.equal((await take()).running, 1);
  assert.equal((await take()).running, 2);
  await assert.rejects(take(), Conflict);
  assert.equal((await store.update(key, { add: { running: -1 } })).running, 1);
  await assert.rejects(store.update({ PK: 'G', SK: 'missing' }, { set: { a: 1 } }), Conflict);
  const s = await store.update(key, { set: { status: 'B' }, conditions: [{ attr: 'running', op: 'in', value: [1, 5] }] });
  assert.equal(s.status, 'B');
});

test('delete reports whether the item existed; expired items are not returned', async () => {
  assert.equal(await store.delete({ PK: 'A', SK: 'X#1' }), true);
  assert.equal(await store.delete({ PK: 'A', SK: 'X#1' }), false);
  await store.put({ PK: 'E', SK: 'OLD', entity: 'T', createdAt: now, expiresAt: Math.floor(Date.now() / 1000) - 10 });
  assert.equal(await store.get({ PK: 'E', SK: 'OLD' }), undefined);
  assert.deepEqual(await store.queryPrefix('E', ''), []);
});
