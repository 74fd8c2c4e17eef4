// On-demand jobs end to end: the real job ASL runs in the Step Functions stand-in, tasks call the
// same handlers CDK deploys, outputs land in s3rver, events reach the notification recorder through
// the EventBridge stand-in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DynamoDBClient, GetItemCommand, PutItemCommand, QueryCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { eventually, NEEDS_LOCAL, REMOTE, type TestStack } from '../support/local-stack';
import { jobForm as postForm, jobReaching, launchUntilAccepted, stackForFile } from '../support/e2e-jobs';
import { executionHistory } from '../../local/emulators/stepfunctions';
import { RECOUNT_AFTER_ATTEMPTS } from '../../lambdas/domain/job-gate';

const corpus = resolve(process.cwd(), '../shared/corpus/docs');
let stack: TestStack;
stackForFile((s) => (stack = s));

const sampleNodes = [
  { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
  { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 400, new_after_n_chars: 300, overlap: 0 } },
  { name: 'Embedder', type: 'embed', subtype: 'local', settings: { model_name: 'builtin-hashed-char-ngrams-384' } },
];

const jobForm = (requestData: unknown, files: { name: string; data: Uint8Array; type?: string }[]) =>
  postForm(requestData, files.map((f) => ({ ...f, type: f.type ?? 'application/octet-stream' })));
// Launches must be at least one second apart.
const launch = (form: FormData) => launchUntilAccepted(stack, form);
const waitForStatus = (id: string, statuses: string[]) => jobReaching(stack, id, { statuses, what: `job ${id} to reach ${statuses.join('/')}` });

test('the sample job partition → chunk_by_title → embed completes and its output downloads', async () => {
  const text = readFileSync(resolve(corpus, 'book-war-and-peace-1p.txt'));
  const created = await launch(jobForm({ job_nodes: sampleNodes }, [{ name: 'war-and-peace.txt', data: text, type: 'text/plain' }]));
  assert.equal(created.status, 200, created.text);
  assert.equal(created.body.status, 'SCHEDULED');
  assert.equal(created.body.job_type, 'ephemeral');
  assert.equal(created.body.input_file_ids.length, 1);
  assert.equal(created.body.output_node_files.length, 3);

  const done = await waitForStatus(created.body.id, ['COMPLETED', 'FAILED']);
  assert.equal(done.status, 'COMPLETED');
  assert.match(done.runtime, /^PT[\d.]+S$/);

  const fileId = created.body.input_file_ids[0];
  const out = await stack.call('GET', `/api/v1/jobs/${created.body.id}/download?file_id=${fileId}`);
  assert.equal(out.status, 200);
  assert.ok(Array.isArray(out.body) && out.body.length > 0);
  for (const el of out.body) {
    assert.equal(el.type === 'CompositeElement' || el.type === 'Table' || el.type === 'TableChunk', true, el.type);
    assert.ok(el.text.length <= 400);
    assert.equal(el.embeddings.length, 384);
  }
  // an intermediate node's output by node_id
  const partitionNode = created.body.output_node_files.find((n: { node_type: string }) => n.node_type === 'partition');
  const parts = await stack.call('GET', `/api/v1/jobs/${created.body.id}/download?file_id=${fileId}&node_id=${partitionNode.node_id}`);
  assert.equal(parts.status, 200);
  assert.ok(parts.body.every((e: { type: string }) => e.type !== 'CompositeElement'));

  const details = await stack.call('GET', `/api/v1/jobs/${created.body.id}/details`);
  assert.equal(details.body.processing_status, 'SUCCESS');
  assert.deepEqual(details.body.node_stats.map((n: { success: number }) => n.success), [1, 1, 1]);

  if (REMOTE) return; // the notification check below reads the local table
  await stack.eventsIdle();
  const ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: stack.endpoints.dynamodb });
  const notes = await ddb.send(
    new QueryCommand({ TableName: stack.env.TABLE_NAME, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': { S: 'ACCT#default#NOTES' } } }),
  );
  ddb.destroy();
  const types = (notes.Items ?? []).filter((i) => i.payload?.M?.job_id?.S === created.body.id).map((i) => i.eventType!.S);
  assert.deepEqual([...types].sort(), ['job.completed', 'job.in_progress', 'job.scheduled'], 'each event recorded exactly once');
});

test('a bad document fails alone: recorded in failed-files, the other file completes', async () => {
  const good = readFileSync(resolve(corpus, 'fake-text.txt'));
  const created = await launch(
    jobForm({ job_nodes: sampleNodes.slice(0, 1) }, [
      { name: 'good.txt', data: good, type: 'text/plain' },
      { name: 'broken.pdf', data: Buffer.from('%PDF-1.7\n garbage that is not a pdf'), type: 'application/pdf' },
    ]),
  );
  assert.equal(created.status, 200, created.text);
  const done = await waitForStatus(created.body.id, ['COMPLETED', 'FAILED']);
  assert.equal(done.status, 'COMPLETED');
  const failed = await stack.call('GET', `/api/v1/jobs/${created.body.id}/failed-files`);
  assert.equal(failed.body.failed_files.length, 1);
  assert.equal(failed.body.failed_files[0].document, 'broken.pdf');
  assert.ok(failed.body.failed_files[0].error.length > 0);
  const details = await stack.call('GET', `/api/v1/jobs/${created.body.id}/details`);
  assert.equal(details.body.processing_status, 'COMPLETED_WITH_ERRORS');
});

test('launches closer than one second apart are rate limited with a 429', async () => {
  await new Promise((r) => setTimeout(r, 1100));
  const form = () => jobForm({ template_id: 'fast_partition' }, [{ name: 'a.txt', data: Buffer.from('Hello there.'), type: 'text/plain' }]);
  // Two launches at once: the launch claim is one conditional write, so exactly one wins.
  const results = await Promise.all([stack.call('POST', '/api/v1/jobs/', { raw: form() }), stack.call('POST', '/api/v1/jobs/', { raw: form() })]);
  const ok = results.filter((r) => r.status === 200);
  const limited = results.filter((r) => r.status === 429);
  assert.equal(ok.length, 1, results.map((r) => r.text).join(' | '));
  assert.equal(limited.length, 1);
  assert.equal(ok[0]!.body.job_type, 'template');
  assert.equal(typeof limited[0]!.body.detail, 'string');
  assert.ok(limited[0]!.headers.get('retry-after'));
  await waitForStatus(ok[0]!.body.id, ['COMPLETED']);
});

test('with five jobs running a new job stays SCHEDULED, then runs when a slot frees; cancel stops a waiting job', { skip: NEEDS_LOCAL }, async () => {
  const ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: stack.endpoints.dynamodb });
  const table = stack.env.TABLE_NAME;
  const setRunning = (n: number) =>
    ddb.send(
      new UpdateItemCommand({
        TableName: table,
        Key: { PK: { S: 'ACCT#default' }, SK: { S: 'GATE' } },
        UpdateExpression: 'SET running = :n',
        ExpressionAttributeValues: { ':n': { N: String(n) } },
      }),
    );
  // Five jobs that hold a slot (as the gate's recount sees them).
  const holders = Array.from({ length: 5 }, (_, i) => `00000000-0000-4000-8000-00000000000${i}`);
  const hold = (id: string, held: boolean) =>
    ddb.send(
      new PutItemCommand({
        TableName: table,
        Item: {
          PK: { S: 'ACCT#default' }, SK: { S: `JOB#${id}` }, entity: { S: 'Job' }, createdAt: { S: '2000-01-01T00:00:00.000Z' }, id: { S: id },
          status: { S: held ? 'IN_PROGRESS' : 'COMPLETED' }, slotHeld: { BOOL: held }, jobType: { S: 'ephemeral' },
          workflowId: { S: id }, workflowName: { S: 'holder' }, nodes: { L: [] }, files: { L: [] },
        },
      }),
    );
  // Let every earlier job finish first: a finishing job releases its slot.
  await eventually(async () => {
    const jobs = (await stack.call('GET', '/api/v1/jobs/')).body as { status: string }[];
    return jobs.every((j) => ['COMPLETED', 'FAILED', 'STOPPED'].includes(j.status)) ? true : undefined;
  }, 'earlier jobs to finish', 120_000);
  for (const id of holders) await hold(id, true);
  await setRunning(5);
  const form = () => jobForm({ template_id: 'fast_partition' }, [{ name: 'b.txt', data: Buffer.from('Waiting for a slot.'), type: 'text/plain' }]);
  const waiting = await launch(form());
  const cancelled = await launch(form());
  // The gate recounts in the RECOUNT_AFTER_ATTEMPTS-th slot attempt, which shows in the next one:
  // once the waiting job's execution has finished that next AcquireSlot, five slots really are
  // held, so it still waits (a recount that dropped held slots would have let it in by then).
  const executionArn = await eventually(async () => {
    const job = await ddb.send(new GetItemCommand({ TableName: table, Key: { PK: { S: 'ACCT#default' }, SK: { S: `JOB#${waiting.body.id}` } } }));
    return job.Item?.executionArn?.S;
  }, 'the waiting job to start its execution');
  await eventually(
    async () => ((executionHistory(executionArn)?.exited.get('AcquireSlot') ?? 0) > RECOUNT_AFTER_ATTEMPTS ? true : undefined),
    `the waiting job's slot attempt after the recount`,
    60_000,
  );
  assert.equal((await stack.call('GET', `/api/v1/jobs/${waiting.body.id}`)).body.status, 'SCHEDULED');

  const cancel = await stack.call('POST', `/api/v1/jobs/${cancelled.body.id}/cancel`);
  assert.equal(cancel.status, 200);
  assert.equal((await stack.call('GET', `/api/v1/jobs/${cancelled.body.id}`)).body.status, 'STOPPED');

  // One holder finishes: its slot frees.
  await hold(holders[0]!, false);
  await setRunning(4);
  const done = await waitForStatus(waiting.body.id, ['COMPLETED', 'FAILED']);
  assert.equal(done.status, 'COMPLETED');
  for (const id of holders) await hold(id, false);
  await setRunning(0);
  ddb.destroy();
});

test('a leaked slot heals: the counter says five but no job holds one, so a waiting job recounts and runs', { skip: NEEDS_LOCAL }, async () => {
  const ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: stack.endpoints.dynamodb });
  await ddb.send(
    new UpdateItemCommand({
      TableName: stack.env.TABLE_NAME,
      Key: { PK: { S: 'ACCT#default' }, SK: { S: 'GATE' } },
      UpdateExpression: 'SET running = :n',
      ExpressionAttributeValues: { ':n': { N: '5' } },
    }),
  );
  const job = await launch(jobForm({ template_id: 'fast_partition' }, [{ name: 'c.txt', data: Buffer.from('After the leak.'), type: 'text/plain' }]));
  const done = await waitForStatus(job.body.id, ['COMPLETED', 'FAILED']);
  assert.equal(done.status, 'COMPLETED');
  const gate = await ddb.send(new GetItemCommand({ TableName: stack.env.TABLE_NAME, Key: { PK: { S: 'ACCT#default' }, SK: { S: 'GATE' } } }));
  assert.equal(gate.Item?.running?.N, '0', 'the counter matches the held slots again');
  ddb.destroy();
});

test('request validation: bad request_data, unknown node types, bad settings, too many files, missing file_id', async () => {
  const cases: [unknown, string][] = [
    [{ job_nodes: [{ name: 'x', type: 'teleport', subtype: 'y' }] }, 'type'],
    [{ job_nodes: [{ name: 'c', type: 'chunk', subtype: 'chunk_by_title', settings: {} }] }, 'type'],
    [{ job_nodes: [sampleNodes[0], { name: 'c', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 100, overlap: 200 } }] }, 'overlap'],
    [{}, 'request_data'],
  ];
  for (const [data, field] of cases) {
    const r = await stack.call('POST', '/api/v1/jobs/', { raw: jobForm(data, [{ name: 'a.txt', data: Buffer.from('x') }]) });
    assert.equal(r.status, 422, `${JSON.stringify(data)} → ${r.text}`);
    assert.ok(r.body.detail.some((d: { loc: unknown[] }) => d.loc.includes(field)), r.text);
  }
  const notJson = new FormData();
  notJson.append('request_data', '{nope');
  notJson.append('input_files', new Blob(['x']), 'a.txt');
  assert.equal((await stack.call('POST', '/api/v1/jobs/', { raw: notJson })).status, 422);

  const many = jobForm({ template_id: 'fast_partition' }, Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from('x') })));
  assert.equal((await stack.call('POST', '/api/v1/jobs/', { raw: many })).status, 422);

  const unknownTemplate = await stack.call('POST', '/api/v1/jobs/', { raw: jobForm({ template_id: 'nope' }, [{ name: 'a.txt', data: Buffer.from('x') }]) });
  assert.equal(unknownTemplate.status, 404);

  const list = await stack.call('GET', '/api/v1/jobs/');
  const anyJob = list.body[0];
  assert.equal((await stack.call('GET', `/api/v1/jobs/${anyJob.id}/download`)).status, 422);
  // -- the spec types file_id as a string: an unknown one, of any form, is a 404 --
  for (const id of ['not-a-uuid', '../../etc/passwd', '4f1f7a53-3a6d-4c55-9a43-1f1f9c1f0b11']) {
    const r = await stack.call('GET', `/api/v1/jobs/${anyJob.id}/download?file_id=${encodeURIComponent(id)}`);
    assert.equal(r.status, 404, `${id}: ${r.text}`);
  }
  assert.equal((await stack.call('GET', '/api/v1/jobs/4f1f7a53-3a6d-4c55-9a43-1f1f9c1f0b11')).status, 404);
});

test('templates list and detail', async () => {
  const list = await stack.call('GET', '/api/v1/templates/');
  assert.equal(list.status, 200);
  assert.ok(list.body.some((t: { id: string }) => t.id === 'hi_res_partition'));
  const one = await stack.call('GET', '/api/v1/templates/hi_res_partition');
  assert.equal(one.body.nodes[0].type, 'partition');
  const missing = await stack.call('GET', '/api/v1/templates/nonexistent_template');
  assert.equal(missing.status, 404);
  assert.equal(missing.body.detail, 'Template nonexistent_template not found');
});
