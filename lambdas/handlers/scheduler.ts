// The one-minute tick (lambdas/schedules.ts): runs every scheduled workflow that is due, then goes on
// forgetting the source-document state of deleted workflows.
import type { ScheduledEvent } from 'aws-lambda';
import { workflowService } from '../services/jobs';
import { log } from '../logger';

/** Well inside the tick function's timeout (lib/schedules.ts) and its one-minute period. */
const SWEEP_BUDGET_MS = 20_000;

export async function tick(event?: Partial<ScheduledEvent>): Promise<{ launched: number; skipped: number }> {
  const now = event?.time ? new Date(event.time) : new Date();
  const results = await workflowService().runDue(now);
  for (const r of results) {
    if (r.jobId) log.info('scheduled workflow run started', { workflowId: r.workflowId, jobId: r.jobId });
    else log.warn('scheduled workflow run skipped', { workflowId: r.workflowId, reason: r.skipped });
  }
  // Deleted workflows whose source-document state outlasted the delete request (lambdas/domain/source-state.ts).
  const swept = await workflowService().sweepDeletedState(SWEEP_BUDGET_MS);
  if (swept.deleted || swept.pending) log.info('deleted workflows: source-document state forgotten', swept);
  return { launched: results.filter((r) => r.jobId).length, skipped: results.filter((r) => r.skipped).length };
}
