// Finding 5 (response caps): a synchronous partition response is built per file and per element and
// its size checked as it grows; above RESPONSE_MAX_BYTES (5 MB on AWS, 100 MB locally; lowered here
// so a small document crosses it) it is a 413 naming the limit and suggesting a job, never "Cannot
// create a string longer than ...". Every other route's response is held to the same limit, and a
// request declaring more than the local request cap is refused before its body is read.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { rawRequest } from '../support/raw-http';
import { resetConfig } from '../../lambdas/config';

const LIMIT = 20_000;
let stack: TestStack;
let saved: string | undefined;

before(async () => {
  if (NEEDS_LOCAL) return;
  saved = process.env.RESPONSE_MAX_BYTES;
  process.env.RESPONSE_MAX_BYTES = String(LIMIT);
  stack = await startTestStack({ authMode: 'none' });
});
after(async () => {
  await stack?.close();
  if (saved === undefined) delete process.env.RESPONSE_MAX_BYTES;
  else process.env.RESPONSE_MAX_BYTES = saved;
  resetConfig();
});

/** Text that partitions into ~300 paragraphs, well above LIMIT bytes of elements JSON. */
const doc = Array.from({ length: 300 }, (_, i) => `Paragraph ${i} of a document whose elements outgrow the response limit.`).join('\n\n');

async function partition(files: number, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (let i = 0; i < files; i++) form.append('files', new Blob([doc], { type: 'text/plain' }), `doc-${i}.txt`);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${stack.url}/general/v0/general`, { method: 'POST', body: form });
  return { status: res.status, text: await res.text() };
}

test('a partition response above the limit is a 413 naming the limit and suggesting a job', { skip: NEEDS_LOCAL }, async () => {
  for (const [files, fields] of [[1, {}], [3, {}], [1, { output_format: 'text/csv' }], [2, { chunking_strategy: 'basic', max_characters: '50' }]] as const) {
    const r = await partition(files, fields);
    assert.equal(r.status, 413, `${files} file(s) ${JSON.stringify(fields)}: ${r.status} ${r.text.slice(0, 200)}`);
    const detail = JSON.parse(r.text).detail as string;
    assert.match(detail, /20000 bytes response limit/);
    assert.match(detail, /POST \/api\/v1\/jobs\//);
  }
  // -- a small document still answers in full --
  const form = new FormData();
  form.append('files', new Blob(['A short note.'], { type: 'text/plain' }), 'note.txt');
  assert.equal((await fetch(`${stack.url}/general/v0/general`, { method: 'POST', body: form })).status, 200);
});

test('any route: a response above the limit is a 413 (here the OpenAPI document)', { skip: NEEDS_LOCAL }, async () => {
  const r = await stack.call('GET', '/openapi.json');
  assert.equal(r.status, 413, r.text.slice(0, 200));
  assert.match(r.body.detail, /larger than this service's 20000 byte limit/);
  assert.equal((await stack.call('GET', '/healthcheck')).status, 200);
});

test('a request declaring more than the local request cap is a 413 before its body is read', { skip: NEEDS_LOCAL }, async () => {
  const r = await rawRequest(
    stack.url,
    'POST /general/v0/general HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 514000000\r\n\r\n--b\r\n',
  );
  assert.equal(r.timedOut, false, 'the service answered without waiting for 514 MB');
  assert.equal(r.status, 413, r.head);
  assert.match(r.body, /up to 256 MiB per request.*\/api\/v1\/uploads\//);
});
