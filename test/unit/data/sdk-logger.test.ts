// The AWS SDK clients' logger (lambdas/adapters/aws-clients.ts): with it the SDK no longer walks each
// command's input (and output) a second time to build a log line nobody keeps, and its warnings reach
// the service's log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { sdkLogger } from '../../../lambdas/adapters/aws-clients';

/** How often a GetItem's key attribute is read by a client built with `logger` (undefined: the SDK's default). */
async function keyReads(endpoint: string, logger: typeof sdkLogger | undefined): Promise<number> {
  const client = new DynamoDBClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, ...(logger ? { logger } : {}) });
  let reads = 0;
  const value = { S: 'k' };
  const key = Object.defineProperty({}, 'PK', { enumerable: true, get: () => (reads++, value) });
  try {
    await client.send(new GetItemCommand({ TableName: 't', Key: key as Record<string, { S: string }> }));
  } finally {
    client.destroy();
  }
  return reads;
}

test('with the service\'s logger the SDK reads a command\'s input once fewer (no log line is built after it); warnings reach the service log', async () => {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const quiet = await keyReads(endpoint, sdkLogger);
    const default_ = await keyReads(endpoint, undefined);
    assert.ok(quiet >= 1, 'the request itself reads the key');
    assert.ok(quiet < default_, `reads with the service logger ${quiet}, with the SDK's default ${default_}`);
  } finally {
    server.close();
  }

  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    sdkLogger.warn('socket usage at capacity=%d', 50);
  } finally {
    process.stderr.write = write;
  }
  const line = JSON.parse(lines.join('').trim()) as { level: string; msg: string; detail: string };
  assert.deepEqual([line.level, line.msg, line.detail], ['warn', 'AWS SDK warning', 'socket usage at capacity=50']);
});
