// Orchestrator on Step Functions: one execution of the job state machine per job.
import { SFNClient, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import type { Orchestrator } from '../domain/ports';
import { config } from '../config';
import { sdkLogger } from './aws-clients';
import { log } from '../logger';

let client: SFNClient | undefined;
const sfn = () => (client ??= new SFNClient({ logger: sdkLogger, region: config().AWS_REGION }));

export class SfnOrchestrator implements Orchestrator {
  constructor(private readonly stateMachineArn: string) {}

  async startJob(jobId: string, input: Record<string, unknown>): Promise<string> {
    const started = Date.now();
    const out = await sfn().send(
      new StartExecutionCommand({ stateMachineArn: this.stateMachineArn, name: jobId, input: JSON.stringify(input) }),
    );
    log.debug('job execution started', { job_id: jobId, ms: Date.now() - started });
    return out.executionArn!;
  }

  async stopJob(executionId: string, cause: string): Promise<void> {
    try {
      await sfn().send(new StopExecutionCommand({ executionArn: executionId, cause }));
    } catch (err) {
      // An execution that already ended cannot be stopped; the job record is what counts.
      if ((err as Error).name !== 'ExecutionDoesNotExist') throw err;
    }
  }
}

export function resetOrchestratorClient(): void {
  client?.destroy();
  client = undefined;
}
