// The DynamoDB emulator launcher: dynalite on its own thread, on a free port, its LevelDB kept under
// dataDir across a stop and a start (what `npm start` relies on), and an idempotent stop.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { startDynamo } from '../../local/emulators/dynamodb';

const dir = mkdtempSync(join(tmpdir(), 'wps-dynamo-emulator-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const client = (endpoint: string) => new DynamoDBClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });

test('dynalite: two instances get different free ports; items persist across a stop and a start on the same directory', async () => {
  const data = join(dir, 'kept');
  const a = await startDynamo({ dataDir: data });
  const b = await startDynamo({ dataDir: join(dir, 'other') });
  try {
    assert.notEqual(a.endpoint, b.endpoint);
    assert.match(a.endpoint, /^http:\/\/127\.0\.0\.1:\d+$/);
    const c = client(a.endpoint);
    await c.send(new CreateTableCommand({
      TableName: 'kept',
      AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }));
    await c.send(new PutItemCommand({ TableName: 'kept', Item: { PK: { S: 'k' }, v: { S: 'persisted' } } }));
    c.destroy();
  } finally {
    await a.stop();
    await a.stop();
    await b.stop();
  }
  // a LevelDB left open by the first thread would refuse this start (its lock is held)
  const again = await startDynamo({ dataDir: data });
  try {
    const c = client(again.endpoint);
    const got = await c.send(new GetItemCommand({ TableName: 'kept', Key: { PK: { S: 'k' } } }));
    assert.equal(got.Item?.v?.S, 'persisted');
    c.destroy();
  } finally {
    await again.stop();
  }
});

test('dynalite answers while the thread that started it is busy (it runs on its own thread)', async () => {
  const ddb = await startDynamo({ dataDir: join(dir, 'busy') });
  try {
    // execFileSync blocks this thread until the child has its answer: an emulator on this thread
    // could not answer it, and the child would time out
    const script = `
      const { DynamoDBClient, ListTablesCommand } = require('@aws-sdk/client-dynamodb');
      new DynamoDBClient({ region: 'us-east-1', endpoint: process.argv[1], credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 })
        .send(new ListTablesCommand({})).then((r) => console.log(JSON.stringify(r.TableNames)));`;
    const out = execFileSync(process.execPath, ['-e', script, ddb.endpoint], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, NODE_OPTIONS: '' } });
    assert.equal(out.trim(), '[]');
  } finally {
    await ddb.stop();
  }
});
