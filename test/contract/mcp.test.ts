// The MCP server as a client sees it (the SDK's own Client over an in-memory transport, and the
// HTTP transport for the protocol's error paths): every tool has a description, annotations and an
// input schema that is a valid JSON schema (compiled by ajv); resources and prompts are listed; an
// API refusal is a tool error with the REST status and detail; protocol mistakes are protocol errors.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { buildMcpServer } from '../../lambdas/mcp/server';
import { answerMcp } from '../../lambdas/mcp/http';
import { listTypes } from '../../lambdas/connectors/registry';
import { ROUTES } from '../../lambdas/routes';

const principal = { accountId: 'contract', userId: 'tester' };
let client: Client;

before(async () => {
  const server = buildMcpServer({ principal, streaming: false, remainingMs: () => 5000 });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'contract-test', version: '1.0.0' });
  await client.connect(b);
});

const EXPECTED_TOOLS = [
  'partition_document',
  ...['source', 'destination'].flatMap((k) => {
    const p = `${k}s`;
    return [`list_${p}`, `get_${k}`, `create_${k}`, `update_${k}`, `delete_${k}`, `check_${k}_connection`];
  }),
  'list_workflows', 'get_workflow', 'create_workflow', 'update_workflow', 'delete_workflow', 'run_workflow',
  'list_jobs', 'get_job', 'wait_for_job', 'cancel_job', 'download_job_output', 'create_upload', 'list_templates', 'get_template',
  'list_notifications', 'get_unread_count', 'get_notification', 'mark_notifications_read',
];

test('every tool: a description to act on, annotations, and an input schema ajv compiles', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [...EXPECTED_TOOLS].sort());
  const ajv = new Ajv({ strict: false, validateFormats: false });
  for (const t of tools) {
    assert.ok((t.description ?? '').length >= 40, `${t.name}: description`);
    assert.ok(t.title, `${t.name}: title`);
    assert.equal(t.inputSchema.type, 'object', t.name);
    const { $schema: _s, ...schema } = t.inputSchema as Record<string, unknown>;
    assert.doesNotThrow(() => ajv.compile(schema), `${t.name}: input schema compiles`);
    const a = t.annotations!;
    for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint'] as const) assert.equal(typeof a[hint], 'boolean', `${t.name}: ${hint}`);
    if (/^(list|get)_/.test(t.name)) assert.equal(a.readOnlyHint, true, `${t.name} is read-only`);
    if (/^(delete|cancel)_/.test(t.name)) assert.equal(a.destructiveHint, true, `${t.name} is destructive`);
  }
  // partition_document uses up an upload id and stores a large result: it changes state
  const partition = tools.find((t) => t.name === 'partition_document')!;
  assert.equal(partition.annotations!.readOnlyHint, false);
  assert.equal(partition.annotations!.idempotentHint, false);
});

test('input schemas say what a call needs (required fields, connector config, workflow body)', async () => {
  const { tools } = await client.listTools();
  const byName = new Map(tools.map((t) => [t.name, t.inputSchema as { required?: string[]; properties: Record<string, any> }]));
  assert.deepEqual(byName.get('create_source')!.required?.sort(), ['config', 'name', 'type']);
  assert.deepEqual(byName.get('get_job')!.required, ['job_id']);
  assert.ok(byName.get('create_workflow')!.properties.workflow_nodes, 'workflow nodes documented');
  assert.ok(byName.get('partition_document')!.properties.content_base64);
  // -- the schema validates a real call and refuses a wrong one --
  const ajv = new Ajv({ strict: false, validateFormats: false });
  const validate = ajv.compile(byName.get('create_destination')!);
  assert.ok(validate({ name: 'store', type: 'local', config: { remote_url: 'out' } }));
  assert.equal(validate({ name: 'store', type: 'local' }), false);
});

test('resources: templates and the connector catalogue with config schemas; prompts listed', async () => {
  const { resources } = await client.listResources();
  const uris = resources.map((r) => r.uri);
  for (const u of ['wps://templates', 'wps://connectors/source', 'wps://connectors/destination']) assert.ok(uris.includes(u), u);
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'wps://jobs/{job_id}/outputs/{file_id}'));
  const read = await client.readResource({ uri: 'wps://connectors/destination' });
  const catalogue = JSON.parse(String((read.contents[0] as { text: string }).text)) as { type: string; config_schema: object; secret_fields: string[] }[];
  assert.deepEqual(catalogue.map((c) => c.type), listTypes('destination'));
  const ajv = new Ajv({ strict: false, validateFormats: false });
  for (const c of catalogue) {
    const { $schema: _s, ...schema } = c.config_schema as Record<string, unknown>;
    assert.doesNotThrow(() => ajv.compile(schema), `${c.type} config schema`);
  }
  const { prompts } = await client.listPrompts();
  assert.ok(prompts.some((p) => p.name === 'ingest_into_vector_store'));
  const p = await client.getPrompt({ name: 'ingest_into_vector_store', arguments: { source: 's3://docs/', destination: 'pinecone docs' } });
  assert.match(String((p.messages[0]!.content as { text: string }).text), /s3:\/\/docs\//);
});

test('a refusal is a tool error with the REST status and detail; bad arguments are a tool error too', async () => {
  const missing = await client.callTool({ name: 'get_template', arguments: { template_id: 'no_such_template' } });
  assert.equal(missing.isError, true);
  const [line, body] = missing.content as { text: string }[];
  assert.match(line!.text, /Template no_such_template not found \(HTTP 404\)/);
  assert.deepEqual(JSON.parse(body!.text), { status: 404, detail: 'Template no_such_template not found' });
  const bad = await client.callTool({ name: 'get_job', arguments: { job_id: 'not-a-uuid' } });
  assert.equal(bad.isError, true);
  assert.match((bad.content as { text: string }[])[0]!.text, /job_id/);
  const templates = await client.callTool({ name: 'list_templates', arguments: {} });
  assert.ok(!templates.isError);
  assert.ok(((templates.structuredContent as { items: unknown[] }).items).length > 0);
});

const post = (body: string, accept = 'application/json, text/event-stream') =>
  new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept }, body });
const opts = { principal, json: true, deadline: Date.now() + 60_000 };

test('over HTTP: malformed JSON is a JSON-RPC parse error (400), GET and DELETE 405, a wrong Accept 406', async () => {
  const broken = await answerMcp(post('{"jsonrpc": "2.0", "method": '), opts);
  assert.equal(broken.status, 400);
  assert.equal(((await broken.json()) as { error: { code: number } }).error.code, -32700);
  const notRpc = await answerMcp(post('{"hello": 1}'), opts);
  assert.equal(notRpc.status, 400);
  for (const method of ['GET', 'DELETE']) {
    const r = await answerMcp(new Request('http://localhost/mcp', { method, headers: { accept: 'text/event-stream' } }), opts);
    assert.equal(r.status, 405, method);
    assert.equal(r.headers.get('allow'), 'POST');
  }
  const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  assert.equal((await answerMcp(post(init, 'text/html'), opts)).status, 406);
  const ok = await answerMcp(post(init), opts);
  assert.equal(ok.status, 200);
  assert.match(ok.headers.get('content-type') ?? '', /application\/json/);
  const answer = (await ok.json()) as { result: { serverInfo: { name: string }; capabilities: Record<string, unknown> } };
  assert.equal(answer.result.serverInfo.name, 'workflow-processing-service');
  assert.ok(answer.result.capabilities.tools && answer.result.capabilities.resources && answer.result.capabilities.prompts);
  assert.equal(ok.headers.get('mcp-session-id'), null, 'stateless: no session');
});

test('the route table: POST /mcp, and every streaming export a route names exists beside its handler', async () => {
  const mcp = ROUTES.filter((r) => r.path === '/mcp');
  assert.deepEqual(mcp.map((r) => [r.method, r.handler.export, r.streamExport]), [['POST', 'mcp', 'mcpStream']]);
  for (const r of ROUTES.filter((x) => x.streamExport)) {
    const mod = (await import(`../../lambdas/handlers/${r.handler.file}.ts`)) as Record<string, unknown>;
    assert.equal(typeof mod[r.handler.export], 'function', r.operationId);
    assert.equal(typeof mod[r.streamExport!], 'function', `${r.operationId}: ${r.streamExport}`);
  }
});
