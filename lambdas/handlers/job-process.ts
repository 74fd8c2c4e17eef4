// The heavy task of the job state machine: one file through the node chain. The only handler that
// bundles the processing engines (wired here through useNodeRunner).
import { jobService, useNodeRunner } from '../services/jobs';
import type { StepInput } from '../domain/job-step-input';
import { runNode } from '../domain/node-runner';
import { jobStep } from './job-log';

useNodeRunner(runNode);

export const processFile = jobStep('processFile', (input: StepInput) => jobService().processFile(input));
