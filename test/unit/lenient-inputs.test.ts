// Inputs the platform accepts (pydantic's lax datetime) that this service used to refuse with a 422.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NotificationListQuery, MarkReadRequest } from '../../lambdas/schemas/notifications';
import { WorkflowListQuery } from '../../lambdas/schemas/workflows';

test('timestamps without a zone are UTC; dates alone are midnight UTC; offsets are normalized to Z', () => {
  const since = (v: string) => NotificationListQuery.parse({ since: v }).since;
  assert.equal(since('2026-01-10T12:00:08'), '2026-01-10T12:00:08.000Z');
  assert.equal(since('2026-01-10 12:00'), '2026-01-10T12:00:00.000Z');
  assert.equal(since('2026-01-10'), '2026-01-10T00:00:00.000Z');
  assert.equal(since('2026-01-10T13:00:08.5+01:00'), '2026-01-10T12:00:08.500Z');
  assert.equal(MarkReadRequest.parse({ before: '2026-01-10T12:00:08' }).before, '2026-01-10T12:00:08.000Z');
  // workflow filters compare with stored ISO strings: an offset must not compare as text
  const q = WorkflowListQuery.parse({ created_since: '2026-01-10T13:00:00+01:00', created_before: '2026-01-11' });
  assert.equal(q.created_since, '2026-01-10T12:00:00.000Z');
  assert.equal(q.created_before, '2026-01-11T00:00:00.000Z');
});

test('what is not a timestamp is still a 422 at its field', () => {
  for (const bad of ['yesterday', '2026-02-30', '2026-13-01T00:00:00', '2026-01-10T25:00:00', '2026-01-10T12:00:00+25:00', '']) {
    const r = NotificationListQuery.safeParse({ since: bad });
    assert.ok(!r.success, bad);
    assert.deepEqual(r.error.issues[0]!.path, ['since']);
  }
});
