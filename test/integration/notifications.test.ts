// Recording job events as notifications against dynalite: a redelivered event is stored once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DynamoStore } from '../../lambdas/adapters/dynamo-store';
import { startTestTable } from '../support/dynamo';
import { NotificationRecorder } from '../../lambdas/domain/notifications';

let stop: () => Promise<void>;
let store: DynamoStore;

before(async () => {
  ({ store, stop } = await startTestTable('notes-test'));
});
after(async () => {
  await stop();
});

test('the same event delivered twice is one notification; other events are separate', async () => {
  const rec = new NotificationRecorder(store);
  const at = new Date('2026-11-21T10:00:00Z');
  const detail = { account_id: 'a1', job_id: 'j1', workflow_id: 'w1', status: 'COMPLETED' };
  const id1 = await rec.record('evt-1', 'job.completed', detail, at);
  const id2 = await rec.record('evt-1', 'job.completed', detail, at);
  const id3 = await rec.record('evt-2', 'job.failed', { ...detail, status: 'FAILED' }, at);
  assert.equal(id1, id2);
  assert.notEqual(id1, id3);
  assert.match(id1, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const items = await store.queryPrefix('ACCT#a1#NOTES', 'NOTE#');
  assert.equal(items.length, 2);
  const completed = items.find((i) => i.id === id1)!;
  assert.equal(completed.eventType, 'job.completed');
  assert.deepEqual(completed.payload, { job_id: 'j1', workflow_id: 'w1', status: 'COMPLETED' });
  assert.equal(completed.workflowId, 'w1');
});
