// Page fan-out end to end (issue 12): a job's PDF above the page threshold runs through the real job
// ASL in the Step Functions stand-in: ProcessFile leaves it unpartitioned with its ranges, the inline
// PartitionPages Map partitions each range (raw elements in S3 under the job's prefix), MergePages
// stores the partition output, ProcessMerged runs the rest of the chain. The partition output must
// be exactly what one pass gives (the sync endpoint), and a range that breaks its budget fails its
// file alone, with the reason, while the job finishes and frees its slot.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { shutdownPartitionSandbox } from '../../lambdas/engine/partition/index';

const corpus = resolve(process.cwd(), '../shared/corpus/docs');
const ENV = ['PAGE_RANGE_PAGES', 'PAGE_RANGE_PAGES_FAST', 'PARTITION_JOB_TIMEOUT_S', 'PARTITION_SANDBOX_WORKERS'] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
let stack: TestStack;

before(async () => {
  process.env.PAGE_RANGE_PAGES_FAST = '5';
  stack = await startTestStack();
});
after(async () => {
  await stack?.close();
  for (const k of ENV) if (saved[k] === undefined) delete process.env[k]; else process.env[k] = saved[k];
  await shutdownPartitionSandbox();
});

function jobForm(nodes: unknown[], files: { name: string; data: Uint8Array; type: string }[]): FormData {
  const form = new FormData();
  form.append('request_data', JSON.stringify({ job_nodes: nodes }));
  for (const f of files) form.append('input_files', new Blob([f.data], { type: f.type }), f.name);
  return form;
}

async function launch(form: FormData) {
  for (;;) {
    const r = await stack.call('POST', '/api/v1/jobs/', { raw: form });
    if (r.status !== 429) return r;
    await new Promise((res) => setTimeout(res, 300));
  }
}

const waitForEnd = (id: string) =>
  eventually(async () => {
    const r = await stack.call('GET', `/api/v1/jobs/${id}`);
    return ['COMPLETED', 'FAILED', 'STOPPED'].includes(r.body.status) ? r.body : undefined;
  }, `job ${id} to end`, 240_000);

async function gateRunning(): Promise<string | undefined> {
  const ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: stack.endpoints.dynamodb });
  try {
    const gate = await ddb.send(new GetItemCommand({ TableName: stack.env.TABLE_NAME, Key: { PK: { S: 'ACCT#default' }, SK: { S: 'GATE' } } }));
    return gate.Item?.running?.N;
  } finally {
    ddb.destroy();
  }
}

test('a 13-page PDF split into ranges of 5 gives exactly the elements of one pass; chunking runs after the merge', { skip: NEEDS_LOCAL }, async () => {
  const pdf = readFileSync(resolve(corpus, 'multi-column.pdf'));
  const settings = { strategy: 'fast', include_page_breaks: true };
  const created = await launch(jobForm(
    [
      { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings },
      { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 500 } },
    ],
    [{ name: 'multi-column.pdf', data: pdf, type: 'application/pdf' }],
  ));
  assert.equal(created.status, 200, created.text);
  const done = await waitForEnd(created.body.id);
  assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
  const jobId = created.body.id as string;
  const fileId = created.body.input_file_ids[0] as string;

  // the ranges' raw outputs are in S3 under the job's prefix
  const s3 = new S3Client({ region: 'us-east-1', endpoint: stack.endpoints.s3, forcePathStyle: true });
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: stack.env.BUCKET_NAME, Prefix: `jobs/${jobId}/pages/${fileId}/` }));
  s3.destroy();
  assert.deepEqual((listed.Contents ?? []).map((o) => o.Key!.split('/').pop()).sort(), ['0.json', '1.json', '2.json']);

  const partitionNode = created.body.output_node_files.find((n: { node_type: string }) => n.node_type === 'partition');
  const fanned = await stack.call('GET', `/api/v1/jobs/${jobId}/download?file_id=${fileId}&node_id=${partitionNode.node_id}`);
  assert.equal(fanned.status, 200);
  const form = new FormData();
  form.append('files', new Blob([pdf], { type: 'application/pdf' }), 'multi-column.pdf');
  form.append('strategy', 'fast');
  form.append('include_page_breaks', 'true');
  const onePass = await stack.call('POST', '/general/v0/general', { raw: form });
  assert.equal(onePass.status, 200);
  assert.equal(fanned.body.length, onePass.body.length, 'element count');
  onePass.body.forEach((el: unknown, i: number) => assert.deepEqual(fanned.body[i], el, `element #${i}`));

  const chunks = await stack.call('GET', `/api/v1/jobs/${jobId}/download?file_id=${fileId}`);
  assert.ok(chunks.body.length > 0);
  for (const e of chunks.body) assert.ok(['CompositeElement', 'Table', 'TableChunk'].includes(e.type), e.type);
  const details = await stack.call('GET', `/api/v1/jobs/${jobId}/details`);
  assert.deepEqual(details.body.node_stats.map((n: { success: number }) => n.success), [1, 1]);
});

test('a page range that breaks its time budget fails its file with the reason; the other file completes, the job ends, its slot frees', { skip: NEEDS_LOCAL }, async () => {
  // four scanned pages (OCR: seconds each) in ranges of 2, with a 1 s budget per document; the text file needs milliseconds
  const scan = await PDFDocument.create();
  const png = await scan.embedPng(readFileSync(resolve(corpus, 'table-multi-row-column-cells.png')));
  for (let i = 0; i < 4; i++) scan.addPage([png.width, png.height]).drawImage(png, { x: 0, y: 0 });
  process.env.PAGE_RANGE_PAGES = '2';
  process.env.PARTITION_JOB_TIMEOUT_S = '1';
  process.env.PARTITION_SANDBOX_WORKERS = '1';
  await shutdownPartitionSandbox(); // settings are read again at the next use
  try {
    // one warm sandbox process with PDFium loaded (a sync call has its own 120 s budget), so the
    // split step (it opens the PDF) stays far inside the 1 s and only the ranges' OCR overruns it
    const warm = new FormData();
    warm.append('files', new Blob([readFileSync(resolve(corpus, 'emphasis-text.pdf'))], { type: 'application/pdf' }), 'warm.pdf');
    assert.equal((await stack.call('POST', '/general/v0/general', { raw: warm })).status, 200);
    const created = await launch(jobForm(
      [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'ocr_only' } }],
      [
        { name: 'scan.pdf', data: await scan.save(), type: 'application/pdf' },
        { name: 'note.txt', data: Buffer.from('A short note that partitions at once.'), type: 'text/plain' },
      ],
    ));
    assert.equal(created.status, 200, created.text);
    const done = await waitForEnd(created.body.id);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    const failed = await stack.call('GET', `/api/v1/jobs/${created.body.id}/failed-files`);
    assert.equal(failed.body.failed_files.length, 1, JSON.stringify(failed.body));
    assert.equal(failed.body.failed_files[0].document, 'scan.pdf');
    assert.match(failed.body.failed_files[0].error, /^pages 1-2: .*time budget of 1 s/);
    const details = await stack.call('GET', `/api/v1/jobs/${created.body.id}/details`);
    assert.deepEqual(details.body.node_stats.map((n: { success: number; failure: number }) => [n.success, n.failure]), [[1, 1]]);
    assert.equal(await gateRunning(), '0', 'the run slot is free again');
  } finally {
    delete process.env.PAGE_RANGE_PAGES;
    delete process.env.PARTITION_JOB_TIMEOUT_S;
    delete process.env.PARTITION_SANDBOX_WORKERS;
    await shutdownPartitionSandbox();
  }
});
