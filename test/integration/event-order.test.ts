// Event order under EventBridge's whole-second `time` (issue 16, point 6). Job events go through the
// real publisher (EventBridgePublisher, @aws-sdk/client-eventbridge) to the PutEvents stand-in, which
// stamps `time` to the second as EventBridge does and invokes the rule targets (the real handlers) on
// a dynalite table. Eleven events of four jobs, all within one second and published in scrambled
// order, must list in the inbox by the publisher's millisecond, then scheduled < in_progress < end.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventBridgeEvent } from 'aws-lambda';
import { startTestTable } from '../support/dynamo';
import { eventBridgeTime, startEventBridge } from '../../local/emulators/eventbridge';
import { EventBridgePublisher, resetPublisherClient } from '../../lambdas/adapters/eventbridge-publisher';
import { resetConfig } from '../../lambdas/config';
import { resetServices } from '../../lambdas/services/index';
import { recordNotification } from '../../lambdas/handlers/events';
import { NotificationInbox } from '../../lambdas/domain/notification-inbox';
import { CursorSigner, storedCursorKey } from '../../lambdas/domain/cursor';
import { jobChangedAt } from '../../lambdas/domain/jobs';
import type { DynamoStore } from '../../lambdas/adapters/dynamo-store';
import type { SecretBox } from '../../lambdas/domain/ports';

const TABLE = 'event-order';
const ENV_KEYS = ['TABLE_NAME', 'AUTH_MODE', 'EVENT_BUS_NAME', 'AWS_ENDPOINT_URL_EVENTBRIDGE', 'SECRETS_KEY_FILE'];
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
let table: { store: DynamoStore; stop(): Promise<void> };
let bus: Awaited<ReturnType<typeof startEventBridge>>;
let dir: string;

// Cursors are not used here (one page); a reversible box keeps the signer self-contained.
const box: SecretBox = { seal: async (v) => `t:${Buffer.from(v).toString('hex')}`, open: async (s) => Buffer.from(s.slice(2), 'hex').toString() };
const me = { accountId: 'default', userId: 'default' };
const inboxList = () => new NotificationInbox(table.store, new CursorSigner(storedCursorKey(table.store, box))).list(me, { limit: 100, unread_only: false });

before(async () => {
  table = await startTestTable(TABLE);
  bus = await startEventBridge({ region: 'us-east-1' });
  dir = mkdtempSync(join(tmpdir(), 'wps-event-order-'));
  // AUTH_MODE none: the account `default` has the user `default`, whose inbox receives its events.
  Object.assign(process.env, {
    TABLE_NAME: TABLE,
    AUTH_MODE: 'none',
    EVENT_BUS_NAME: 'wps-events',
    AWS_ENDPOINT_URL_EVENTBRIDGE: bus.endpoint,
    SECRETS_KEY_FILE: join(dir, 'secrets.key'),
  });
  resetConfig();
  resetServices();
  resetPublisherClient();
});

after(async () => {
  await bus?.stop();
  await table?.stop();
  resetPublisherClient();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfig();
  resetServices();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the stand-in stamps `time` as EventBridge does: ISO 8601 UTC, whole seconds', () => {
  assert.equal(eventBridgeTime(new Date('2026-03-01T10:00:07.999Z')), '2026-03-01T10:00:07Z');
  assert.equal(eventBridgeTime(new Date('2026-03-01T10:00:07.000Z')), '2026-03-01T10:00:07Z');
  assert.match(eventBridgeTime(new Date()), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
});

test('an event without the publisher\'s millisecond gets the bus time: the entry\'s Time cut to the second', async () => {
  // What a publisher without the OCCURRED_AT detail sends: only the entry's Time.
  const { EventBridgeClient, PutEventsCommand } = await import('@aws-sdk/client-eventbridge');
  const client = new EventBridgeClient({ region: 'us-east-1' });
  try {
    const out = await client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: 'wps-events',
            Source: 'wps.jobs',
            DetailType: 'job.completed',
            Time: new Date('2026-02-01T08:30:15.678Z'),
            Detail: JSON.stringify({ account_id: 'default', job_id: 'raw-job', workflow_id: null, status: 'COMPLETED' }),
          },
        ],
      }),
    );
    assert.equal(out.FailedEntryCount, 0);
  } finally {
    client.destroy();
  }
  await bus.idle();
  const raw = (await inboxList()).events.find((e) => e.payload.job_id === 'raw-job');
  assert.equal(raw?.created_at, '2026-02-01T08:30:15.000Z', 'the bus time has whole seconds');
});

test("one job's three events within one second list in order under second-precision bus times", async () => {
  const publisher = new EventBridgePublisher('wps-events');
  const T = (ms: number) => `2026-03-01T10:00:00.${String(ms).padStart(3, '0')}Z`;
  // Each job's stamps as the job record holds them when each event is emitted. J2's Lambda clocks
  // disagree (started "before" it was created): its in_progress moment stays at the creation time.
  const jobs: Record<string, Record<string, string>> = {
    J1: { createdAt: T(100), startedAt: T(100), finishedAt: T(250) },
    J2: { createdAt: T(300), startedAt: T(280), finishedAt: T(300) },
    J3: { createdAt: T(150), finishedAt: T(150) },
    J4: { createdAt: T(400), startedAt: T(400), finishedAt: T(400) },
  };
  const lifecycle: Record<string, [string, string][]> = {
    J1: [['job.scheduled', 'SCHEDULED'], ['job.in_progress', 'IN_PROGRESS'], ['job.completed', 'COMPLETED']],
    J2: [['job.scheduled', 'SCHEDULED'], ['job.in_progress', 'IN_PROGRESS'], ['job.failed', 'FAILED']],
    J3: [['job.scheduled', 'SCHEDULED'], ['job.stopped', 'STOPPED']],
    J4: [['job.scheduled', 'SCHEDULED'], ['job.in_progress', 'IN_PROGRESS'], ['job.completed', 'COMPLETED']],
  };
  // The record when the event is emitted: created, then started, then (an end) finished.
  const recordAt = (job: Record<string, string>, type: string) =>
    type === 'job.scheduled' ? { createdAt: job.createdAt! } : type === 'job.in_progress' ? { createdAt: job.createdAt!, startedAt: job.startedAt } : { createdAt: job.createdAt!, ...job };
  const sends: (() => Promise<void>)[] = [];
  for (const [jobId, steps] of Object.entries(lifecycle)) {
    for (const [type, status] of steps) {
      const detail = { account_id: 'default', job_id: jobId, workflow_id: null, status };
      sends.push(() => publisher.publish(type, detail, jobChangedAt(recordAt(jobs[jobId]!, type))));
    }
  }
  // Arrival order says nothing: ends first, then the rest, jobs interleaved backwards.
  for (const send of sends.reverse()) await send();
  await bus.idle();

  const mine = (await inboxList()).events.filter((e) => /^J\d$/.test(String(e.payload.job_id)));
  assert.deepEqual(
    mine.map((e) => `${e.payload.job_id} ${e.event_type} ${e.created_at.slice(20, 23)}`),
    [
      'J4 job.completed 400',
      'J4 job.in_progress 400',
      'J4 job.scheduled 400',
      'J2 job.failed 300',
      'J2 job.in_progress 300',
      'J2 job.scheduled 300',
      'J1 job.completed 250',
      'J3 job.stopped 150',
      'J3 job.scheduled 150',
      'J1 job.in_progress 100',
      'J1 job.scheduled 100',
    ],
    'newest first: by the publisher\'s millisecond, then scheduled < in_progress < end',
  );
  assert.deepEqual(mine[0]!.payload, { job_id: 'J4', workflow_id: null, status: 'COMPLETED' }, 'the ordering field stays out of the payload');
});

test('a redelivered event keeps its id; the ordering field never reaches the payload', async () => {
  const event = {
    id: 'evt-redelivered',
    'detail-type': 'job.in_progress',
    time: '2026-03-01T11:00:00Z',
    detail: { account_id: 'default', job_id: 'R1', workflow_id: null, status: 'IN_PROGRESS', occurred_at: '2026-03-01T11:00:00.640Z' },
  } as unknown as EventBridgeEvent<string, Record<string, unknown>>;
  await recordNotification(event);
  await recordNotification(structuredClone(event));
  const r1 = (await inboxList()).events.filter((e) => e.payload.job_id === 'R1');
  assert.equal(r1.length, 1);
  assert.equal(r1[0]!.created_at, '2026-03-01T11:00:00.640Z');
  assert.deepEqual(r1[0]!.payload, { job_id: 'R1', workflow_id: null, status: 'IN_PROGRESS' });
});
