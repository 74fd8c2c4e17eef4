// What each step of the job state machine receives (statemachines/job.asl.json): the job, and for
// the per-file steps the file's manifest entry and a Catch's error. Shared by the job service (jobs.ts),
// the per-file run (job-file-run.ts) and the step handlers.
import type { JobFile } from './job-manifest';
import type { StepError } from './step-error';

export interface StepInput {
  accountId: string;
  jobId: string;
  /** The previous AcquireSlot result, while waiting for a slot. */
  gate?: { attempt?: number };
  /** ProcessFile / RecordFileFailure: the file's manifest entry (the Map's item). */
  file?: JobFile;
  /** Jobs started before manifests: the file's id in the job item's `files`. */
  fileId?: string;
  error?: StepError;
}
