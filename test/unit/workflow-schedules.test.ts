import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextRun, SCHEDULES } from '../../lambdas/domain/workflow-constants';

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
