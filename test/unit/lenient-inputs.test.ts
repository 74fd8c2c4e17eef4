// Inputs the platform accepts (pydantic's lax datetime) that this service used to refuse with a 422.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NotificationListQuery, MarkReadRequest, UnreadCountQuery } from '../../lambdas/schemas/notifications';
import { JobListQuery } from '../../lambdas/schemas/jobs';
import { CreateChannelRequest } from '../../lambdas/schemas/channels';
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

test('free strings on the platform are not enums here: job status filter, notification workflow_id', () => {
  assert.equal(JobListQuery.parse({ status: 'cancelled' }).status, 'CANCELLED'); // matches no job: an empty list
  assert.equal(JobListQuery.parse({ status: 'in_progress' }).status, 'IN_PROGRESS');
  assert.equal(NotificationListQuery.parse({ workflow_id: 'wf-legacy-1' }).workflow_id, 'wf-legacy-1');
  assert.equal(UnreadCountQuery.parse({ workflow_id: 'wf-legacy-1' }).workflow_id, 'wf-legacy-1');
  assert.ok(!NotificationListQuery.safeParse({ workflow_id: 'x'.repeat(101) }).success, 'still bounded');
});

test('a channel body without channel_type (a const default on the platform) is read by its fields', () => {
  const hook = CreateChannelRequest.parse({ url: 'https://hooks.example.com/x', event_types: ['job.failed'] });
  assert.equal(hook.channel_type, 'webhook');
  const mail = CreateChannelRequest.parse({ email_config: { recipient_email: 'ops@example.com' }, event_types: ['job.failed'] });
  assert.equal(mail.channel_type, 'email');
  assert.ok(!CreateChannelRequest.safeParse({ channel_type: 'sms', event_types: ['job.failed'] }).success);
  assert.ok(!CreateChannelRequest.safeParse({ event_types: ['job.failed'] }).success, 'a webhook still needs its url');
});
