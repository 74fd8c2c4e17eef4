// Waiting for a job inside one tool call: polls job details, sends an MCP progress notification
// whenever the files done change (when the client gave a progress token), and returns the final or
// latest state with the states seen on the way, so that a client whose response does not stream
// (JSON mode, as on AWS) still learns what happened while it waited.
import { jobService } from '../services/jobs';
import type { McpContext, ToolExtra } from './context';
import { sleep, waitBudgetMs } from './waiting';

const POLL_MS = 1500;
const ENDED = new Set(['SUCCESS', 'COMPLETED_WITH_ERRORS', 'STOPPED', 'FAILED']);

type Details = Awaited<ReturnType<ReturnType<typeof jobService>['details']>>;

interface Seen {
  at: string;
  processing_status: string;
  files: Details['files'];
}

function describe(d: Details): string {
  const f = d.files;
  return `${d.processing_status}: ${f.done} of ${f.total} files done, ${f.failed} failed, ${f.in_progress} in progress`;
}

export async function waitForJob(ctx: McpContext, jobId: string, timeoutSeconds: number, extra: ToolExtra) {
  const svc = jobService();
  const until = Date.now() + waitBudgetMs(ctx, timeoutSeconds);
  const token = extra._meta?.progressToken;
  const seen: Seen[] = [];
  let last = '';
  let sentProgress = -1;
  let details = await svc.details(ctx.principal, jobId);
  for (;;) {
    const key = `${details.processing_status}|${details.files.done}|${details.files.failed}|${details.files.in_progress}|${details.files.total}`;
    if (key !== last) {
      last = key;
      seen.push({ at: new Date().toISOString(), processing_status: details.processing_status, files: details.files });
      // -- the protocol wants progress to grow with each notification: a state change without a
      // -- finished file is told in the result's `seen`, not notified --
      const progress = details.files.done + details.files.failed;
      if (token !== undefined && progress > sentProgress) {
        sentProgress = progress;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress, ...(details.files.total ? { total: details.files.total } : {}), message: describe(details) },
        });
      }
    }
    if (ENDED.has(details.processing_status) || Date.now() + POLL_MS >= until || extra.signal.aborted) break;
    await sleep(POLL_MS, extra.signal);
    details = await svc.details(ctx.principal, jobId);
  }
  const ended = ENDED.has(details.processing_status);
  return {
    ended,
    ...(ended ? {} : { note: 'The job has not ended yet: call wait_for_job again, or get_job later.' }),
    progress_streamed: ctx.streaming && token !== undefined,
    job: await svc.get(ctx.principal, jobId),
    details,
    seen,
  };
}
