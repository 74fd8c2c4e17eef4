// Recording job events as notifications against dynalite: a redelivered event is stored once, lands
// once in every user's inbox and is counted once; marking read keeps the counters exact even when
// the same ids are marked concurrently; cursors are signed and bound to their user.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DynamoStore } from '../../lambdas/adapters/dynamo-store';
import { startTestTable } from '../support/dynamo';
import { NotificationRecorder, notificationIdFor } from '../../lambdas/domain/notifications';
import { NotificationInbox } from '../../lambdas/domain/notification-inbox';
import { CursorSigner, storedCursorKey } from '../../lambdas/domain/cursor';
import { ValidationError } from '../../lambdas/errors';
import type { SecretBox } from '../../lambdas/domain/ports';
import { keys } from '../../lambdas/data/keys';

let stop: () => Promise<void>;
let store: DynamoStore;

// A reversible stand-in for the secret box (the real ones are tested elsewhere).
const box: SecretBox = { seal: async (v) => `t:${Buffer.from(v).toString('hex')}`, open: async (s) => Buffer.from(s.slice(2), 'hex').toString() };

before(async () => {
  ({ store, stop } = await startTestTable('notes-test'));
});
after(async () => {
  await stop();
});

const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('the same event delivered twice is one notification; other events are separate', async () => {
  const rec = new NotificationRecorder(store);
  const at = new Date('2026-11-21T10:00:00Z');
  const detail = { account_id: 'a1', job_id: 'j1', workflow_id: 'w1', status: 'COMPLETED' };
  const id1 = await rec.record('evt-1', 'job.completed', detail, at);
  const id2 = await rec.record('evt-1', 'job.completed', detail, at);
  const id3 = await rec.record('evt-2', 'job.failed', { ...detail, status: 'FAILED' }, at);
  assert.equal(id1, id2);
  assert.notEqual(id1, id3);
  assert.match(id1, UUID7);
  const items = await store.queryPrefix('ACCT#a1#NOTES', 'NOTE#');
  assert.equal(items.length, 2);
  const completed = items.find((i) => i.id === id1)!;
  assert.equal(completed.eventType, 'job.completed');
  assert.deepEqual(completed.payload, { job_id: 'j1', workflow_id: 'w1', status: 'COMPLETED' });
  assert.equal(completed.workflowId, 'w1');
});

test('ids are time-ordered: a later event sorts after an earlier one whatever its event id', () => {
  const ids = Array.from({ length: 50 }, (_, i) => notificationIdFor(`e-${Math.random()}`, new Date(Date.UTC(2026, 0, 1) + i * 7)));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(notificationIdFor('same', new Date(5)), notificationIdFor('same', new Date(5)));
});

test('a redelivered event lands once in each inbox and bumps the unread counters once', async () => {
  const rec = new NotificationRecorder(store, async () => ['u1', 'u2', 'u1']);
  const inbox = new NotificationInbox(store, new CursorSigner(storedCursorKey(store, box)));
  const at = new Date('2026-11-21T11:00:00Z');
  const detail = { account_id: 'a2', job_id: 'j1', workflow_id: 'w1', status: 'COMPLETED' };
  await Promise.all([rec.record('evt-r', 'job.completed', detail, at), rec.record('evt-r', 'job.completed', detail, at)]);
  await rec.record('evt-r', 'job.completed', detail, at);
  await rec.record('evt-s', 'job.scheduled', { account_id: 'a2', job_id: 'j2', workflow_id: null }, at);
  for (const userId of ['u1', 'u2']) {
    const p = { accountId: 'a2', userId };
    assert.deepEqual(await inbox.unreadCount(p), { unread_count: 2 });
    assert.deepEqual(await inbox.unreadCount(p, 'w1'), { unread_count: 1 });
    const list = await inbox.list(p, { limit: 50, unread_only: false });
    assert.equal(list.events.length, 2);
  }
  assert.deepEqual(await inbox.unreadCount({ accountId: 'a2', userId: 'u3' }), { unread_count: 0 });
});

test('concurrent mark-read of the same ids flips each once; counters stay exact', async () => {
  const rec = new NotificationRecorder(store, async () => ['u1']);
  const inbox = new NotificationInbox(store, new CursorSigner(storedCursorKey(store, box)));
  const p = { accountId: 'a3', userId: 'u1' };
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) {
    ids.push(await rec.record(`c-${i}`, 'job.completed', { account_id: 'a3', workflow_id: i % 2 ? 'w1' : 'w2' }, new Date(Date.UTC(2026, 0, 1, 0, 0, i))));
  }
  const results = await Promise.all([1, 2, 3].map(() => inbox.markRead(p, { notification_ids: ids.slice(0, 20) })));
  assert.equal(results.reduce((n, r) => n + r.marked_count, 0), 20);
  assert.deepEqual(await inbox.unreadCount(p), { unread_count: 10 });
  assert.deepEqual(await inbox.unreadCount(p, 'w1'), { unread_count: 5 });
  assert.deepEqual(await inbox.unreadCount(p, 'w2'), { unread_count: 5 });
});

test('cursors are signed and bound to their user', async () => {
  const signer = new CursorSigner(storedCursorKey(store, box));
  const again = new CursorSigner(storedCursorKey(store, box));
  const alice = { accountId: 'a', userId: 'alice' };
  const c = await signer.sign(alice, 'NOTE#x');
  assert.equal(await again.verify(alice, c), 'NOTE#x', 'a second process shares the stored key');
  await assert.rejects(signer.verify({ accountId: 'a', userId: 'bob' }, c), ValidationError);
  const [body, mac] = c.split('.');
  const forged = Buffer.from(JSON.stringify({ a: 'a', u: 'alice', p: 'NOTE#y' })).toString('base64url');
  await assert.rejects(signer.verify(alice, `${forged}.${mac}`), ValidationError);
  await assert.rejects(signer.verify(alice, `${body}.${mac}x`), ValidationError);
  await assert.rejects(signer.verify(alice, 'garbage'), ValidationError);
});

test("an account's audience: its keys' users, plus the default user in private mode", async () => {
  const { resetConfig } = await import('../../lambdas/config');
  const { resetServices } = await import('../../lambdas/services/index');
  const { authService } = await import('../../lambdas/services/core');
  const { accountAudience } = await import('../../lambdas/services/notifications');
  const saved = { TABLE_NAME: process.env.TABLE_NAME, AUTH_MODE: process.env.AUTH_MODE };
  try {
    for (const mode of ['none', 'keyed'] as const) {
      Object.assign(process.env, { TABLE_NAME: 'notes-test', AUTH_MODE: mode, DEFAULT_ACCOUNT_ID: 'default', DEFAULT_USER_ID: 'default' });
      resetConfig();
      resetServices();
      if (mode === 'none') {
        await authService().createKey('default', 'carol');
        await authService().createKey('default', 'carol');
        await authService().createKey('other', 'dan');
      }
      assert.deepEqual((await accountAudience('default')).sort(), mode === 'none' ? ['carol', 'default'] : ['carol']);
      assert.deepEqual(await accountAudience('other'), ['dan']);
      assert.deepEqual(await accountAudience('nobody'), []);
    }
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    resetConfig();
    resetServices();
  }
});

test('a mark-read that crashes before its counter update is finished by the next unread-count, once', async () => {
  const rec = new NotificationRecorder(store, async () => ['u1']);
  const p = { accountId: 'a9', userId: 'u1' };
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) ids.push(await rec.record(`k-${i}`, 'job.completed', { account_id: 'a9', workflow_id: 'w9' }, new Date(Date.UTC(2026, 0, 2, 0, 0, i))));
  // the process dies after the read marks are set, before any counter moves
  const crashing = Object.create(store) as DynamoStore;
  crashing.update = async (key, spec) => {
    if (spec.remove?.some((a) => a.startsWith('pend_'))) throw new Error('crash');
    return store.update(key, spec);
  };
  const dying = new NotificationInbox(crashing, new CursorSigner(storedCursorKey(store, box)));
  await assert.rejects(dying.markRead(p, { notification_ids: ids.slice(0, 6) }), /crash/);
  const inbox = new NotificationInbox(store, new CursorSigner(storedCursorKey(store, box)), { staleIntentMs: 0 });
  assert.deepEqual(await inbox.unreadCount(p), { unread_count: 4 });
  assert.deepEqual(await inbox.unreadCount(p, 'w9'), { unread_count: 4 });
  assert.deepEqual(await inbox.markRead(p, { notification_ids: ids.slice(0, 8) }), { marked_count: 2 });
  assert.deepEqual(await inbox.unreadCount(p), { unread_count: 2 });
  assert.deepEqual(await inbox.unreadCount(p, 'w9'), { unread_count: 2 });
  assert.equal((await inbox.list(p, { limit: 50, unread_only: true })).events.length, 2);
});

test('a crashed mark-read by ids, finished later, counts neither unknown ids nor items read before it, and counts its marks that left the unread index since', async () => {
  const rec = new NotificationRecorder(store, async () => ['u1']);
  const p = { accountId: 'a10', userId: 'u1' };
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) ids.push(await rec.record(`m-${i}`, 'job.completed', { account_id: 'a10', workflow_id: 'w10' }, new Date(Date.UTC(2026, 0, 3, 0, 0, i))));
  // ids[0] was read the way the code before read marks did it: out of GSI2, no mark, counters down
  await store.update(keys.inboxItem('a10', 'u1', ids[0]!), { remove: ['GSI2PK', 'GSI2SK'] });
  for (const w of [undefined, 'w10']) await store.update(keys.unreadCounter('a10', 'u1', w), { add: { unread: -1 } });
  const unknown = ids[9]!.slice(0, -1) + (ids[9]!.endsWith('0') ? '1' : '0');
  const crashing = Object.create(store) as DynamoStore;
  crashing.update = async (key, spec) => {
    if (spec.remove?.some((a) => a.startsWith('pend_'))) throw new Error('crash');
    return store.update(key, spec);
  };
  const dying = new NotificationInbox(crashing, new CursorSigner(storedCursorKey(store, box)));
  await assert.rejects(dying.markRead(p, { notification_ids: [ids[0]!, ...ids.slice(3, 7), unknown] }), /crash/);
  const inbox = new NotificationInbox(store, new CursorSigner(storedCursorKey(store, box)), { staleIntentMs: 0 });
  // an unread listing passes the four marked items and takes them out of GSI2 before anyone finishes the call
  assert.equal((await new NotificationInbox(store, new CursorSigner(storedCursorKey(store, box))).list(p, { limit: 50, unread_only: true })).events.length, 5);
  assert.deepEqual(await inbox.unreadCount(p), { unread_count: 5 });
  assert.deepEqual(await inbox.unreadCount(p, 'w10'), { unread_count: 5 });
  assert.equal(await store.get(keys.inboxItem('a10', 'u1', unknown)), undefined);
  assert.deepEqual(await inbox.markRead(p, { notification_ids: ids }), { marked_count: 5 });
  assert.deepEqual(await inbox.unreadCount(p), { unread_count: 0 });
  assert.deepEqual(await inbox.unreadCount(p, 'w10'), { unread_count: 0 });
});
