// The job state machine's tasks (statemachines/job.asl.json via lambdas/state-machines.ts). Each is
// a thin call into JobService; errors propagate so the state machine's Retry/Catch apply.
import { services } from '../services';
import type { StepInput } from '../domain/jobs';

export const acquireSlot = (input: StepInput) => services().jobs.acquireSlot(input);
export const processFile = (input: StepInput) => services().jobs.processFile(input);
export const recordFileFailure = (input: StepInput) => services().jobs.recordFileFailure(input);
export const finishJob = (input: StepInput) => services().jobs.finishJob(input);
export const failJob = (input: StepInput) => services().jobs.failJob(input);
