// The one-minute tick (lambdas/schedules.ts): runs every scheduled workflow that is due.
import type { ScheduledEvent } from 'aws-lambda';
import { workflowService } from '../services/jobs';
import { log } from '../logger';

export async function tick(event?: Partial<ScheduledEvent>): Promise<{ launched: number; skipped: number }> {
  const now = event?.time ? new Date(event.time) : new Date();
  const results = await workflowService().runDue(now);
  for (const r of results) {
    if (r.jobId) log.info('scheduled workflow run started', { workflowId: r.workflowId, jobId: r.jobId });
    else log.warn('scheduled workflow run skipped', { workflowId: r.workflowId, reason: r.skipped });
  }
  return { launched: results.filter((r) => r.jobId).length, skipped: results.filter((r) => r.skipped).length };
}
