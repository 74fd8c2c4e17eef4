// The light tasks of the job state machine (statemachines/job.asl.json via lambdas/state-machines.ts):
// the slot gate, the file manifest (a source run lists its source there), failure recording, finish and fail. Each is a thin call into JobService; errors
// propagate so the state machine's Retry/Catch apply. File processing, which needs the engines,
// lives in job-process.ts so these functions stay small.
import { jobService } from '../services/jobs';
import type { StepInput } from '../domain/job-step-input';
import { jobStep } from './job-log';

export const acquireSlot = jobStep('acquireSlot', (input: StepInput) => jobService().acquireSlot(input));
export const planFiles = jobStep('planFiles', (input: StepInput) => jobService().planFiles(input));
export const recordFileFailure = jobStep('recordFileFailure', (input: StepInput) => jobService().recordFileFailure(input));
export const finishJob = jobStep('finishJob', (input: StepInput) => jobService().finishJob(input));
export const failJob = jobStep('failJob', (input: StepInput) => jobService().failJob(input));
