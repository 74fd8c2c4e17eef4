// Page fan-out end to end (issue 12): a job's PDF above the page threshold runs through the real job
// ASL in the Step Functions stand-in: ProcessFile leaves it unpartitioned with its ranges, the inline
// PartitionPages Map partitions each range (raw elements in S3 under the job's prefix), MergePages
// stores the partition output, ProcessMerged runs the rest of the chain. The partition output must
// be exactly what one pass gives (the sync endpoint), for a PDF, a multi-page TIFF and a gzipped
// PDF. A bad range fails its file alone, with the reason, while the other file completes and the job
// finishes and frees its slot: a range over its time budget, a range whose partition process dies
// (both document outcomes, merged as the file's failure), and a range whose Lambda throws (retried,
// then the Map's Catch: RecordFileFailure).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { eventually, NEEDS_LOCAL, type TestStack } from '../support/local-stack';
import { jobForm as postForm, jobReaching, launchUntilAccepted, stackForFile } from '../support/e2e-jobs';
import { gateRunning } from '../support/job-gate';
import { shutdownPartitionSandbox } from '../../lambdas/engine/partition/index';
import { sandboxBusy } from '../../lambdas/engine/partition/sandbox';
import { executionHistory } from '../../local/emulators/stepfunctions';
import { inputKey } from '../../lambdas/domain/job-manifest';
import { corpusPage, multiPageTiff } from '../support/tiff';

const corpus = resolve(process.cwd(), '../shared/corpus/docs');
let stack: TestStack;

stackForFile((s) => (stack = s), {
  env: () => ({ PAGE_RANGE_PAGES_FAST: '5' }),
  keep: ['PAGE_RANGE_PAGES', 'PARTITION_JOB_TIMEOUT_S', 'PARTITION_SANDBOX_WORKERS'],
  stop: () => shutdownPartitionSandbox(),
});

const jobForm = (nodes: unknown[], files: { name: string; data: Uint8Array; type: string }[]) => postForm({ job_nodes: nodes }, files);
const launch = (form: FormData) => launchUntilAccepted(stack, form);
const waitForEnd = (id: string) => jobReaching(stack, id, { what: `job ${id} to end`, timeoutMs: 240_000 });

interface Upload { name: string; data: Uint8Array; type: string }

/** Runs a job of one file to COMPLETED; its ids and the job as created. */
async function completedJob(nodes: unknown[], file: Upload) {
  const created = await launch(jobForm(nodes, [file]));
  assert.equal(created.status, 200, created.text);
  const jobId = created.body.id as string;
  const done = await waitForEnd(jobId);
  assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
  return { jobId, fileId: created.body.input_file_ids[0] as string, created: created.body };
}

/** The raw parts the file's page ranges stored in S3 under the job's prefix. */
async function storedRanges(jobId: string, fileId: string): Promise<string[]> {
  const s3 = new S3Client({ region: 'us-east-1', endpoint: stack.endpoints.s3, forcePathStyle: true });
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: stack.env.BUCKET_NAME, Prefix: `jobs/${jobId}/pages/${fileId}/` }));
  s3.destroy();
  return (listed.Contents ?? []).map((o) => o.Key!.split('/').pop()!).sort();
}

const executionArn = (jobId: string) => `${stack.env.JOB_STATE_MACHINE_ARN!.replace(':stateMachine:', ':execution:')}:${jobId}`;

/** Asserts that the job's output equals the sync endpoint's one pass over the same file, element by element. */
async function assertOnePass(fanned: unknown[], file: Upload, fields: Record<string, string>): Promise<unknown[]> {
  const form = new FormData();
  form.append('files', new Blob([file.data], { type: file.type }), file.name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const onePass = await stack.call('POST', '/general/v0/general', { raw: form });
  assert.equal(onePass.status, 200, onePass.text);
  assert.equal(fanned.length, onePass.body.length, 'element count');
  onePass.body.forEach((el: unknown, i: number) => assert.deepEqual(fanned[i], el, `element #${i}`));
  return onePass.body;
}

test('a 13-page PDF split into ranges of 5 gives exactly the elements of one pass; chunking runs after the merge', { skip: NEEDS_LOCAL }, async () => {
  const file = { name: 'multi-column.pdf', data: readFileSync(resolve(corpus, 'multi-column.pdf')), type: 'application/pdf' };
  const settings = { strategy: 'fast', include_page_breaks: true };
  const { jobId, fileId, created } = await completedJob([
    { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings },
    { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 500 } },
  ], file);

  // the ranges' raw outputs are in S3 under the job's prefix
  assert.deepEqual(await storedRanges(jobId, fileId), ['0.json', '1.json', '2.json']);

  const partitionNode = created.output_node_files.find((n: { node_type: string }) => n.node_type === 'partition');
  const fanned = await stack.call('GET', `/api/v1/jobs/${jobId}/download?file_id=${fileId}&node_id=${partitionNode.node_id}`);
  assert.equal(fanned.status, 200);
  await assertOnePass(fanned.body, file, { strategy: 'fast', include_page_breaks: 'true' });

  const chunks = await stack.call('GET', `/api/v1/jobs/${jobId}/download?file_id=${fileId}`);
  assert.ok(chunks.body.length > 0);
  for (const e of chunks.body) assert.ok(['CompositeElement', 'Table', 'TableChunk'].includes(e.type), e.type);
  const details = await stack.call('GET', `/api/v1/jobs/${jobId}/details`);
  assert.deepEqual(details.body.node_stats.map((n: { success: number }) => n.success), [1, 1]);
});

test('a 5-page TIFF split into ranges of 2 (three range iterations) gives exactly the elements of one pass', { skip: NEEDS_LOCAL }, async () => {
  process.env.PAGE_RANGE_PAGES = '2';
  try {
    const names = ['table-multi-row-column-cells.png', 'example.jpg', 'layout-parser-paper-fast.jpg', 'example.jpg', 'table-multi-row-column-cells.png'];
    const file = { name: 'scan.tiff', data: multiPageTiff(names.map((n) => corpusPage(corpus, n))), type: 'image/tiff' };
    const settings = { strategy: 'hi_res', include_page_breaks: true };
    const { jobId, fileId } = await completedJob([{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings }], file);

    // split: the inline PartitionPages Map ran one iteration per range, each storing its raw part
    assert.equal(executionHistory(executionArn(jobId))?.nestedIterations, 3 * 2, 'three page-range iterations (started and succeeded)');
    assert.deepEqual(await storedRanges(jobId, fileId), ['0.json', '1.json', '2.json']);
    const details = await stack.call('GET', `/api/v1/jobs/${jobId}/details`);
    assert.deepEqual(details.body.node_stats.map((n: { success: number; failure: number }) => [n.success, n.failure]), [[1, 0]]);

    const fanned = await stack.call('GET', `/api/v1/jobs/${jobId}/download?file_id=${fileId}`);
    assert.equal(fanned.status, 200);
    const onePass = await assertOnePass(fanned.body, file, { strategy: 'hi_res', include_page_breaks: 'true' });
    assert.deepEqual([...new Set(onePass.map((e) => (e as { metadata: { page_number: number } }).metadata.page_number))], [1, 2, 3, 4, 5]);
  } finally {
    delete process.env.PAGE_RANGE_PAGES;
  }
});

test('a gzipped 13-page PDF is split into ranges of 5 too; its elements are those of one pass (named without .gz)', { skip: NEEDS_LOCAL }, async () => {
  const file = { name: 'multi-column.pdf.gz', data: gzipSync(readFileSync(resolve(corpus, 'multi-column.pdf'))), type: 'application/gzip' };
  const { jobId, fileId } = await completedJob([{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }], file);
  assert.deepEqual(await storedRanges(jobId, fileId), ['0.json', '1.json', '2.json']);
  const fanned = await stack.call('GET', `/api/v1/jobs/${jobId}/download?file_id=${fileId}`);
  assert.equal(fanned.status, 200);
  await assertOnePass(fanned.body, file, { strategy: 'fast' });
  assert.equal(fanned.body[0].metadata.filename, 'multi-column.pdf');
});

/** A PDF of `pages` scanned pages (OCR: about a second or more each here). */
async function scannedPdf(pages: number): Promise<Uint8Array> {
  const scan = await PDFDocument.create();
  const png = await scan.embedPng(readFileSync(resolve(corpus, 'table-multi-row-column-cells.png')));
  for (let i = 0; i < pages; i++) scan.addPage([png.width, png.height]).drawImage(png, { x: 0, y: 0 });
  return scan.save();
}

/**
 * Runs a job over a scanned PDF split into ranges of `rangePages` (ocr_only, one sandbox process) and
 * a text note, with `settings` in the environment and `during` running beside it; checks what every
 * bad range must leave (the scan failed alone, the note done, the job COMPLETED, its slot free) and
 * returns the scan's failure reason.
 */
async function scanJobWithBadRange(
  pages: number,
  rangePages: number,
  settings: Record<string, string>,
  during: (job: { id: string; fileId: string }) => Promise<void> = async () => undefined,
): Promise<string> {
  const env = { PAGE_RANGE_PAGES: String(rangePages), PARTITION_SANDBOX_WORKERS: '1', ...settings };
  Object.assign(process.env, env);
  await shutdownPartitionSandbox(); // settings are read again at the next use
  try {
    // one warm sandbox process with PDFium loaded (a sync call has its own 120 s budget), so the
    // split step (it opens the PDF) is quick whatever the settings make of the ranges
    const warm = new FormData();
    warm.append('files', new Blob([readFileSync(resolve(corpus, 'emphasis-text.pdf'))], { type: 'application/pdf' }), 'warm.pdf');
    assert.equal((await stack.call('POST', '/general/v0/general', { raw: warm })).status, 200);
    const created = await launch(jobForm(
      [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'ocr_only' } }],
      [
        { name: 'scan.pdf', data: await scannedPdf(pages), type: 'application/pdf' },
        { name: 'note.txt', data: Buffer.from('A short note that partitions at once.'), type: 'text/plain' },
      ],
    ));
    assert.equal(created.status, 200, created.text);
    const id = created.body.id as string;
    const [, done] = await Promise.all([during({ id, fileId: created.body.input_file_ids[0] }), waitForEnd(id)]);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    const failed = await stack.call('GET', `/api/v1/jobs/${id}/failed-files`);
    assert.equal(failed.body.failed_files.length, 1, JSON.stringify(failed.body));
    assert.equal(failed.body.failed_files[0].document, 'scan.pdf');
    const details = await stack.call('GET', `/api/v1/jobs/${id}/details`);
    assert.deepEqual(details.body.node_stats.map((n: { success: number; failure: number; in_progress: number }) => [n.success, n.failure, n.in_progress]), [[1, 1, 0]]);
    assert.equal(await gateRunning(stack), '0', 'the run slot is free again');
    return failed.body.failed_files[0].error as string;
  } finally {
    for (const k of Object.keys(env)) delete process.env[k];
    await shutdownPartitionSandbox();
  }
}

/** Resolves once the job's execution has started a page range (the stand-in's history: the split is over). */
const rangeStarted = (jobId: string) =>
  eventually(async () => {
    return (executionHistory(executionArn(jobId))?.nestedIterations ?? 0) > 0 ? true : undefined;
  }, `job ${jobId} to start a page range`, 120_000);

test('a page range that breaks its time budget fails its file with the reason; the other file completes, the job ends, its slot frees', { skip: NEEDS_LOCAL }, async () => {
  // four scanned pages in ranges of 2, with a 1 s budget per document; the text file needs milliseconds
  const reason = await scanJobWithBadRange(4, 2, { PARTITION_JOB_TIMEOUT_S: '1' });
  assert.match(reason, /^pages 1-2: .*time budget of 1 s/);
});

test('a page range whose partition process dies fails its file with the reason; the other file completes, the job ends, its slot frees', { skip: NEEDS_LOCAL }, async () => {
  // the process partitioning a range is killed (as the kernel's OOM killer would): a document outcome, not retried
  const reason = await scanJobWithBadRange(4, 2, {}, async ({ id }) => {
    await rangeStarted(id);
    const pid = await eventually(async () => sandboxBusy().find((b) => b.filename === 'scan.pdf')?.pid, 'a range in the partition process', 60_000);
    process.kill(pid, 'SIGKILL');
  });
  assert.match(reason, /^pages (1-2|3-4): The partition process stopped \(SIGKILL\) while reading scan\.pdf\.$/);
});

test('a page range whose Lambda throws is retried, then its file fails through RecordFileFailure with the message; the job ends, its slot frees', { skip: NEEDS_LOCAL }, async () => {
  // nine one-page ranges, eight at a time: the document is deleted as the first ones start, so the
  // ninth (and any that had not read it yet) throws on every attempt, the inline Map fails, its Catch
  // records the file with the Lambda error's message (not its JSON with the stack trace)
  const reason = await scanJobWithBadRange(9, 1, {}, async ({ id, fileId }) => {
    await rangeStarted(id);
    const s3 = new S3Client({ region: 'us-east-1', endpoint: stack.endpoints.s3, forcePathStyle: true });
    await s3.send(new DeleteObjectCommand({ Bucket: stack.env.BUCKET_NAME, Key: inputKey(id, fileId) }));
    s3.destroy();
  });
  assert.match(reason, /^input of file [0-9a-f-]{36} is missing$/);
});

test('a VLM node standing in offline inside page ranges says so in the job warnings, message and notification', { skip: NEEDS_LOCAL }, async () => {
  // no OPENAI_API_KEY, stand-ins allowed: each range falls back to the text layer and OCR; the job must say it
  const env = { ALLOW_OFFLINE_STANDINS: 'true', PAGE_RANGE_PAGES: '5' };
  const key = process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_API_KEY;
  Object.assign(process.env, env);
  try {
    const file = { name: 'multi-column.pdf', data: readFileSync(resolve(corpus, 'multi-column.pdf')), type: 'application/pdf' };
    const { jobId, fileId } = await completedJob([{ name: 'VLM', type: 'partition', subtype: 'vlm', settings: { provider: 'openai', model: 'gpt-4o' } }], file);
    assert.equal((await storedRanges(jobId, fileId)).length, 3, 'the document went through three ranges');
    const out = await stack.call('GET', `/api/v1/jobs/${jobId}/download?file_id=${fileId}`);
    for (const el of out.body) assert.match(el.metadata.partitioner_note, /VLM/);
    const details = (await stack.call('GET', `/api/v1/jobs/${jobId}/details`)).body;
    assert.equal(details.warnings.length, 1, JSON.stringify(details));
    assert.match(details.warnings[0], /^partition node "VLM" .*OPENAI_API_KEY.*local text layer and OCR stand-in used$/);
    assert.equal(details.message, `Offline stand-ins used: ${details.warnings[0]}.`);
    const note = await eventually(async () => {
      const r = await stack.call('GET', '/api/v1/notifications?event_types=job.completed&limit=100');
      return r.body.events?.find((e: { payload: { job_id: string } }) => e.payload.job_id === jobId);
    }, 'the job.completed notification');
    assert.deepEqual(note.payload.warnings, details.warnings);
    assert.equal(note.payload.message, details.message);
  } finally {
    for (const k of Object.keys(env)) delete process.env[k];
    if (key !== undefined) process.env.OPENAI_API_KEY = key;
  }
});
