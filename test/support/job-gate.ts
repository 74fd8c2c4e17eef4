// The account's run-slot counter (domain/job-gate.ts), read from the local stack's table: a job that
// ended, however it ended, must have given its slot back.
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { TestStack } from './local-stack';

export async function gateRunning(stack: TestStack): Promise<string | undefined> {
  const ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: stack.endpoints.dynamodb });
  try {
    const gate = await ddb.send(new GetItemCommand({ TableName: stack.env.TABLE_NAME, Key: { PK: { S: 'ACCT#default' }, SK: { S: 'GATE' } } }));
    return gate.Item?.running?.N;
  } finally {
    ddb.destroy();
  }
}
