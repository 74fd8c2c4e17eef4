// Finding 8 (server errors from bad input): field sizes have explicit limits in the schemas, free-form
// objects (connector config, node settings) a byte and depth cap, ids a pattern checked before any
// lookup, `sort_by` is an enum (never an unchecked object key), numbers are finite and in range, and
// DynamoDB's 400 KB item limit is a 413 rather than a 500. Keyed mode, real HTTP, real emulators.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { authService } from '../../lambdas/services/core';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store';
import { PayloadTooLarge } from '../../lambdas/errors';

let stack: TestStack;
let key: string;
const MB = 'x'.repeat(1_000_000);

before(async () => {
  if (NEEDS_LOCAL) return;
  stack = await startTestStack({ authMode: 'keyed' });
  key = (await authService().createKey('sec-limits', 'alice')).key;
});
after(async () => {
  await stack?.close();
});

const as = (o: { body?: unknown; raw?: string } = {}) => ({
  ...o,
  headers: { 'unstructured-api-key': key, ...(o.raw ? { 'content-type': 'application/json' } : {}) },
});

/** Asserts a 422 whose detail names `loc` (a sub-path of some issue's loc). */
function assert422(r: { status: number; body: any; text: string }, loc: (string | number)[], what: string): void {
  assert.equal(r.status, 422, `${what}: ${r.status} ${r.text.slice(0, 300)}`);
  const hit = (r.body.detail as { loc: unknown[] }[]).some((d) => loc.every((p, i) => d.loc[i] === p));
  assert.ok(hit, `${what}: no issue at ${loc.join('.')}: ${r.text.slice(0, 300)}`);
}

function jobForm(requestData: unknown, filename = 'a.txt'): FormData {
  const f = new FormData();
  f.append('request_data', typeof requestData === 'string' ? requestData : JSON.stringify(requestData));
  f.append('input_files', new Blob(['hello']), filename);
  return f;
}

async function postForm(path: string, form: FormData): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(stack.url + path, { method: 'POST', body: form, headers: { 'unstructured-api-key': key } });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, text };
}

const partitionNode = { name: 'P', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } };

test('a 1 MB name is a 422 on every create and update that takes one', { skip: NEEDS_LOCAL }, async () => {
  for (const kind of ['sources', 'destinations']) {
    const r = await stack.call('POST', `/api/v1/${kind}/`, as({ body: { name: MB, type: 'local', config: { remote_url: 'inbox' } } }));
    assert422(r, ['body', 'name'], `create ${kind}`);
  }
  assert422(await stack.call('POST', '/api/v1/workflows/', as({ body: { name: MB, workflow_type: 'basic' } })), ['body', 'name'], 'create workflow');
  const wf = await stack.call('POST', '/api/v1/workflows/', as({ body: { name: 'ok', workflow_type: 'basic' } }));
  assert.equal(wf.status, 200, wf.text);
  assert422(await stack.call('PUT', `/api/v1/workflows/${wf.body.id}`, as({ body: { name: MB } })), ['body', 'name'], 'update workflow');
  assert422(
    await stack.call('POST', '/api/v1/workflows/', as({ body: { name: 'n', workflow_type: 'custom', workflow_nodes: [{ ...partitionNode, name: MB }] } })),
    ['body', 'workflow_nodes', 0, 'name'],
    'workflow node name',
  );
  assert422(await postForm('/api/v1/jobs/', jobForm({ job_nodes: [{ ...partitionNode, name: MB }] })), ['body', 'request_data', 'job_nodes', 0, 'name'], 'job node name');
  assert422(await stack.call('POST', '/api/v1/uploads/', as({ body: { filename: MB, size: 10 } })), ['body', 'filename'], 'upload filename');
  assert422(await postForm('/api/v1/jobs/', jobForm({ template_id: 'fast_partition' }, `${'f'.repeat(300)}.txt`)), ['body', 'input_files'], 'uploaded file name');
});

test('connector config and node settings are capped at 64 KiB and 32 levels', { skip: NEEDS_LOCAL }, async () => {
  assert422(
    await stack.call('POST', '/api/v1/sources/', as({ body: { name: 'a', type: 'local', config: { remote_url: 'inbox', extra: MB } } })),
    ['body', 'config'],
    '1 MB config',
  );
  const deep = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
  assert422(
    await stack.call('POST', '/api/v1/sources/', as({ raw: `{"name":"a","type":"local","config":{"remote_url":"inbox","extra":${deep}}}` })),
    ['body', 'config'],
    'config nested 10,000 levels',
  );
  const src = await stack.call('POST', '/api/v1/sources/', as({ body: { name: 'a', type: 'local', config: { remote_url: 'inbox' } } }));
  assert.equal(src.status, 200, src.text);
  assert422(await stack.call('PUT', `/api/v1/sources/${src.body.id}`, as({ body: { config: { remote_url: 'inbox', extra: MB } } })), ['body', 'config'], 'update config');
  assert422(
    await stack.call('POST', '/api/v1/workflows/', as({ body: { name: 'n', workflow_type: 'custom', workflow_nodes: [{ ...partitionNode, settings: { strategy: 'fast', junk: MB } }] } })),
    ['body', 'workflow_nodes', 0, 'settings'],
    'workflow node settings',
  );
  assert422(
    await postForm('/api/v1/jobs/', jobForm({ job_nodes: [{ ...partitionNode, settings: { strategy: 'fast', junk: MB } }] })),
    ['body', 'request_data', 'job_nodes', 0, 'settings'],
    'job node settings',
  );
  assert422(
    await stack.call('POST', '/api/v1/sources/', as({ raw: '{"name":"a","type":"local","config":{"remote_url":"inbox","__proto__":{"polluted":true}}}' })),
    ['body', 'config'],
    '__proto__ key in config',
  );
});

test('sort_by is an enum: __proto__, constructor and prototype are 422, not a TypeError', { skip: NEEDS_LOCAL }, async () => {
  for (const name of ['wf-a', 'wf-b']) {
    assert.equal((await stack.call('POST', '/api/v1/workflows/', as({ body: { name, workflow_type: 'basic' } }))).status, 200);
  }
  for (const v of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']) {
    assert422(await stack.call('GET', `/api/v1/workflows/?sort_by=${v}`, as()), ['query', 'sort_by'], `sort_by=${v}`);
  }
  assert.equal((await stack.call('GET', '/api/v1/workflows/?sort_by=name', as())).status, 200);
});

test('numbers are finite and in range: 1e308 in a number or boolean field is a 422', { skip: NEEDS_LOCAL }, async () => {
  const chunkWorkflow = (settings: string) =>
    `{"name":"n","workflow_type":"custom","workflow_nodes":[{"name":"P","type":"partition","subtype":"unstructured_api","settings":{}},{"name":"C","type":"chunk","subtype":"chunk_by_title","settings":${settings}}]}`;
  assert422(await stack.call('POST', '/api/v1/workflows/', as({ raw: chunkWorkflow('{"max_characters":1e308}') })), ['body', 'workflow_nodes', 1, 'settings'], 'max_characters 1e308');
  assert422(await stack.call('POST', '/api/v1/workflows/', as({ raw: chunkWorkflow('{"max_characters":1e15}') })), ['body', 'workflow_nodes', 1, 'settings', 'max_characters'], 'max_characters 1e15');
  assert422(await stack.call('POST', '/api/v1/workflows/', as({ raw: chunkWorkflow('{"overlap":1e308}') })), ['body', 'workflow_nodes', 1, 'settings'], 'overlap 1e308');
  assert422(await stack.call('POST', '/api/v1/workflows/', as({ raw: chunkWorkflow('{"multipage_sections":1e308}') })), ['body', 'workflow_nodes', 1, 'settings'], 'boolean 1e308');
  assert422(await stack.call('POST', '/api/v1/workflows/', as({ raw: chunkWorkflow('{"multipage_sections":2}') })), ['body', 'workflow_nodes', 1, 'settings', 'multipage_sections'], 'boolean 2');
  assert422(await stack.call('POST', '/api/v1/workflows/', as({ raw: '{"name":"n","workflow_type":"basic","reprocess_all":1e308}' })), ['body', 'reprocess_all'], 'reprocess_all 1e308');
  assert422(await stack.call('GET', '/api/v1/workflows/?page=1e308', as()), ['query', 'page'], 'page 1e308');
  assert422(await stack.call('GET', '/api/v1/notifications?limit=1e308', as()), ['query', 'limit'], 'limit 1e308');
});

test('numbers inside config and settings are within what the store holds (1e308, 1e20 and 1e-300 are 422)', { skip: NEEDS_LOCAL }, async () => {
  for (const n of ['1e308', '-1e200', '1e20', '1e-300']) {
    assert422(
      await stack.call('POST', '/api/v1/sources/', as({ raw: `{"name":"a","type":"local","config":{"remote_url":"inbox","extra":[${n}]}}` })),
      ['body', 'config'],
      `config number ${n}`,
    );
    assert422(
      await stack.call('POST', '/api/v1/workflows/', as({ raw: `{"name":"a","workflow_type":"custom","workflow_nodes":[{"name":"p","type":"partition","subtype":"unstructured_api","settings":{"x":${n}}}]}` })),
      ['body', 'workflow_nodes', 0, 'settings'],
      `settings number ${n}`,
    );
  }
  const ok = await stack.call('POST', '/api/v1/sources/', as({ raw: '{"name":"a","type":"local","config":{"remote_url":"inbox","extra":[9007199254740991, 0, -2.5, 1e-100]}}' }));
  assert.equal(ok.status, 200, ok.text);
});

test('ids are checked by pattern before any lookup', { skip: NEEDS_LOCAL }, async () => {
  assert422(await stack.call('GET', `/api/v1/templates/${'t'.repeat(3000)}`, as()), ['path', 'template_id'], 'template id of 3000 characters');
  assert422(await stack.call('GET', '/api/v1/templates/a.b%20c', as()), ['path', 'template_id'], 'template id with a space');
  assert.equal((await stack.call('GET', '/api/v1/templates/nonexistent_template', as())).status, 404);
  assert422(await stack.call('GET', '/api/v1/notifications/channels/not-a-channel!', as()), ['path', 'channel_id'], 'channel id');
  const zero = '00000000-0000-4000-8000-000000000000';
  assert422(await stack.call('GET', `/api/v1/jobs/${zero}/download?file_id=${'f'.repeat(5000)}`, as()), ['query', 'file_id'], 'download file_id');
  assert422(await stack.call('GET', `/api/v1/jobs/?status=${'s'.repeat(5000)}`, as()), ['query', 'status'], 'job status filter');
  assert422(await stack.call('GET', `/api/v1/workflows/?source_id=${'s'.repeat(5000)}`, as()), ['query', 'source_id'], 'workflow source filter');
});

test('an upload content type is a MIME type (no header injection into the signed URL)', { skip: NEEDS_LOCAL }, async () => {
  assert422(await stack.call('POST', '/api/v1/uploads/', as({ body: { filename: 'a.pdf', content_type: 'text/plain\r\nx-evil: 1', size: 10 } })), ['body', 'content_type'], 'CRLF');
  assert422(await stack.call('POST', '/api/v1/uploads/', as({ body: { filename: 'a\u0000b.pdf', size: 10 } })), ['body', 'filename'], 'NUL in a file name');
  assert.equal((await stack.call('POST', '/api/v1/uploads/', as({ body: { filename: 'a.pdf', content_type: 'application/pdf', size: 10 } }))).status, 201);
});

test('a multipart form field above 1 MiB is a 422, not silently truncated', { skip: NEEDS_LOCAL }, async () => {
  const f = jobForm({ template_id: 'fast_partition', padding: 'p'.repeat(2 * 1024 * 1024) });
  assert422(await postForm('/api/v1/jobs/', f), ['body', 'request_data'], '2 MiB request_data');
});

test('a JSON request body above 1 MiB is a 413 before it is parsed', { skip: NEEDS_LOCAL }, async () => {
  const r = await stack.call('POST', '/api/v1/sources/', as({ body: { name: 'a', type: 'local', config: { remote_url: 'inbox' }, padding: 'p'.repeat(2 * 1024 * 1024) } }));
  assert.equal(r.status, 413, r.text.slice(0, 200));
  assert.match(r.body.detail, /1 MiB/);
});

test("DynamoDB's 400 KB item limit is a 413, not a 500", { skip: NEEDS_LOCAL }, async () => {
  const store = new DynamoStore(stack.env.TABLE_NAME);
  const item = { PK: 'ACCT#sec-limits', SK: 'BIG#1', entity: 'test', createdAt: new Date().toISOString(), blob: 'b'.repeat(500_000) };
  await assert.rejects(store.put(item), (err: unknown) => err instanceof PayloadTooLarge && /400 KB/.test((err as Error).message));
  await store.put({ ...item, blob: 'small' });
  await assert.rejects(store.update({ PK: item.PK, SK: item.SK }, { set: { blob: 'b'.repeat(500_000) } }), (err: unknown) => err instanceof PayloadTooLarge);
});
