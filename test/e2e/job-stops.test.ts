// A job stopped while a file is being partitioned (issue 16, point 2), through the HTTP API and the
// real job ASL in the Step Functions stand-in. Stopping an execution does not stop a Lambda running
// one of its tasks (on AWS as here); the task watches its job (domain/job-watch.ts) and stops its own
// work: the sandbox process partitioning the document is killed, and no later node runs.
// - cancel: the job reads STOPPED at once, its slot frees, job.stopped is the last event; the execution
//   is aborted, and its execution-ended event does not turn STOPPED into FAILED;
// - the execution stopped from outside (StopExecution: an operator, or how a crash ends on AWS): the
//   execution-ended rule marks the job FAILED with the reason and frees the slot, job.failed once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { DescribeExecutionCommand, SFNClient, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { gateRunning } from '../support/job-gate';
import { sandboxBusyPids } from '../../lambdas/engine/partition/sandbox';

let stack: TestStack;
before(async () => {
  if (NEEDS_LOCAL) return;
  stack = await startTestStack();
});
after(async () => {
  await stack?.close();
});

/** 12 pages OCRed one by one: a file that runs for a minute or more, long enough to be stopped in the middle. */
const slowPdf = () => readFileSync(resolve(process.cwd(), '../shared/corpus/docs/fr_olap.pdf'));
const NODES = [
  { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'ocr_only' } },
  { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: {} },
];

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A two-node job on the slow PDF, once its file is being partitioned: the job, its file and the sandbox process at work. */
async function startSlowJob(): Promise<{ jobId: string; fileId: string; pid: number }> {
  const form = new FormData();
  form.append('request_data', JSON.stringify({ job_nodes: NODES }));
  form.append('input_files', new Blob([slowPdf()], { type: 'application/pdf' }), 'fr_olap.pdf');
  const created = await eventually(async () => {
    const r = await stack.call('POST', '/api/v1/jobs/', { raw: form });
    if (r.status === 429) return undefined; // launches are spaced a second apart
    assert.equal(r.status, 200, r.text);
    return r.body as { id: string; input_file_ids: string[] };
  }, 'a launch');
  const pid = await eventually(async () => {
    const stats = (await stack.call('GET', `/api/v1/jobs/${created.id}/details`)).body.node_stats[0];
    const busy = sandboxBusyPids();
    return stats.in_progress === 1 && busy.length === 1 ? busy[0] : undefined;
  }, 'the file to be partitioned', 120_000);
  return { jobId: created.id, fileId: created.input_file_ids[0]!, pid };
}

async function executionArn(jobId: string): Promise<string> {
  const ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: stack.endpoints.dynamodb });
  try {
    const item = await ddb.send(new GetItemCommand({ TableName: stack.env.TABLE_NAME, Key: { PK: { S: 'ACCT#default' }, SK: { S: `JOB#${jobId}` } } }));
    return item.Item!.executionArn!.S!;
  } finally {
    ddb.destroy();
  }
}

async function executionStatus(arn: string): Promise<string | undefined> {
  const sfn = new SFNClient({ region: 'us-east-1', endpoint: stack.endpoints.stepfunctions });
  try {
    return (await sfn.send(new DescribeExecutionCommand({ executionArn: arn }))).status;
  } finally {
    sfn.destroy();
  }
}

/** The job's notifications, oldest first, once every event delivery and every task (aborted ones included) has ended. */
async function settledEvents(jobId: string): Promise<string[]> {
  await stack.tasksIdle();
  await stack.eventsIdle();
  const r = await stack.call('GET', '/api/v1/notifications?limit=100');
  return (r.body.events as { event_type: string; payload: { job_id: string } }[])
    .filter((e) => e.payload.job_id === jobId)
    .map((e) => e.event_type)
    .reverse();
}

/** What the stopped job left: node figures, and whether any node's output exists for the file. */
async function leftovers(jobId: string, fileId: string) {
  const details = (await stack.call('GET', `/api/v1/jobs/${jobId}/details`)).body;
  const outputs = [];
  const job = (await stack.call('GET', `/api/v1/jobs/${jobId}`)).body;
  for (const f of job.output_node_files as { node_id: string; file_id: string }[]) {
    if (f.file_id !== fileId) continue;
    outputs.push((await stack.call('GET', `/api/v1/jobs/${jobId}/download?file_id=${fileId}&node_id=${f.node_id}`)).status);
  }
  return { stats: (details.node_stats as Record<string, unknown>[]).map((n) => [n.in_progress, n.success, n.failure]), outputs };
}

test('cancel while a file is partitioned: STOPPED at once, the partition process is killed, no later node runs, the slot frees, job.stopped last', { skip: NEEDS_LOCAL }, async () => {
  const { jobId, fileId, pid } = await startSlowJob();
  const arn = await executionArn(jobId);
  const cancel = await stack.call('POST', `/api/v1/jobs/${jobId}/cancel`);
  assert.equal(cancel.status, 200, cancel.text);
  assert.deepEqual(cancel.body, { id: jobId, status: 'cancelled', message: 'Job successfully cancelled.' });
  assert.equal((await stack.call('GET', `/api/v1/jobs/${jobId}`)).body.status, 'STOPPED');
  assert.equal(await gateRunning(stack), '0', 'the slot is given back by the cancel itself');

  // the work stops: the OCR would run on for a minute, the task polls its job every 2 s
  await eventually(async () => (alive(pid) ? undefined : true), `the partition process ${pid} to be killed`, 20_000);
  assert.equal(await executionStatus(arn), 'ABORTED');

  const events = await settledEvents(jobId);
  assert.deepEqual(events, ['job.scheduled', 'job.in_progress', 'job.stopped'], 'no job.failed from the aborted execution');
  const stopped = (await stack.call('GET', '/api/v1/notifications?limit=100')).body.events.find((e: { event_type: string; payload: { job_id: string } }) => e.payload.job_id === jobId && e.event_type === 'job.stopped');
  assert.equal(stopped.payload.message, 'Cancelled by the user.');
  const job = (await stack.call('GET', `/api/v1/jobs/${jobId}`)).body;
  assert.equal(job.status, 'STOPPED', 'the execution-ended rule leaves a cancelled job stopped');
  const left = await leftovers(jobId, fileId);
  assert.deepEqual(left.stats, [[0, 0, 0], [0, 0, 0]], 'nothing succeeded, failed or runs: the file was stopped, not failed');
  assert.deepEqual(left.outputs, [404, 404], 'no node wrote an output after the cancel');
  assert.equal((await stack.call('GET', `/api/v1/jobs/${jobId}/failed-files`)).body.failed_files.length, 0);
  assert.equal(await gateRunning(stack), '0');
});

test('an execution stopped from outside: the execution-ended rule fails the job with the reason, frees the slot, and the running work stops', { skip: NEEDS_LOCAL }, async () => {
  const { jobId, fileId, pid } = await startSlowJob();
  const arn = await executionArn(jobId);
  const sfn = new SFNClient({ region: 'us-east-1', endpoint: stack.endpoints.stepfunctions });
  try {
    await sfn.send(new StopExecutionCommand({ executionArn: arn, error: 'Operator', cause: 'stopped from the console' }));
  } finally {
    sfn.destroy();
  }
  const job = await eventually(async () => {
    const j = (await stack.call('GET', `/api/v1/jobs/${jobId}`)).body;
    return j.status === 'IN_PROGRESS' ? undefined : j;
  }, 'the job to end');
  assert.equal(job.status, 'FAILED');
  await eventually(async () => (alive(pid) ? undefined : true), `the partition process ${pid} to be killed`, 20_000);
  const events = await settledEvents(jobId);
  assert.deepEqual(events, ['job.scheduled', 'job.in_progress', 'job.failed']);
  const notification = (await stack.call('GET', '/api/v1/notifications?limit=100')).body.events.find((e: { event_type: string; payload: { job_id: string } }) => e.payload.job_id === jobId && e.event_type === 'job.failed');
  assert.equal(notification.payload.message, 'job execution aborted: stopped from the console');
  assert.equal(await gateRunning(stack), '0', 'the slot is free again');
  const left = await leftovers(jobId, fileId);
  assert.deepEqual(left.stats, [[0, 0, 0], [0, 0, 0]]);
  assert.deepEqual(left.outputs, [404, 404]);
});
