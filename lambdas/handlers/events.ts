// EventBridge targets: persist job events as notifications; release what an abnormally ended
// job execution held.
import type { EventBridgeEvent } from 'aws-lambda';
import { jobService, notificationRecorder } from '../services/jobs';
import { eventMoment } from '../events';
import { log } from '../logger';

export async function recordNotification(event: EventBridgeEvent<string, Record<string, unknown>>): Promise<void> {
  const { at, detail } = eventMoment(event);
  const id = await notificationRecorder().record(event.id, event['detail-type'], detail, at);
  log.info('notification recorded', { id, eventType: event['detail-type'], jobId: event.detail.job_id });
}

interface ExecutionStatusChange {
  executionArn: string;
  status: string;
  input?: string;
  error?: string;
  cause?: string;
}

export async function jobExecutionEnded(event: EventBridgeEvent<string, ExecutionStatusChange>): Promise<void> {
  const input = JSON.parse(event.detail.input ?? '{}') as { accountId?: string; jobId?: string };
  if (!input.accountId || !input.jobId) return;
  const reason = `job execution ${event.detail.status.toLowerCase()}${event.detail.cause ? `: ${event.detail.cause}` : ''}`;
  await jobService().failJob({ accountId: input.accountId, jobId: input.jobId, error: { Error: event.detail.error, Cause: reason } });
  log.warn('job execution ended abnormally; slot released', { jobId: input.jobId, status: event.detail.status });
}
