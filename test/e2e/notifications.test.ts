// Notifications end to end (spec §4.7) in keyed mode: two users of one account with their own read
// flags, a second account whose notifications stay invisible. Events are recorded by the very
// handler the EventBridge rule targets (crafted ids and times, so order and filters are checkable),
// and a real job's events arrive through the bus.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EventBridgeEvent } from 'aws-lambda';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { authService } from '../../lambdas/services/core';
import { recordNotification } from '../../lambdas/handlers/events';
import { JOB_EVENT_TYPES } from '../../lambdas/events';

let stack: TestStack;
const as: Record<string, { headers: Record<string, string> }> = {};
const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const BASE = Date.UTC(2026, 0, 10, 12, 0, 0);
const N = 12;
/** ids[i] is the notification of event i (created BASE + i s; workflow W1 / W2 / none by i % 3). */
const ids: string[] = [];
let olgaId: string;

const wfOf = (i: number) => [W1, W2, null][i % 3]!;
const timeOf = (i: number) => new Date(BASE + i * 1000).toISOString();

async function record(account: string, eventId: string, i: number): Promise<void> {
  await recordNotification({
    id: eventId,
    'detail-type': JOB_EVENT_TYPES[i % JOB_EVENT_TYPES.length]!,
    time: timeOf(i),
    source: 'wps.jobs',
    detail: { account_id: account, job_id: `job-${i}`, workflow_id: wfOf(i), status: 'X' },
  } as unknown as EventBridgeEvent<string, Record<string, unknown>>);
}

const get = (user: string, path: string) => stack.call('GET', `/api/v1/notifications${path}`, as[user]);
const mark = (user: string, body: unknown) => stack.call('POST', '/api/v1/notifications/mark-read', { ...as[user], body });
const count = async (user: string, workflowId?: string) => {
  const r = await get(user, `/unread-count${workflowId ? `?workflow_id=${workflowId}` : ''}`);
  assert.equal(r.status, 200, r.text);
  return r.body.unread_count as number;
};

before(async () => {
  if (NEEDS_LOCAL) return;
  stack = await startTestStack({ authMode: 'keyed' });
  for (const [account, user] of [['acct-n', 'alice'], ['acct-n', 'bob'], ['acct-o', 'olga']] as const) {
    as[user] = { headers: { 'service-api-key': (await authService().createKey(account, user)).key } };
  }
  for (let i = 0; i < N; i++) await record('acct-n', `evt-${i}`, i);
  await record('acct-o', 'evt-o', 0);
  const all = await get('alice', '?limit=100');
  ids.push(...(all.body.events as { id: string }[]).map((e) => e.id).reverse());
  olgaId = (await get('olga', '')).body.events[0].id;
});
after(async () => {
  await stack?.close();
});

test('list: newest first, cursor paging until next_cursor is null, per-user is_read', { skip: NEEDS_LOCAL }, async () => {
  assert.equal(ids.length, N);
  const seen: any[] = [];
  let cursor: string | null = null;
  const sizes: number[] = [];
  do {
    const r = await get('alice', `?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(r.status, 200, r.text);
    sizes.push(r.body.events.length);
    seen.push(...r.body.events);
    cursor = r.body.next_cursor;
  } while (cursor);
  assert.deepEqual(sizes, [5, 5, 2]);
  assert.deepEqual(seen.map((e) => e.created_at), Array.from({ length: N }, (_, i) => timeOf(N - 1 - i)));
  const first = seen[N - 1];
  assert.equal(first.event_type, 'job.scheduled');
  assert.equal(first.workflow_id, W1);
  assert.equal(first.is_read, false);
  assert.deepEqual(first.payload, { job_id: 'job-0', workflow_id: W1, status: 'X' });
  assert.equal(seen[N - 3].workflow_id, null);
  const exact = await get('alice', `?limit=${N}`);
  assert.equal(exact.body.events.length, N);
  assert.equal(exact.body.next_cursor, null, 'a page that ends exactly at the last item has no cursor');
  assert.equal((await get('alice', '')).body.events.length, N, 'default limit 50');
});

test('list filters: workflow_id, event_types, since, and combined with paging', { skip: NEEDS_LOCAL }, async () => {
  const w1 = await get('alice', `?workflow_id=${W1}`);
  assert.deepEqual(w1.body.events.map((e: any) => e.created_at), [9, 6, 3, 0].map(timeOf));
  const types = await get('alice', '?event_types=job.completed,job.failed');
  assert.deepEqual(types.body.events.map((e: any) => e.event_type).sort(), ['job.completed', 'job.completed', 'job.failed', 'job.failed']);
  const since = await get('alice', `?since=${encodeURIComponent(timeOf(8))}`);
  assert.deepEqual(since.body.events.map((e: any) => e.created_at), [11, 10, 9].map(timeOf), 'strictly after since');
  const sinceOffset = await get('alice', `?since=${encodeURIComponent('2026-01-10T13:00:08+01:00')}`);
  assert.equal(sinceOffset.body.events.length, 3, 'a since with an offset means the same instant');
  const sinceNoZone = await get('alice', `?since=${encodeURIComponent(timeOf(8).replace(/\.\d+Z$/, ''))}`);
  assert.equal(sinceNoZone.status, 200, sinceNoZone.text);
  assert.deepEqual(sinceNoZone.body.events.map((e: any) => e.created_at), [11, 10, 9].map(timeOf), 'a since without a zone is UTC');
  const p1 = await get('alice', `?workflow_id=${W2}&event_types=job.in_progress,job.failed,job.scheduled&limit=1`);
  assert.equal(p1.body.events.length, 1);
  const p2 = await get('alice', `?workflow_id=${W2}&event_types=job.in_progress,job.failed,job.scheduled&limit=1&cursor=${encodeURIComponent(p1.body.next_cursor)}`);
  // W2 = events 1,4,7,10 → types in_progress, failed, completed, scheduled → matching, newest first: 10, 4, 1.
  assert.deepEqual([p1.body.events[0].created_at, p2.body.events[0].created_at], [timeOf(10), timeOf(4)]);
  for (const bad of ['?event_types=job.exploded', '?since=yesterday', '?unread_only=maybe']) {
    assert.equal((await get('alice', bad)).status, 422, bad);
  }
  // workflow_id is a free string on the platform: an id of no workflow matches nothing
  const noWorkflow = await get('alice', '?workflow_id=nope');
  assert.equal(noWorkflow.status, 200, noWorkflow.text);
  assert.deepEqual(noWorkflow.body.events, []);
});

test('list: limit outside 1..100 and tampered or foreign cursors are 422', { skip: NEEDS_LOCAL }, async () => {
  for (const limit of [0, 101, -1]) {
    const r = await get('alice', `?limit=${limit}`);
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.detail[0].loc, ['query', 'limit']);
  }
  const cursor = (await get('alice', '?limit=2')).body.next_cursor as string;
  const [body, mac] = cursor.split('.');
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), p: 'NOTE#\uffff' })).toString('base64url');
  for (const bad of [`${forged}.${mac}`, `${body}.AAAA${mac!.slice(4)}`, 'not-a-cursor', `${body}`]) {
    const r = await get('alice', `?cursor=${encodeURIComponent(bad)}`);
    assert.equal(r.status, 422, bad);
    assert.deepEqual(r.body.detail[0].loc, ['query', 'cursor']);
  }
  const foreign = await get('bob', `?cursor=${encodeURIComponent(cursor)}`);
  assert.equal(foreign.status, 422, "another user's cursor");
  assert.equal((await get('alice', `?cursor=${encodeURIComponent(cursor)}`)).status, 200);
});

test('get by id: 200 with is_read, unknown 404, non-UUID 422, another account 404', { skip: NEEDS_LOCAL }, async () => {
  const r = await get('alice', `/${ids[4]}`);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, { id: ids[4], event_type: 'job.failed', payload: { job_id: 'job-4', workflow_id: W2, status: 'X' }, created_at: timeOf(4), is_read: false, workflow_id: W2 });
  assert.equal((await get('alice', '/00000000-0000-4000-8000-000000000000')).status, 404);
  const bad = await get('alice', '/not-a-uuid');
  assert.equal(bad.status, 422);
  assert.deepEqual(bad.body.detail[0].loc, ['path', 'notification_id']);
  assert.equal((await get('alice', `/${olgaId}`)).status, 404);
  assert.equal((await get('olga', `/${olgaId}`)).status, 200);
  assert.equal((await get('olga', `/${ids[0]}`)).status, 404);
  assert.equal((await get('olga', '')).body.events.length, 1, "olga sees only her account's notification");
});

test('mark-read and unread-count: counts only flips, per user, per workflow, before and mark_all', { skip: NEEDS_LOCAL }, async () => {
  assert.equal(await count('alice'), N);
  assert.equal(await count('alice', W1), 4);
  assert.equal(await count('alice', W2), 4);

  let r = await mark('alice', { notification_ids: [ids[0], ids[1], ids[2]] });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.marked_count, 3);
  assert.equal((await mark('alice', { notification_ids: [ids[0], ids[1], ids[2]] })).body.marked_count, 0, 'already read');
  r = await mark('alice', { notification_ids: [ids[3], ids[3], '00000000-0000-4000-8000-000000000000', olgaId] });
  assert.equal(r.body.marked_count, 1, 'duplicates, unknown and foreign ids do not count');
  assert.equal(await count('alice'), N - 4);
  assert.equal(await count('alice', W1), 2);
  assert.equal(await count('alice', W2), 3);
  assert.equal((await get('alice', `/${ids[0]}`)).body.is_read, true);
  assert.equal(await count('bob'), N, "bob's flags are his own");
  assert.equal((await get('bob', `/${ids[0]}`)).body.is_read, false);
  assert.equal(await count('olga'), 1);

  // before (exclusive) narrowed to W2: W2 items 1 (read), 4, 7 precede event 9.
  r = await mark('alice', { before: timeOf(9), workflow_id: W2 });
  assert.equal(r.body.marked_count, 2);
  assert.equal(await count('alice'), N - 6);
  assert.equal(await count('alice', W2), 1);

  const unread = await get('alice', '?unread_only=true');
  assert.deepEqual(unread.body.events.map((e: any) => e.created_at), [11, 10, 9, 8, 6, 5].map(timeOf));
  assert.ok(unread.body.events.every((e: any) => e.is_read === false));
  const unreadPaged = await get('alice', '?unread_only=true&limit=4');
  const rest = await get('alice', `?unread_only=true&limit=4&cursor=${encodeURIComponent(unreadPaged.body.next_cursor)}`);
  assert.deepEqual(rest.body.events.map((e: any) => e.created_at), [6, 5].map(timeOf));
  assert.equal(rest.body.next_cursor, null);
  assert.deepEqual((await get('alice', `?unread_only=true&workflow_id=${W1}`)).body.events.map((e: any) => e.created_at), [9, 6].map(timeOf));
  assert.equal((await get('alice', '?unread_only=false')).body.events.filter((e: any) => e.is_read).length, 6);

  r = await mark('alice', { before: timeOf(6) });
  assert.equal(r.body.marked_count, 1, 'only event 5 is unread before event 6');
  r = await mark('alice', { mark_all: true, workflow_id: W1 });
  assert.equal(r.body.marked_count, 2);
  assert.equal(await count('alice', W1), 0);
  assert.equal(await count('alice'), 3);
  r = await mark('alice', { mark_all: true });
  assert.equal(r.body.marked_count, 3);
  assert.equal((await mark('alice', { mark_all: true })).body.marked_count, 0);
  assert.equal(await count('alice'), 0);
  assert.equal(await count('alice', W2), 0);
  assert.equal((await get('alice', '?unread_only=true')).body.events.length, 0);
  assert.equal(await count('bob'), N);
  assert.equal(await count('bob', W1), 4);
});

test('mark-read: invalid combinations are 422 with FastAPI-style details', { skip: NEEDS_LOCAL }, async () => {
  const cases: unknown[] = [
    {},
    { mark_all: false },
    { notification_ids: [ids[0]], before: timeOf(1) },
    { notification_ids: [ids[0]], mark_all: true },
    { before: timeOf(1), mark_all: true },
    { notification_ids: [ids[0]], workflow_id: W1 },
    { workflow_id: W1 },
    { notification_ids: Array.from({ length: 101 }, () => ids[0]) },
    { notification_ids: ['nope'] },
    { before: 'yesterday' },
    { mark_all: 'yes' },
    { mark_all: true, workflow_id: 'nope' },
  ];
  for (const body of cases) {
    const r = await mark('bob', body);
    assert.equal(r.status, 422, `${JSON.stringify(body).slice(0, 80)} → ${r.text}`);
    assert.ok(Array.isArray(r.body.detail) && r.body.detail.every((d: any) => d.loc[0] === 'body' && d.msg && d.type), r.text);
  }
  const notJson = await stack.call('POST', '/api/v1/notifications/mark-read', { ...as.bob, raw: '{nope', headers: { ...as.bob!.headers, 'content-type': 'application/json' } });
  assert.equal(notJson.status, 422);
  assert.equal(await count('bob'), N, 'nothing was marked');
});

test('a redelivered event is neither listed nor counted twice', { skip: NEEDS_LOCAL }, async () => {
  await record('acct-n', 'evt-3', 3);
  await record('acct-n', 'evt-11', 11);
  assert.equal(await count('bob'), N);
  assert.equal(await count('alice'), 0, 'a read notification stays read');
  assert.equal((await get('bob', '?limit=100')).body.events.length, N);
});

test('paths: fixed routes win over {notification_id}; no trailing-slash variants needed; unauthenticated is 401', { skip: NEEDS_LOCAL }, async () => {
  assert.equal((await stack.call('POST', '/api/v1/notifications/unread-count', as.bob)).status, 405);
  assert.equal((await stack.call('GET', '/api/v1/notifications/unread-count')).status, 401);
  const noWorkflow = await get('bob', `/unread-count?workflow_id=nope`);
  assert.deepEqual([noWorkflow.status, noWorkflow.body], [200, { unread_count: 0 }], noWorkflow.text);
});

test("a job's events arrive through the bus in its users' inboxes", { skip: NEEDS_LOCAL }, async () => {
  const form = new FormData();
  form.append('request_data', JSON.stringify({ template_id: 'fast_partition' }));
  form.append('input_files', new Blob(['Hello notifications.']), 'a.txt');
  const job = await stack.call('POST', '/api/v1/jobs/', { ...as.bob, raw: form });
  assert.equal(job.status, 200, job.text);
  const events = await eventually(async () => {
    const r = await get('bob', '?limit=100');
    const mine = r.body.events.filter((e: any) => e.payload.job_id === job.body.id);
    return mine.some((e: any) => e.event_type === 'job.completed') ? mine : undefined;
  }, 'job.completed notification', 60_000);
  assert.deepEqual(events.map((e: any) => e.event_type), ['job.completed', 'job.in_progress', 'job.scheduled']);
  assert.equal(await count('bob'), N + 3);
  assert.equal((await get('alice', `/${events[0].id}`)).body.is_read, false, 'alice got it too');
  assert.equal((await get('olga', `/${events[0].id}`)).status, 404);
});
