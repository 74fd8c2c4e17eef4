// Creates the resources the CDK stack would create, on the local emulators: the table (from the
// shared table definition), the bucket, and each work queue with its dead-letter queue.
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { TABLE_DEFINITION } from '../lambdas/data/table-definition';
import { QUEUES } from '../lambdas/queues';

export async function ensureTable(tableName: string, region: string): Promise<void> {
  const ddb = new DynamoDBClient({ region });
  try {
    const exists = await ddb
      .send(new DescribeTableCommand({ TableName: tableName }))
      .then(() => true)
      .catch((err: Error) => {
        if (err.name !== 'ResourceNotFoundException') throw err;
        return false;
      });
    if (!exists) await createTable(ddb, tableName);
    // dynalite (like DynamoDB) answers "Requested resource not found" until the table is ACTIVE,
    // which takes a few event-loop turns even with createTableMs 0 (longer on a loaded machine).
    for (const until = Date.now() + 30_000; ; ) {
      const d = await ddb.send(new DescribeTableCommand({ TableName: tableName })).catch(() => undefined);
      if (d?.Table?.TableStatus === 'ACTIVE') return;
      if (Date.now() > until) throw new Error(`table ${tableName} did not become ACTIVE within 30 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    ddb.destroy();
  }
}

async function createTable(ddb: DynamoDBClient, tableName: string): Promise<void> {
  const attrs = new Set<string>([TABLE_DEFINITION.partitionKey, TABLE_DEFINITION.sortKey]);
  for (const i of TABLE_DEFINITION.indexes) attrs.add(i.partitionKey).add(i.sortKey);
  try {
    await ddb.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...attrs].map((a) => ({ AttributeName: a, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE_DEFINITION.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_DEFINITION.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE_DEFINITION.indexes.map((i) => ({
          IndexName: i.name,
          KeySchema: [
            { AttributeName: i.partitionKey, KeyType: 'HASH' },
            { AttributeName: i.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
  } catch (err) {
    if (!(err instanceof ResourceInUseException)) throw err;
  }
}

export async function ensureBucket(bucket: string, region: string): Promise<void> {
  const s3 = new S3Client({ region, forcePathStyle: true });
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    s3.destroy();
  }
}

/** Creates every queue of lambdas/queues.ts with a DLQ; returns name → queue URL. */
export async function ensureQueues(prefix: string, region: string): Promise<Record<string, string>> {
  const sqs = new SQSClient({ region, useQueueUrlAsEndpoint: false });
  const urls: Record<string, string> = {};
  try {
    for (const q of QUEUES) {
      const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${prefix}-${q.name}-dlq` }));
      const dlqAttrs = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
      const main = await sqs.send(
        new CreateQueueCommand({
          QueueName: `${prefix}-${q.name}`,
          Attributes: {
            VisibilityTimeout: String(q.visibilityTimeoutSeconds),
            RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqAttrs.Attributes?.QueueArn, maxReceiveCount: q.maxReceiveCount }),
          },
        }),
      );
      urls[q.name] = main.QueueUrl!;
    }
  } finally {
    sqs.destroy();
  }
  return urls;
}
