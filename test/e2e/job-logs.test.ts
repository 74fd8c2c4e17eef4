// Issue 12 (operability): structured logs carry the job id on every line of job work. A job runs on
// the local stack in this process (the real ASL in the Step Functions stand-in, the same handlers as
// on AWS) with LOG_LEVEL=debug while this test captures everything written to stdout and stderr;
// every JSON line written during the run must carry job_id (and file_id on the file steps). The
// notification recorder is an event-rule target, not job work (it names the job as jobId).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
const level = process.env.LOG_LEVEL;
before(async () => {
  stack = await startTestStack();
});
after(async () => {
  await stack?.close();
  if (level === undefined) delete process.env.LOG_LEVEL; else process.env.LOG_LEVEL = level;
});

function capture(): { lines: string[]; stop: () => void } {
  const lines: string[] = [];
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const grab = (chunk: unknown) => lines.push(...String(chunk).split('\n').filter((l) => l.trim()));
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => (grab(chunk), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => (grab(chunk), true)) as typeof process.stderr.write;
  return { lines, stop: () => { process.stdout.write = out; process.stderr.write = err; } };
}

test('every log line of a job run carries job_id, and file_id on the file steps', { skip: NEEDS_LOCAL }, async () => {
  const form = new FormData();
  form.append('request_data', JSON.stringify({ job_nodes: [
    { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
    { name: 'Embedder', type: 'embed', subtype: 'local', settings: { model_name: 'builtin-hashed-char-ngrams-384' } },
  ] }));
  form.append('input_files', new Blob(['A short text to partition and embed.'], { type: 'text/plain' }), 'good.txt');
  form.append('input_files', new Blob(['%PDF-1.7\n not a pdf at all'], { type: 'application/pdf' }), 'broken.pdf');
  process.env.LOG_LEVEL = 'debug';
  const captured = capture();
  let jobId: string;
  let fileIds: string[];
  try {
    const created = await stack.call('POST', '/api/v1/jobs/', { raw: form });
    assert.equal(created.status, 200, created.text);
    jobId = created.body.id;
    fileIds = created.body.input_file_ids;
    const done = await eventually(async () => {
      const r = await stack.call('GET', `/api/v1/jobs/${jobId}`);
      return ['COMPLETED', 'FAILED'].includes(r.body.status) ? r.body : undefined;
    }, 'the job to end', 120_000);
    assert.equal(done.status, 'COMPLETED');
    await stack.eventsIdle();
    // finishJob writes COMPLETED before its own "job step done" line: keep capturing until that line
    // is out (a busy machine may print it after the status is seen)
    await eventually(async () => (captured.lines.some((l) => l.includes('"job step done"') && l.includes('"finishJob"')) ? true : undefined), 'the line of finishJob', 30_000)
      .catch(() => undefined); // its absence fails below, with the steps that did log
  } finally {
    captured.stop();
    process.env.LOG_LEVEL = level ?? 'warn';
  }
  const records = captured.lines.map((l) => { try { return JSON.parse(l) as Record<string, unknown>; } catch { return { unparsed: l }; } });
  const work = records.filter((r) => r.msg !== 'notification recorded');
  const steps = new Set(work.filter((r) => r.msg === 'job step done').map((r) => r.step));
  for (const s of ['acquireSlot', 'planFiles', 'processFile', 'finishJob']) assert.ok(steps.has(s), `a line from ${s}: ${[...steps].join(', ')}`);
  for (const r of work) assert.equal(r.job_id, jobId, `every line of job work carries job_id: ${JSON.stringify(r)}`);
  const fileLines = work.filter((r) => r.step === 'processFile');
  assert.ok(fileLines.length >= 2);
  for (const r of fileLines) assert.ok(fileIds.includes(String(r.file_id)), `file_id on ${JSON.stringify(r)}`);
});
