// Progress on long work (issue 31): a multi-page scanned document as an OCR job shows its pages moving
// in job details while it runs (the file, its node, pages read of pages, an estimate), the job's files
// by state, and a bad file of the same job is logged at warn with the job, the file, the node and the
// reason; the job's notification carries the counts. Through the real job state machine on the local stack.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { corpusPage, multiPageTiff } from '../support/tiff';

const corpus = resolve(process.cwd(), '../shared/corpus/docs');
let stack: TestStack;
const lines: Record<string, unknown>[] = [];
const writeErr = process.stderr.write.bind(process.stderr);
before(async () => {
  stack = await startTestStack();
  // -- the service's warn and error lines, as JSON objects --
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    for (const l of String(chunk).split('\n')) {
      try {
        if (l.startsWith('{')) lines.push(JSON.parse(l) as Record<string, unknown>);
      } catch {
        /* not a log line */
      }
    }
    return (writeErr as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
});
after(async () => {
  process.stderr.write = writeErr;
  await stack?.close();
});

test('an OCR job of a scanned multi-page document shows its pages moving in job details; a bad file is logged with its reason', { skip: NEEDS_LOCAL }, async () => {
  const pages = Array.from({ length: 8 }, (_v, i) => corpusPage(corpus, i % 2 ? 'example.jpg' : 'layout-parser-paper-fast.jpg'));
  const form = new FormData();
  form.append('request_data', JSON.stringify({ job_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'ocr_only' } }] }));
  form.append('input_files', new Blob([multiPageTiff(pages)], { type: 'image/tiff' }), 'scan.tiff');
  form.append('input_files', new Blob([new TextEncoder().encode('%PDF-1.7\nnot a pdf at all')], { type: 'application/pdf' }), 'broken.pdf');
  const created = await stack.call('POST', '/api/v1/jobs/', { raw: form });
  assert.equal(created.status, 200, created.text);
  const jobId = created.body.id as string;
  const [scanId, brokenId] = created.body.input_file_ids as string[];

  // -- read details while the job runs: the scan's pages read, as they move --
  const seen: number[] = [];
  let sawTotal: number | null = null;
  let sawEstimate = false;
  let recordSeen = false;
  let status = '';
  for (const deadline = Date.now() + 300_000; Date.now() < deadline; ) {
    const d = await stack.call('GET', `/api/v1/jobs/${jobId}/details`);
    assert.equal(d.status, 200, d.text);
    status = d.body.processing_status;
    const scan = (d.body.files_in_progress as { file_id: string; pages_done: number | null; pages_total: number | null; node_name: string; estimated_seconds_left: number | null; document: string }[]).find((f) => f.file_id === scanId);
    if (scan?.pages_done !== null && scan?.pages_done !== undefined && seen[seen.length - 1] !== scan.pages_done) {
      seen.push(scan.pages_done);
      sawTotal = scan.pages_total;
      assert.equal(scan.node_name, 'Partitioner');
      assert.equal(scan.document, 'scan.tiff');
    }
    if (scan?.estimated_seconds_left !== null && scan?.estimated_seconds_left !== undefined) sawEstimate = true;
    // -- the job record of a running job says the same, live --
    if (scan && !recordSeen) {
      const rec = await stack.call('GET', `/api/v1/jobs/${jobId}`);
      if (rec.body.status === 'IN_PROGRESS') {
        recordSeen = true;
        assert.equal(rec.body.files.total, 2);
        assert.ok(rec.body.files.in_progress >= 1, JSON.stringify(rec.body.files));
        assert.ok((rec.body.files_in_progress as { file_id: string }[]).some((f) => f.file_id === scanId));
      }
    }
    if (!['SCHEDULED', 'IN_PROGRESS'].includes(status)) {
      assert.deepEqual(d.body.files, { total: 2, done: 1, failed: 1, in_progress: 0 });
      assert.deepEqual(d.body.files_in_progress, []);
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.equal(status, 'COMPLETED_WITH_ERRORS');
  assert.ok(seen.length >= 3, `pages read seen moving ${seen.length} times: ${seen.join(' → ')}`);
  assert.deepEqual(seen, [...seen].sort((a, b) => a - b), 'pages read never go back');
  assert.equal(sawTotal, 8);
  assert.ok(sawEstimate, 'an estimate once pages were read');
  assert.ok(recordSeen, 'the job record was read while the scan ran');

  // -- the bad file's line: warn, with the job, the file, the node and the reason --
  const failed = await eventually(async () => lines.find((l) => l.msg === 'file failed' && l.file_id === brokenId), 'the failed file\'s log line', 10_000);
  assert.equal(failed.level, 'warn');
  assert.equal(failed.job_id, jobId);
  assert.equal(failed.node, 'Partitioner');
  assert.match(String(failed.reason), /PDF/);

  // -- the failed file's download says it failed, and why --
  const dl = await stack.call('GET', `/api/v1/jobs/${jobId}/download?file_id=${brokenId}`);
  assert.equal(dl.status, 404);
  assert.match(dl.body.detail, /broken\.pdf\) failed and has no output: .*PDF/);

  // -- the job record says it too --
  const record = await stack.call('GET', `/api/v1/jobs/${jobId}`);
  assert.deepEqual(record.body.files, { total: 2, done: 1, failed: 1 });
  assert.match(record.body.message, /1 of 2 file\(s\) failed/);

  // -- the job's notification carries the counts --
  const note = await eventually(async () => {
    const r = await stack.call('GET', '/api/v1/notifications?event_types=job.completed&limit=100');
    return (r.body.events as { payload: { job_id: string; files?: unknown } }[]).find((e) => e.payload.job_id === jobId);
  }, "the job's job.completed notification", 30_000);
  assert.deepEqual(note.payload.files, { total: 2, done: 1, failed: 1 });
});
