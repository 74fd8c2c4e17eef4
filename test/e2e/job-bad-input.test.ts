// Bad input in a job's files (issue 12, "Bad input"), through the HTTP API and the real job ASL in the
// Step Functions stand-in. A workflow run lists three documents of an s3 source (the real AWS SDK
// against s3rver, through a proxy that misbehaves per document), then:
// - gone.txt: its manifest line names an object that is no longer there (S3 answers NoSuchKey);
// - slow.txt: its read never ends (the proxy trickles the body), so the file's ProcessFile task runs
//   past its Lambda timeout (12 s here, 900 s deployed) on every attempt: the retries time out too,
//   and the Catch records the file as failed with the timeout's reason (not Lambda's JSON payload);
// - a.txt is delivered as if nothing happened. The job finishes COMPLETED and frees its slot.
// And a job-level step that times out (issue 16, point 2): a listing that never answers runs the
// PlanFiles task past its Lambda timeout on every attempt; the job ends FAILED with the reason.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server, ServerResponse } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { S3RVER_CREDENTIALS, startS3 } from '../../local/emulators/s3';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { createProxiedS3Workflow, runWorkflowJob, startS3FaultProxy, type S3Fault } from '../support/s3-fault-proxy';
import { gateRunning } from '../support/job-gate';

const TASK_TIMEOUT_S = 12;
const PLAN_TIMEOUT_S = 4;
/** While set, a listing is never answered (kept open until the end of the file). */
let hangListing = false;
const hung = new Set<ServerResponse>();
let stack: TestStack;
let s3: Awaited<ReturnType<typeof startS3>>;
let proxy: Server;
let proxyUrl = '';
const base = mkdtempSync(join(tmpdir(), 'wps-bad-input-'));
const outDir = join(base, 'out');
/** Reads of slow.txt kept open (a byte a second), ended after the test. */
const trickling = new Set<{ res: ServerResponse; timer: NodeJS.Timeout }>();

/** A GET of gone.txt answers NoSuchKey, one of slow.txt a body that never ends; the rest goes to s3rver. */
const fault: S3Fault = (req, res, url) => {
  if (hangListing && req.method === 'GET' && url.searchParams.get('list-type') === '2') {
    hung.add(res);
    return true;
  }
  if (req.method === 'GET' && url.pathname.endsWith('/gone.txt')) {
    res.writeHead(404, { 'content-type': 'application/xml' }).end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Key>gone.txt</Key></Error>');
    return true;
  }
  if (req.method === 'GET' && url.pathname.endsWith('/slow.txt')) {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000000', etag: '"slow"' });
    const entry = { res, timer: setInterval(() => res.write('x'), 1000) };
    trickling.add(entry);
    res.on('close', () => {
      clearInterval(entry.timer);
      trickling.delete(entry);
    });
    return true;
  }
  return false;
};

before(async () => {
  if (NEEDS_LOCAL) return;
  s3 = await startS3({ dataDir: join(base, 's3'), buckets: ['tenant-docs'] });
  const raw = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  for (const k of ['a', 'gone', 'slow']) {
    await raw.send(new PutObjectCommand({ Bucket: 'tenant-docs', Key: `${k}.txt`, Body: `${k}\n\nA short paragraph about ${k}, long enough to be a narrative text element.\n` }));
  }
  raw.destroy();
  ({ server: proxy, url: proxyUrl } = await startS3FaultProxy(s3.endpoint, fault));
  stack = await startTestStack({ taskTimeouts: { ProcessFileFunctionArn: TASK_TIMEOUT_S, PlanFilesFunctionArn: PLAN_TIMEOUT_S } });
});
after(async () => {
  for (const res of hung) res.destroy();
  for (const t of trickling) t.res.destroy();
  proxy?.closeAllConnections();
  proxy?.close();
  await stack?.close();
  await s3?.stop();
  rmSync(base, { recursive: true, force: true });
});

test('a missing object and a file whose step times out fail alone with their reasons, after the retries; the job completes and frees its slot', { skip: NEEDS_LOCAL }, async () => {
  // a warm partition process: the good file's step is not charged a cold start against its 12 s
  const warm = new FormData();
  warm.append('files', new Blob(['Warm up.'], { type: 'text/plain' }), 'warm.txt');
  assert.equal((await stack.call('POST', '/general/v0/general', { raw: warm })).status, 200);

  const run = await runWorkflowJob(stack, await createProxiedS3Workflow(stack, proxyUrl, outDir, 'bad-input'), 240_000);
  const { job, details } = run;
  const jobId = job.id as string;
  const failed = [...run.failed].sort((x, y) => x.document.localeCompare(y.document));
  const why = JSON.stringify({ job, details, failed });
  assert.equal(job.status, 'COMPLETED', why);
  assert.equal(details.processing_status, 'COMPLETED_WITH_ERRORS', why);
  assert.deepEqual(failed.map((f) => f.document), ['gone.txt', 'slow.txt'], why);
  assert.match(failed[0]!.error, /^s3 source: GetObject on bucket "tenant-docs" failed: .*NoSuchKey/);
  assert.equal(failed[1]!.error, `Task timed out after ${TASK_TIMEOUT_S}.00 seconds`);
  assert.deepEqual(details.node_stats.map((n: { success: number; failure: number; in_progress: number }) => [n.success, n.failure, n.in_progress]), [[1, 2, 0]]);
  assert.ok(existsSync(join(outDir, 'a.txt.json')), 'the good document is delivered');
  assert.equal(existsSync(join(outDir, 'slow.txt.json')) || existsSync(join(outDir, 'gone.txt.json')), false);
  assert.equal(await gateRunning(stack), '0', 'the run slot is free again');

  // slow.txt was started three times (the first attempt and the state machine's two retries)
  const ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: stack.endpoints.dynamodb });
  try {
    const items = await ddb.send(new QueryCommand({
      TableName: stack.env.TABLE_NAME,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': { S: 'ACCT#default' }, ':sk': { S: `JOBFILE#${jobId}#` } },
    }));
    assert.deepEqual((items.Items ?? []).map((i) => Number(i.attempts?.N ?? 0)).sort(), [1, 1, 3], JSON.stringify(items.Items));
  } finally {
    ddb.destroy();
  }
});

test('a job whose planning step times out on every attempt ends FAILED with the reason; its slot frees, job.failed is said once', { skip: NEEDS_LOCAL }, async () => {
  hangListing = true;
  const { job } = await runWorkflowJob(stack, await createProxiedS3Workflow(stack, proxyUrl, outDir, 'plan-timeout'), 120_000);
  assert.equal(job.status, 'FAILED', JSON.stringify(job));
  assert.equal(hung.size, 3, 'planned three times: the first attempt and the two retries of PlanFiles');
  assert.equal(await gateRunning(stack), '0', 'the run slot is free again');
  await stack.eventsIdle();
  const events = (await stack.call('GET', '/api/v1/notifications?limit=100')).body.events as { event_type: string; payload: { job_id: string; message: string | null } }[];
  const mine = events.filter((e) => e.payload.job_id === job.id).reverse();
  assert.deepEqual(mine.map((e) => e.event_type), ['job.scheduled', 'job.in_progress', 'job.failed'], 'job.failed once: the execution-ended rule adds none');
  assert.equal(mine[2]!.payload.message, `Task timed out after ${PLAN_TIMEOUT_S}.00 seconds`);
});
