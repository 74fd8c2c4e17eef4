// The job state machine's tasks (statemachines/job.asl.json via lambdas/state-machines.ts). Each is
// a thin call into JobService; errors propagate so the state machine's Retry/Catch apply.
import { jobService } from '../services/jobs';
import type { StepInput } from '../domain/jobs';
import { runNode } from '../domain/node-runner';
import { useNodeRunner } from '../services/jobs';

useNodeRunner(runNode);

export const acquireSlot = (input: StepInput) => jobService().acquireSlot(input);
export const processFile = (input: StepInput) => jobService().processFile(input);
export const recordFileFailure = (input: StepInput) => jobService().recordFileFailure(input);
export const finishJob = (input: StepInput) => jobService().finishJob(input);
export const failJob = (input: StepInput) => jobService().failJob(input);
