import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cronOf, nextRun, SCHEDULES } from '../../lambdas/domain/workflow-constants';
import { CreateWorkflow } from '../../lambdas/schemas/workflows';

const at = new Date('2026-11-21T10:07:30Z'); // a Saturday

test('next run of every schedule, strictly after the given time, in UTC', () => {
  const expected: Record<string, string> = {
    'every 15 minutes': '2026-11-21T10:15:00.000Z',
    'every hour': '2026-11-21T11:00:00.000Z',
    'every 2 hours': '2026-11-21T12:00:00.000Z',
    'every 4 hours': '2026-11-21T12:00:00.000Z',
    'every 6 hours': '2026-11-21T12:00:00.000Z',
    'every 8 hours': '2026-11-21T16:00:00.000Z',
    'every 10 hours': '2026-11-21T20:00:00.000Z',
    'every 12 hours': '2026-11-21T12:00:00.000Z',
    daily: '2026-11-22T00:00:00.000Z',
    weekly: '2026-11-22T00:00:00.000Z',
    monthly: '2026-12-01T00:00:00.000Z',
  };
  assert.deepEqual(Object.keys(expected).sort(), Object.keys(SCHEDULES).sort());
  for (const [s, iso] of Object.entries(expected)) assert.equal(nextRun(s, at).toISOString(), iso, s);
});

test('an exact boundary moves to the next one; month and year roll over', () => {
  assert.equal(nextRun('every 15 minutes', new Date('2026-11-21T10:15:00Z')).toISOString(), '2026-11-21T10:30:00.000Z');
  assert.equal(nextRun('every hour', new Date('2026-12-31T23:30:00Z')).toISOString(), '2027-01-01T00:00:00.000Z');
  assert.equal(nextRun('monthly', new Date('2026-12-15T00:00:00Z')).toISOString(), '2027-01-01T00:00:00.000Z');
  assert.equal(nextRun('weekly', new Date('2026-11-22T00:00:00Z')).toISOString(), '2026-11-29T00:00:00.000Z');
  // cron entries match: weekly runs on Sundays (day 0), monthly on the 1st
  assert.equal(SCHEDULES.weekly, '0 0 * * 0');
  assert.equal(nextRun('weekly', at).getUTCDay(), 0);
});

test('a crontab expression is a schedule too (the platform types schedule as a free string), read in UTC', () => {
  assert.equal(nextRun('*/5 * * * *', at).toISOString(), '2026-11-21T10:10:00.000Z');
  assert.equal(nextRun('0 9 * * MON-FRI', at).toISOString(), '2026-11-23T09:00:00.000Z'); // Saturday → Monday
  assert.equal(nextRun('30 2 1 * *', at).toISOString(), '2026-12-01T02:30:00.000Z');
  assert.equal(nextRun('@hourly', at).toISOString(), '2026-11-21T11:00:00.000Z');
  // day-of-month and day-of-week are OR-ed, as in Vixie cron: the 1st, the 15th, or any Friday
  assert.equal(nextRun('0 0 1,15 * 5', at).toISOString(), '2026-11-27T00:00:00.000Z');
});

test('the create/update schema takes crontab expressions and refuses what never runs or is not cron', () => {
  const ok = (schedule: string) => CreateWorkflow.safeParse({ name: 'x', workflow_type: 'basic', schedule }).success;
  for (const s of ['daily', 'every 15 minutes', '*/5 * * * *', '0 9 * * MON-FRI', '15 3 * * 1-5', '@weekly']) assert.ok(ok(s), s);
  // seconds or years (the tick is one minute), out of range, never firing, words
  for (const s of ['* * * * * *', '0 0 * * * 2027', '61 * * * *', '0 0 30 2 *', 'hourly-ish', 'every 3 hours', '']) assert.ok(!ok(s), s);
  assert.equal(cronOf('hourly-ish'), undefined);
  assert.equal(cronOf('weekly'), '0 0 * * 0');
  assert.equal(cronOf('*/5 * * * *'), '*/5 * * * *'); // echoed as given
});
