// The DynamoDB emulator launcher: dynalite on its own thread, on a free port, its LevelDB kept under
// dataDir across a stop and a start (what `npm start` relies on), and an idempotent stop; its table
// records kept in memory but never stale, and reads batched but each answered with its own item.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchGetItemCommand, CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand, QueryCommand, ResourceNotFoundException, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { startDynamo } from '../../local/emulators/dynamodb';

const dir = mkdtempSync(join(tmpdir(), 'wps-dynamo-emulator-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const client = (endpoint: string) => new DynamoDBClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });

/** Runs `fn` against an emulator started on `dir/name`, with a client; both closed after. */
async function withDynamo(name: string, fn: (c: DynamoDBClient) => Promise<void>): Promise<void> {
  const ddb = await startDynamo({ dataDir: join(dir, name) });
  const c = client(ddb.endpoint);
  try {
    await fn(c);
  } finally {
    c.destroy();
    await ddb.stop();
  }
}

/** The table's status, or undefined once it is gone. */
const status = (c: DynamoDBClient, name: string) =>
  c.send(new DescribeTableCommand({ TableName: name })).then(
    (d) => d.Table?.TableStatus,
    (err) => {
      if (err instanceof ResourceNotFoundException) return undefined;
      throw err;
    },
  );

/** Waits (bounded) until the table's status is `want` (dynalite answers CreateTable/DeleteTable before they finish). */
async function until(c: DynamoDBClient, name: string, want: string | undefined) {
  for (let i = 0; i < 250 && (await status(c, name)) !== want; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(await status(c, name), want, `table ${name}`);
}

async function table(c: DynamoDBClient, name: string, key: string) {
  await c.send(new CreateTableCommand({
    TableName: name,
    AttributeDefinitions: [{ AttributeName: key, AttributeType: 'S' }],
    KeySchema: [{ AttributeName: key, KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  }));
  await until(c, name, 'ACTIVE');
}

test('dynalite: two instances get different free ports; items persist across a stop and a start on the same directory', async () => {
  const data = join(dir, 'kept');
  const a = await startDynamo({ dataDir: data });
  const b = await startDynamo({ dataDir: join(dir, 'other') });
  try {
    assert.notEqual(a.endpoint, b.endpoint);
    assert.match(a.endpoint, /^http:\/\/127\.0\.0\.1:\d+$/);
    const c = client(a.endpoint);
    await table(c, 'kept', 'PK');
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

test('dynalite: a table deleted and created again with another key is seen as it is now, not as it was read before', async () =>
  withDynamo('tables', async (c) => {
    await table(c, 'again', 'PK');
    await c.send(new PutItemCommand({ TableName: 'again', Item: { PK: { S: 'a' } } }));
    assert.ok((await c.send(new GetItemCommand({ TableName: 'again', Key: { PK: { S: 'a' } } }))).Item);
    await c.send(new DeleteTableCommand({ TableName: 'again' }));
    await until(c, 'again', undefined);
    await assert.rejects(c.send(new GetItemCommand({ TableName: 'again', Key: { PK: { S: 'a' } } })), ResourceNotFoundException);
    await table(c, 'again', 'id');
    await c.send(new PutItemCommand({ TableName: 'again', Item: { id: { S: 'b' } } }));
    assert.equal((await c.send(new GetItemCommand({ TableName: 'again', Key: { id: { S: 'b' } } }))).Item?.id?.S, 'b');
  }));

test('dynalite: reads issued together are each answered with their own item (BatchGetItem and parallel GetItems)', async () =>
  withDynamo('reads', async (c) => {
    await table(c, 'reads', 'PK');
    // every third key is absent
    const keys = Array.from({ length: 90 }, (_, i) => `k${i}`);
    await Promise.all(keys.filter((_, i) => i % 3).map((k) => c.send(new PutItemCommand({ TableName: 'reads', Item: { PK: { S: k }, v: { S: `value of ${k}` } } }))));
    const got = await c.send(new BatchGetItemCommand({ RequestItems: { reads: { Keys: keys.map((k) => ({ PK: { S: k } })) } } }));
    const items = got.Responses!.reads!.map((i) => [i.PK!.S!, i.v!.S!]).sort();
    assert.deepEqual(items, keys.filter((_, i) => i % 3).map((k) => [k, `value of ${k}`]).sort());
    const each = await Promise.all(keys.map((k) => c.send(new GetItemCommand({ TableName: 'reads', Key: { PK: { S: k } } }))));
    each.forEach((r, i) => assert.equal(r.Item?.v?.S, i % 3 ? `value of ${keys[i]}` : undefined, keys[i]));
  }));

test('dynalite: item reads share the kept table record, yet a table action still changes its own copy (UpdateTable, DeleteTable)', async () =>
  withDynamo('shared', async (c) => {
    await table(c, 'shared', 'PK');
    await Promise.all(['a', 'b', 'c'].map((k) => c.send(new PutItemCommand({ TableName: 'shared', Item: { PK: { S: k } } }))));
    // item actions read the table record many times (kept, shared between them)
    const keys = ['a', 'b', 'c', 'd'].map((k) => ({ PK: { S: k } }));
    const batch = () => c.send(new BatchGetItemCommand({ RequestItems: { shared: { Keys: keys } } }));
    for (let i = 0; i < 5; i++) assert.equal((await batch()).Responses!.shared!.length, 3);
    await c.send(new UpdateTableCommand({ TableName: 'shared', BillingMode: 'PROVISIONED', ProvisionedThroughput: { ReadCapacityUnits: 7, WriteCapacityUnits: 3 } }));
    await until(c, 'shared', 'ACTIVE');
    const described = (await c.send(new DescribeTableCommand({ TableName: 'shared' }))).Table!;
    assert.equal(described.BillingModeSummary?.BillingMode, 'PROVISIONED');
    assert.equal(described.ProvisionedThroughput?.ReadCapacityUnits, 7);
    assert.deepEqual(described.KeySchema, [{ AttributeName: 'PK', KeyType: 'HASH' }]);
    assert.equal((await batch()).Responses!.shared!.length, 3);
    await c.send(new DeleteTableCommand({ TableName: 'shared' }));
    await until(c, 'shared', undefined);
  }));
