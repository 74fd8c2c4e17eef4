// State machines: the ASL file and the Lambda behind each of its `${Placeholder}` task resources.
// Read by the CDK (DefinitionSubstitutions with the function ARNs) and by the local Step Functions
// stand-in (which runs the very same file, each task mapped to the same handler).

export interface StateMachineDefinition {
  name: string;
  /** Path from the repository root. */
  definitionFile: string;
  /** Environment variable through which starters learn the state machine ARN. */
  arnEnv: string;
  /**
   * Placeholders that are not tasks: resources the deployment names (BucketName: the service bucket,
   * where the file Map reads its manifest and writes its results).
   */
  resources?: readonly 'BucketName'[];
  /** Placeholder → handler under lambdas/handlers. */
  tasks: Record<string, { file: string; export: string; timeoutSeconds: number; memoryMb: number }>;
}

export const STATE_MACHINES: StateMachineDefinition[] = [
  {
    name: 'job',
    definitionFile: 'statemachines/job.asl.json',
    arnEnv: 'JOB_STATE_MACHINE_ARN',
    resources: ['BucketName'],
    tasks: {
      AcquireSlotFunctionArn: { file: 'job-steps', export: 'acquireSlot', timeoutSeconds: 30, memoryMb: 256 },
      PlanFilesFunctionArn: { file: 'job-steps', export: 'planFiles', timeoutSeconds: 900, memoryMb: 1024 },
      ProcessFileFunctionArn: { file: 'job-process', export: 'processFile', timeoutSeconds: 900, memoryMb: 3008 },
      PartitionPageRangeFunctionArn: { file: 'job-pages', export: 'partitionPageRange', timeoutSeconds: 900, memoryMb: 3008 },
      MergePagesFunctionArn: { file: 'job-pages', export: 'mergePages', timeoutSeconds: 300, memoryMb: 2048 },
      RecordFileFailureFunctionArn: { file: 'job-steps', export: 'recordFileFailure', timeoutSeconds: 30, memoryMb: 256 },
      FinishJobFunctionArn: { file: 'job-steps', export: 'finishJob', timeoutSeconds: 30, memoryMb: 256 },
      FailJobFunctionArn: { file: 'job-steps', export: 'failJob', timeoutSeconds: 30, memoryMb: 256 },
    },
  },
];
