// Locally, state machine executions live in this process: when the service stops, running jobs stop
// with it. At the next start every job still SCHEDULED or IN_PROGRESS gets a new execution; node
// outputs already in S3 are reused, so the job resumes where it was. (On AWS executions outlive
// any process, and the execution-ended rule handles crashes.) Stopped (cancelled), completed and
// failed jobs are never resumed. A resumed job cannot crash-loop: each start of a file's processing
// is counted before it runs (domain/job-files.ts), and a file that has used up MAX_FILE_ATTEMPTS
// starts is recorded as failed instead of being run again.
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { SfnOrchestrator } from '../lambdas/adapters/sfn-orchestrator';
import { DynamoStore } from '../lambdas/adapters/dynamo-store';
import { config } from '../lambdas/config';
import { ENTITY } from '../lambdas/data/keys';

export async function resumeUnfinishedJobs(tableName: string): Promise<number> {
  const arn = config().JOB_STATE_MACHINE_ARN;
  if (!arn) return 0;
  const ddb = new DynamoDBClient({ region: config().AWS_REGION });
  const orchestrator = new SfnOrchestrator(arn);
  const store = new DynamoStore(tableName);
  let resumed = 0;
  let start: Record<string, any> | undefined;
  try {
    do {
      const page = await ddb.send(
        new ScanCommand({
          TableName: tableName,
          FilterExpression: 'entity = :job AND #s IN (:a, :b)',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':job': { S: ENTITY.job }, ':a': { S: 'SCHEDULED' }, ':b': { S: 'IN_PROGRESS' } },
          ExclusiveStartKey: start,
        }),
      );
      for (const raw of page.Items ?? []) {
        const job = unmarshall(raw);
        const accountId = String(job.PK).replace(/^ACCT#/, '');
        const executionArn = await orchestrator.startJob(`${job.id}-resume-${Date.now()}`, { accountId, jobId: job.id });
        await store.update({ PK: job.PK, SK: job.SK }, { set: { executionArn } });
        resumed++;
      }
      start = page.LastEvaluatedKey;
    } while (start);
  } finally {
    ddb.destroy();
  }
  return resumed;
}
