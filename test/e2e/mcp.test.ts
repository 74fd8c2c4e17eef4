// The MCP endpoint driven by the SDK's own client (Client + StreamableHTTPClientTransport) against
// the local stack in keyed mode: the key as `Authorization: Bearer`, tools listed with their
// schemas, a document partitioned (inline, and above the inline size as a link), connectors and a
// workflow created, run, waited for with progress notifications (SSE under npm start), its output
// downloaded; a second tenant's key sees none of it; refusals are tool errors with the REST detail.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { authService } from '../../lambdas/services/core';

let stack: TestStack;
let a: Client;
let b: Client;
let keyA = '';
/** The job the workflow test ran (for the Lambda handler's test). */
let ranJobId = '';

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

const text = (r: CallToolResult, i = 0) => (r.content[i] as { text: string }).text;
const data = (r: CallToolResult) => {
  assert.ok(!r.isError, `tool error: ${JSON.stringify(r.content)}`);
  return JSON.parse(text(r, r.content.length - 1));
};
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;

before(async () => {
  if (NEEDS_LOCAL) return;
  stack = await startTestStack({ authMode: 'keyed' });
  keyA = (await authService().createKey('mcp-a', 'alice')).key;
  const keyB = (await authService().createKey('mcp-b', 'bob')).key;
  // -- keyed mode: the local connector reaches only <DATA_DIR>/connector-files/<account> --
  const inDir = join(stack.dataDir, 'connector-files', 'mcp-a', 'in');
  mkdirSync(inDir, { recursive: true });
  for (const name of ['alpha', 'beta']) {
    writeFileSync(join(inDir, `${name}.txt`), `${name} report\n\nA paragraph about ${name}, long enough to be narrative text of its own.\n`);
  }
  a = await connect(keyA);
  b = await connect(keyB);
});
after(async () => {
  await a?.close();
  await b?.close();
  await stack?.close();
});

test('without a key /mcp is a 401; GET is a 405 (stateless)', { skip: NEEDS_LOCAL }, async () => {
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
  const r = await fetch(`${stack.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(init) });
  assert.equal(r.status, 401);
  assert.match(((await r.json()) as { detail: string }).detail, /API key is missing/);
  const bad = await fetch(`${stack.url}/mcp`, { method: 'POST', headers: { authorization: 'Bearer wps_nope', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(init) });
  assert.equal(bad.status, 401);
  assert.equal((await fetch(`${stack.url}/mcp`, { headers: { accept: 'text/event-stream' } })).status, 405);
});

test('tools are listed with input schemas and annotations', { skip: NEEDS_LOCAL }, async () => {
  const { tools } = await a.listTools();
  const names = tools.map((t) => t.name);
  for (const n of ['partition_document', 'create_source', 'create_destination', 'create_workflow', 'run_workflow', 'wait_for_job', 'download_job_output', 'list_templates', 'mark_notifications_read']) {
    assert.ok(names.includes(n), n);
  }
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', t.name);
    assert.ok(t.annotations && typeof t.annotations.readOnlyHint === 'boolean', t.name);
  }
});

test('partition_document: elements inline, and above the inline size a summary with a link', { skip: NEEDS_LOCAL }, async () => {
  const doc = Buffer.from('Quarterly report\n\nRevenue grew in every region this quarter, led by the northern stores.\n');
  const small = await call(a, 'partition_document', { filename: 'report.txt', content_base64: doc.toString('base64'), strategy: 'fast' });
  const elements = data(small) as { type: string; text: string; metadata: { filename: string } }[];
  assert.ok(elements.some((e) => /Revenue grew/.test(e.text)));
  assert.equal(elements[0]!.metadata.filename, 'report.txt');
  const big = Buffer.from(Array.from({ length: 1500 }, (_, i) => `Paragraph ${i}: ${'words and more words '.repeat(8)}`).join('\n\n'));
  const large = await call(a, 'partition_document', { filename: 'big.txt', content_base64: big.toString('base64') });
  assert.ok(!large.isError, JSON.stringify(large.content).slice(0, 500));
  const link = large.content.find((c) => c.type === 'resource_link') as { uri: string } | undefined;
  assert.ok(link, 'a link to the full result');
  const full = (await (await fetch(link.uri)).json()) as unknown[];
  assert.equal(full.length, 1500);
  const bad = await call(a, 'partition_document', { filename: 'x.txt' });
  assert.equal(bad.isError, true);
  assert.match(text(bad), /exactly one of content_base64 and upload_id/);
});

test('connectors and a workflow: run, wait with progress, download; the other tenant sees none of it', { skip: NEEDS_LOCAL }, async () => {
  const refused = await call(a, 'create_source', { name: 'nope', type: 'no-such-type', config: {} });
  assert.equal(refused.isError, true);
  assert.equal(JSON.parse(text(refused, 1)).status, 422);

  const source = data(await call(a, 'create_source', { name: 'reports', type: 'local', config: { remote_url: 'in' } }));
  const destination = data(await call(a, 'create_destination', { name: 'out', type: 'local', config: { remote_url: 'out' } }));
  const check = data(await call(a, 'check_source_connection', { source_id: source.id, timeout_seconds: 60 }));
  assert.equal(check.status, 'SUCCESS', JSON.stringify(check));
  const workflow = data(await call(a, 'create_workflow', {
    name: 'mcp flow', workflow_type: 'custom', source_id: source.id, destination_id: destination.id,
    workflow_nodes: [
      { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
      { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 500 } },
    ],
  }));
  const job = data(await call(a, 'run_workflow', { workflow_id: workflow.id }));
  ranJobId = job.id;

  const progress: Progress[] = [];
  const waited = (await a.callTool({ name: 'wait_for_job', arguments: { job_id: job.id, timeout_seconds: 240 } }, undefined, {
    onprogress: (p) => progress.push(p),
    timeout: 300_000,
  })) as CallToolResult;
  const result = data(waited);
  assert.equal(result.ended, true, JSON.stringify(result));
  assert.equal(result.details.processing_status, 'SUCCESS', JSON.stringify(result.details));
  assert.equal(result.progress_streamed, true);
  assert.ok(progress.length >= 1, 'progress notifications arrived');
  assert.equal(progress.at(-1)!.progress, 2);
  assert.equal(progress.at(-1)!.total, 2);
  assert.ok(result.seen.length >= 1);

  const got = data(await call(a, 'get_job', { job_id: job.id }));
  assert.equal(got.job.status, 'COMPLETED');
  assert.deepEqual(got.failed_files, []);
  const fileId = got.job.output_node_files[0].file_id as string;
  const out = await call(a, 'download_job_output', { job_id: job.id, file_id: fileId });
  assert.ok(!out.isError, JSON.stringify(out.content));
  const embedded = out.content.find((c) => c.type === 'resource') as { resource: { text: string } };
  const chunks = JSON.parse(embedded.resource.text) as { type: string }[];
  assert.ok(chunks.length > 0 && chunks.every((c) => c.type === 'CompositeElement'));
  const listing = await a.readResource({ uri: `wps://jobs/${job.id}/outputs` });
  // -- one output per node and file: 2 files × partition and chunk --
  assert.equal(JSON.parse(String((listing.contents[0] as { text: string }).text)).output_files.length, 4);
  const read = await a.readResource({ uri: `wps://jobs/${job.id}/outputs/${fileId}` });
  assert.deepEqual(JSON.parse(String((read.contents[0] as { text: string }).text)), chunks);

  // -- the second tenant: nothing listed, every id unknown --
  assert.deepEqual(data(await call(b, 'list_sources')).items, []);
  assert.deepEqual(data(await call(b, 'list_workflows')).items, []);
  assert.deepEqual(data(await call(b, 'list_jobs')).items, []);
  for (const [name, args] of [
    ['get_source', { source_id: source.id }],
    ['get_workflow', { workflow_id: workflow.id }],
    ['run_workflow', { workflow_id: workflow.id }],
    ['get_job', { job_id: job.id }],
    ['download_job_output', { job_id: job.id, file_id: fileId }],
    ['delete_destination', { destination_id: destination.id }],
  ] as const) {
    const r = await call(b, name, args);
    assert.equal(r.isError, true, name);
    assert.equal(JSON.parse(text(r, 1)).status, 404, name);
  }
  await assert.rejects(b.readResource({ uri: `wps://jobs/${job.id}/outputs` }), /not found/i);
  // -- and the first still has it all --
  assert.equal(data(await call(a, 'get_workflow', { workflow_id: workflow.id })).id, workflow.id);
});

test('the Lambda handler (JSON mode, as on AWS): one JSON answer, no stream; wait_for_job returns what it saw', { skip: NEEDS_LOCAL }, async () => {
  assert.ok(ranJobId, 'the workflow test ran a job');
  const { mcp } = await import('../../lambdas/handlers/mcp');
  const invoke = (body: unknown) =>
    mcp(
      {
        httpMethod: 'POST', path: '/mcp', body: JSON.stringify(body), isBase64Encoded: false,
        headers: { authorization: `Bearer ${keyA}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      } as never,
      { awsRequestId: 'mcp-e2e', getRemainingTimeInMillis: () => 29_000 } as never,
    );
  const res = await invoke({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'wait_for_job', arguments: { job_id: ranJobId, timeout_seconds: 5 }, _meta: { progressToken: 'p7' } } });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /application\/json/);
  const answer = JSON.parse(res.body) as { id: number; result: CallToolResult };
  assert.equal(answer.id, 7);
  const result = data(answer.result);
  assert.equal(result.ended, true);
  assert.equal(result.progress_streamed, false, 'JSON mode: no notifications during the request');
  assert.equal(result.seen.at(-1).processing_status, 'SUCCESS');
  const none = await mcp({ httpMethod: 'POST', path: '/mcp', headers: { 'content-type': 'application/json' }, body: '{}', isBase64Encoded: false } as never, {} as never);
  assert.equal(none.statusCode, 401);
});
