// Large files (extension to the platform API, DESIGN §7): a presigned upload straight to storage,
// named in create-job / run-workflow by `input_upload_ids`, and job outputs above the inline limit
// served by a 307 to a presigned storage URL. The limit is lowered here so a small output redirects.
process.env.DOWNLOAD_INLINE_MAX_BYTES = '2000';

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { eventually, type TestStack } from '../support/local-stack';
import { launchUntilAccepted, stackForFile } from '../support/e2e-jobs';

const corpus = resolve(process.cwd(), '../shared/corpus/docs');
let stack: TestStack;
stackForFile((s) => (stack = s));

const partitionOnly = { job_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }] };

async function upload(filename: string, data: Uint8Array, contentType = 'text/plain'): Promise<string> {
  const ticket = await stack.call('POST', '/api/v1/uploads/', { body: { filename, content_type: contentType, size: data.length } });
  assert.equal(ticket.status, 201, ticket.text);
  assert.equal(ticket.body.method, 'PUT');
  assert.equal(ticket.body.max_bytes, 50_000_000);
  const put = await fetch(ticket.body.upload_url, { method: 'PUT', headers: ticket.body.headers, body: data });
  assert.equal(put.status, 200, await put.text());
  return ticket.body.id;
}

const launch = (form: FormData) => launchUntilAccepted(stack, form);

function form(fields: Record<string, string>, files: { name: string; data: Uint8Array }[] = []): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const x of files) f.append('input_files', new Blob([x.data]), x.name);
  return f;
}

test('a presigned upload feeds a job beside a direct file; a large output redirects to storage', async () => {
  const text = readFileSync(resolve(corpus, 'book-war-and-peace-1p.txt'));
  const id = await upload('war-and-peace.txt', text);
  const created = await launch(form({ request_data: JSON.stringify(partitionOnly), input_upload_ids: id }, [{ name: 'small.txt', data: Buffer.from('A short note.') }]));
  assert.equal(created.status, 200, created.text);
  assert.equal(created.body.input_file_ids.length, 2);
  const done = await eventually(async () => {
    const r = await stack.call('GET', `/api/v1/jobs/${created.body.id}`);
    return ['COMPLETED', 'FAILED'].includes(r.body.status) ? r.body : undefined;
  }, 'job to finish', 120_000);
  assert.equal(done.status, 'COMPLETED');

  // -- the uploaded file's output is large: 307 to a presigned URL that serves the elements --
  const [smallId, bigId] = created.body.input_file_ids as string[]; // direct files first, then uploads
  const res = await fetch(`${stack.url}/api/v1/jobs/${created.body.id}/download?file_id=${bigId}`, { redirect: 'manual' });
  assert.equal(res.status, 307);
  const location = res.headers.get('location')!;
  assert.match(location, /X-Amz-Signature=/);
  const elements = (await (await fetch(location)).json()) as { text: string; metadata: { filename: string } }[];
  assert.ok(elements.length > 5);
  assert.equal(elements[0]!.metadata.filename, 'war-and-peace.txt');
  // -- fetch (like the SDKs' HTTP clients) follows the redirect by itself --
  const followed = await stack.call('GET', `/api/v1/jobs/${created.body.id}/download?file_id=${bigId}`);
  assert.equal(followed.status, 200);
  assert.deepEqual(followed.body, elements);
  // -- a small output still comes inline --
  const small = await fetch(`${stack.url}/api/v1/jobs/${created.body.id}/download?file_id=${smallId}`, { redirect: 'manual' });
  assert.equal(small.status, 200);
  assert.equal(((await small.json()) as { text: string }[])[0]!.text, 'A short note.');

  // -- an upload is used once --
  const again = await launch(form({ request_data: JSON.stringify(partitionOnly), input_upload_ids: id }));
  assert.equal(again.status, 422, again.text);
  assert.deepEqual(again.body.detail[0].loc, ['body', 'input_upload_ids']);
});

test('upload mistakes are clear client errors and use nothing up', async () => {
  const missing = await stack.call('POST', '/api/v1/uploads/', { body: { content_type: 'text/plain', size: 10 } });
  assert.equal(missing.status, 422);
  assert.deepEqual(missing.body.detail[0].loc, ['body', 'filename']);
  for (const size of [undefined, 0, 50_000_001, 1.5]) {
    const bad = await stack.call('POST', '/api/v1/uploads/', { body: { filename: 'a.txt', size } });
    assert.equal(bad.status, 422, `size ${size}: ${bad.text}`);
    assert.deepEqual(bad.body.detail[0].loc, ['body', 'size']);
  }

  // -- named before its file was PUT: 422, and the upload stays usable --
  const ticket = await stack.call('POST', '/api/v1/uploads/', { body: { filename: 'later.txt', size: 15 } });
  const early = await launch(form({ request_data: JSON.stringify(partitionOnly), input_upload_ids: ticket.body.id }));
  assert.equal(early.status, 422, early.text);
  assert.match(early.body.detail[0].msg, /PUT the file/);
  await fetch(ticket.body.upload_url, { method: 'PUT', headers: ticket.body.headers, body: 'Now it is here.' });
  const ok = await launch(form({ request_data: JSON.stringify(partitionOnly), input_upload_ids: ticket.body.id }));
  assert.equal(ok.status, 200, ok.text);

  const unknown = await launch(form({ request_data: JSON.stringify(partitionOnly), input_upload_ids: '7f2b8a52-1b59-4d3c-9a57-2d4f0c8e9b10' }));
  assert.equal(unknown.status, 404, unknown.text);
  const malformed = await launch(form({ request_data: JSON.stringify(partitionOnly), input_upload_ids: `${ticket.body.id},not-a-uuid` }));
  assert.equal(malformed.status, 422, malformed.text);
  assert.deepEqual(malformed.body.detail[0].loc, ['body', 'input_upload_ids', 1]);

  // -- eleven files in all (10 direct + 1 upload) is over the limit, and the upload is not consumed --
  const extra = await upload('extra.txt', Buffer.from('Extra.'));
  const files = Array.from({ length: 10 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from(`File ${i}.`) }));
  const tooMany = await launch(form({ request_data: JSON.stringify(partitionOnly), input_upload_ids: extra }, files));
  assert.equal(tooMany.status, 422, tooMany.text);
  const later = await launch(form({ request_data: JSON.stringify(partitionOnly), input_upload_ids: extra }));
  assert.equal(later.status, 200, later.text);
});

test('the storage holds an upload to its declared size and to one PUT (issue 28)', async () => {
  const ticket = await stack.call('POST', '/api/v1/uploads/', { body: { filename: 'sized.txt', content_type: 'text/plain', size: 12 } });
  assert.equal(ticket.status, 201, ticket.text);
  assert.equal(ticket.body.size, 12);
  assert.equal(ticket.body.headers['if-none-match'], '*');
  // -- a body longer than declared is refused by the storage itself, before the API sees anything --
  const big = await fetch(ticket.body.upload_url, { method: 'PUT', headers: ticket.body.headers, body: 'x'.repeat(10_000) });
  assert.ok(big.status === 403 || big.status === 400, `a 10,000-byte PUT on a 12-byte ticket: ${big.status}`);
  const put = await fetch(ticket.body.upload_url, { method: 'PUT', headers: ticket.body.headers, body: 'Twelve bytes' });
  assert.equal(put.status, 200, await put.text());
  // -- a second PUT on the same URL (after the file arrived, or after the job took it) is refused --
  const again = await fetch(ticket.body.upload_url, { method: 'PUT', headers: ticket.body.headers, body: 'Other bytes!' });
  assert.equal(again.status, 412, `second PUT: ${again.status} ${await again.text()}`);
  const used = await launch(form({ request_data: JSON.stringify(partitionOnly), input_upload_ids: ticket.body.id }));
  assert.equal(used.status, 200, used.text);
  const afterUse = await fetch(ticket.body.upload_url, { method: 'PUT', headers: ticket.body.headers, body: 'Third bytes!' });
  assert.equal(afterUse.status, 412, `PUT after use: ${afterUse.status}`);
});
