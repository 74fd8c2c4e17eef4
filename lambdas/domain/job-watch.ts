// A job's running step stops when the job does. Stopping a Step Functions execution (a cancel) does
// not stop a Lambda already running one of its tasks, on AWS as here: the task reads its job's status
// every JOB_STATUS_POLL_MS while it works and aborts once the job has left IN_PROGRESS (the partition
// sandbox kills the process partitioning the document), and it reads it again before each write that
// would outlive the job (a later node's output, the destination write).
import type { KeyValueStore } from './ports';
import { keys } from '../data/keys';
import { log } from '../logger';

export const JOB_STATUS_POLL_MS = 2000;
/** A step's outcome when its job stopped under it (cancelled, or failed elsewhere): neither done nor failed. */
export const JOB_NOT_RUNNING = 'job is no longer running';

/** The reason a step's work stops: its job is no longer running (cancelled, or failed elsewhere). */
export class JobNotRunning extends Error {
  override readonly name = 'JobNotRunning';
  constructor(readonly status: string) {
    super(JOB_NOT_RUNNING);
  }
}

export interface JobWatch {
  /** Aborted (reason: JobNotRunning) once a poll finds the job no longer running. */
  readonly signal: AbortSignal;
  /** Reads the status now: throws JobNotRunning (and aborts) when the job is no longer running. */
  check(): Promise<void>;
  stop(): void;
}

export function watchJob(store: KeyValueStore, accountId: string, jobId: string, everyMs = JOB_STATUS_POLL_MS): JobWatch {
  const controller = new AbortController();
  const read = async (): Promise<void> => {
    const job = await store.get(keys.job(accountId, jobId));
    const status = String(job?.status ?? 'DELETED');
    if (status !== 'IN_PROGRESS' && !controller.signal.aborted) controller.abort(new JobNotRunning(status));
  };
  const timer = setInterval(() => {
    // a failed poll changes nothing: the next one, or the check before the next write, reads again
    read().catch((err) => log.debug('job status poll failed', { job_id: jobId, error: (err as Error)?.message }));
  }, everyMs);
  timer.unref();
  return {
    signal: controller.signal,
    check: async () => {
      await read();
      if (controller.signal.aborted) throw controller.signal.reason as Error;
    },
    stop: () => clearInterval(timer),
  };
}
