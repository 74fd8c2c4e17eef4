// Issue 27, finding 1: the deployment's model credentials (OPENAI_API_KEY and the other providers'
// keys, the process's AWS keys) sent to an endpoint a tenant named. Played as the attacker: with every
// operator key set to a sentinel, tenant B points embed and prompter nodes at a loopback listener
// (HTTP/1 for the API-key providers, h2c for Bedrock) that records every request's headers. Such a
// node without its own key is a 422 at create naming the settings field; a workflow stored while the
// deployment's own *_BASE_URL named that host (the record an old workflow is: never validated by the
// rule) fails its node at run time once the operator moved away, and nothing reaches the listener.
// With the tenant's own key the request goes, carrying that key; with the operator's own *_BASE_URL
// the deployment's key is used, as configured.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createH2cServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { keyedStack, locs, messages, waitForJob, withEnv, type Tenants } from './helpers';

const OPERATOR: Record<string, string> = {
  OPENAI_API_KEY: 'sk-operator-sentinel-openai',
  AZURE_OPENAI_API_KEY: 'operator-sentinel-azure',
  TOGETHER_API_KEY: 'operator-sentinel-together',
  VOYAGE_API_KEY: 'operator-sentinel-voyage',
  ANTHROPIC_API_KEY: 'operator-sentinel-anthropic',
  ANTHROPIC_AUTH_TOKEN: 'operator-sentinel-anthropic-token',
  VERTEX_API_KEY: 'operator-sentinel-vertex',
  BEDROCK_USE_DEFAULT_CREDENTIALS: 'true',
};
/** Operator settings that name endpoints: unset unless a test sets them. */
const OPERATOR_ENDPOINTS = ['OPENAI_BASE_URL', 'AZURE_OPENAI_ENDPOINT', 'TOGETHER_BASE_URL', 'VOYAGE_BASE_URL', 'ANTHROPIC_BASE_URL', 'VERTEX_BASE_URL', 'GOOGLE_VERTEX_BASE_URL', 'BEDROCK_ENDPOINT_URL', 'BEDROCK_ENDPOINT'];
const OTHER = ['ALLOW_OFFLINE_STANDINS', 'GOOGLE_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_APPLICATION_CREDENTIALS', 'CONNECTORS_DENY_PRIVATE_NETWORKS'];
const TENANT_KEY = 'tenant-b-own-key-4411';

let t: Tenants;
let http1: Server;
let h2c: Http2Server;
let url: string;
let h2url: string;
/** Every request either listener received: path and headers. */
const seen: { url: string; headers: IncomingMessage['headers'] }[] = [];
const saved: Record<string, string | undefined> = {};

function body(req: IncomingMessage): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      } catch {
        resolve({});
      }
    });
  });
}

before(async () => {
  for (const k of [...Object.keys(OPERATOR), ...OPERATOR_ENDPOINTS, ...OTHER]) saved[k] = process.env[k];
  for (const k of [...OPERATOR_ENDPOINTS, ...OTHER]) delete process.env[k];
  Object.assign(process.env, OPERATOR, { CONNECTORS_DENY_PRIVATE_NETWORKS: 'false' });
  // Answers enough of OpenAI's embeddings and chat completions and Anthropic's messages for a job to complete.
  http1 = createServer(async (req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const b = await body(req);
    const reply = (o: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(o));
    };
    if (/\/embeddings(\?|$)/.test(req.url ?? '')) {
      const inputs: unknown[] = Array.isArray(b.input) ? b.input : [b.input];
      return reply({ object: 'list', data: inputs.map((_, index) => ({ object: 'embedding', index, embedding: new Array(1536).fill(0.01) })), model: b.model, usage: { prompt_tokens: 1, total_tokens: 1 } });
    }
    if (/\/chat\/completions$/.test(req.url ?? '')) {
      return reply({ id: 'c1', object: 'chat.completion', created: 1, model: b.model, choices: [{ index: 0, message: { role: 'assistant', content: 'A table of values.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
    }
    if (/\/v1\/messages$/.test(req.url ?? '')) {
      return reply({ id: 'm1', type: 'message', role: 'assistant', model: b.model, content: [{ type: 'text', text: 'A table of values.' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } });
    }
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"message":"no such route here"}');
  });
  await new Promise<void>((r) => http1.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(http1.address() as AddressInfo).port}`;
  h2c = createH2cServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers as IncomingMessage['headers'] });
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"message":"no"}');
  });
  await new Promise<void>((r) => h2c.listen(0, '127.0.0.1', r));
  h2url = `http://127.0.0.1:${(h2c.address() as AddressInfo).port}`;
  t = await keyedStack();
});

after(async () => {
  await t?.stack.close();
  http1?.closeAllConnections();
  await new Promise<void>((r) => http1?.close(() => r()));
  await new Promise<void>((r) => h2c?.close(() => r()));
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** Whether any recorded request carried an operator credential (a sentinel, or the process's AWS key id). */
function leaked(): string[] {
  const secrets = [...Object.values(OPERATOR).filter((v) => v !== 'true'), process.env.AWS_ACCESS_KEY_ID!];
  return seen.filter((r) => secrets.some((s) => JSON.stringify(r.headers).includes(s))).map((r) => r.url);
}

const partition = { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } };
const chunk = { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: {} };
const embedNodes = (subtype: string, settings: Record<string, unknown>) => [partition, { name: 'Embedder', type: 'embed', subtype, settings: { max_retries: 0, ...settings } }];
const prompterNodes = (subtype: string, settings: Record<string, unknown>) => [partition, { name: 'Describer', type: 'prompter', subtype, settings: { max_retries: 0, ...settings } }, chunk];

/** Embed nodes naming the listener and no key: each provider's endpoint field, the field the 422 names, the operator setting that would make the listener the deployment's own. */
const EMBEDS = () => [
  { subtype: 'openai', settings: { model_name: 'text-embedding-3-small', base_url: `${url}/v1` }, field: 'api_key', operator: { OPENAI_BASE_URL: `${url}/v1` } },
  { subtype: 'azure_openai', settings: { model_name: 'text-embedding-3-small', azure_endpoint: url }, field: 'api_key', operator: { AZURE_OPENAI_ENDPOINT: url } },
  { subtype: 'togetherai', settings: { model_name: 'togethercomputer/m2-bert-80M-8k-retrieval', base_url: `${url}/v1` }, field: 'api_key', operator: { TOGETHER_BASE_URL: `${url}/v1` } },
  { subtype: 'voyageai', settings: { model_name: 'voyage-3-lite', base_url: `${url}/v1` }, field: 'api_key', operator: { VOYAGE_BASE_URL: `${url}/v1` } },
  { subtype: 'bedrock', settings: { model_name: 'amazon.titan-embed-text-v2:0', endpoint_url: h2url }, field: 'aws_access_key_id', operator: { BEDROCK_ENDPOINT_URL: h2url } },
];
/** Prompter nodes (table descriptions: the document below has one table), likewise. */
const PROMPTERS = () => [
  { subtype: 'openai_table_description', settings: { base_url: `${url}/v1` }, field: 'api_key', operator: { OPENAI_BASE_URL: `${url}/v1` } },
  { subtype: 'anthropic_table_description', settings: { base_url: url }, field: 'api_key', operator: { ANTHROPIC_BASE_URL: url } },
  { subtype: 'vertexai_table_description', settings: { base_url: url }, field: 'api_key', operator: { VERTEX_BASE_URL: url } },
  { subtype: 'bedrock_table_description', settings: { endpoint_url: h2url }, field: 'aws_access_key_id', operator: { BEDROCK_ENDPOINT_URL: h2url } },
];

const createWorkflow = (nodes: unknown[]) => t.stack.call('POST', '/api/v1/workflows/', { ...t.asB, body: { name: 'wf', workflow_type: 'custom', workflow_nodes: nodes } });

const HTML = '<html><body><h1>Results</h1><p>Some text to embed and describe.</p><table><tr><th>Name</th><th>Value</th></tr><tr><td>alpha</td><td>1</td></tr></table></body></html>';

async function runWorkflow(id: string) {
  const form = new FormData();
  form.append('input_files', new Blob([HTML], { type: 'text/html' }), 'doc.html');
  for (;;) {
    const r = await t.stack.call('POST', `/api/v1/workflows/${id}/run`, { ...t.asB, raw: form });
    if (r.status !== 429) {
      assert.equal(r.status, 202, r.text);
      return waitForJob(t.stack, t.asB, r.body.id);
    }
    await new Promise((res) => setTimeout(res, 300));
  }
}

test('an embed node naming its own endpoint and no key is a 422 at create naming the field (every affected provider, job and workflow)', async () => {
  for (const c of EMBEDS()) {
    const r = await createWorkflow(embedNodes(c.subtype, c.settings));
    assert.equal(r.status, 422, `${c.subtype}: ${r.text}`);
    assert.deepEqual(locs(r.body), [`body.workflow_nodes.1.settings.${c.field}`], r.text);
    assert.match(messages(r.body), /endpoint the deployment did not configure/);
  }
  // the job route plans its nodes through the same check
  const form = new FormData();
  form.append('request_data', JSON.stringify({ job_nodes: embedNodes('openai', EMBEDS()[0]!.settings) }));
  form.append('input_files', new Blob(['text'], { type: 'text/plain' }), 'doc.txt');
  const job = await t.stack.call('POST', '/api/v1/jobs/', { ...t.asB, raw: form });
  assert.equal(job.status, 422, job.text);
  assert.deepEqual(locs(job.body), ['body.request_data.job_nodes.1.settings.api_key'], job.text);
  // offline stand-ins do not soften it: the node names an endpoint, it is not missing a model
  await withEnv({ ALLOW_OFFLINE_STANDINS: 'true' }, async () => {
    const r = await createWorkflow(embedNodes('openai', EMBEDS()[0]!.settings));
    assert.equal(r.status, 422, r.text);
  });
  assert.deepEqual(leaked(), []);
});

test('a prompter node naming its own endpoint and no key is a 422 at create naming the field; a Vertex location naming a host is refused', async () => {
  for (const c of PROMPTERS()) {
    const r = await createWorkflow(prompterNodes(c.subtype, c.settings));
    assert.equal(r.status, 422, `${c.subtype}: ${r.text}`);
    assert.deepEqual(locs(r.body), [`body.workflow_nodes.1.settings.${c.field}`], r.text);
  }
  // with application default credentials the location becomes the host: https://{location}-aiplatform.googleapis.com
  await withEnv({ GOOGLE_APPLICATION_CREDENTIALS: '/dev/null', VERTEX_API_KEY: undefined }, async () => {
    const r = await createWorkflow(prompterNodes('vertexai_table_description', { project: 'p', location: '127.0.0.1:1/x#' }));
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(locs(r.body), ['body.workflow_nodes.1.settings.location'], r.text);
  });
});

test('a Bedrock node naming its own endpoint_url with only one of its keys: 422 at the other', async () => {
  const r = await createWorkflow(embedNodes('bedrock', { endpoint_url: h2url, aws_access_key_id: 'AKIDTENANT' }));
  assert.equal(r.status, 422, r.text);
  assert.deepEqual(locs(r.body), ['body.workflow_nodes.1.settings.aws_secret_access_key'], r.text);
});

test('workflows stored before the rule: each node naming its own endpoint fails at run time, and no operator credential reaches the listener', async () => {
  const stored: { subtype: string; id: string }[] = [];
  // stored while the deployment's own setting named the listener (so valid then, as every old record was)...
  for (const c of [...EMBEDS().map((e) => ({ ...e, nodes: embedNodes(e.subtype, e.settings) })), ...PROMPTERS().map((p) => ({ ...p, nodes: prompterNodes(p.subtype, p.settings) }))]) {
    const r = await withEnv(c.operator, () => createWorkflow(c.nodes));
    assert.equal(r.status, 200, `${c.subtype}: ${r.text}`);
    stored.push({ subtype: c.subtype, id: r.body.id });
  }
  // ...and run now that it does not
  const outcomes: { subtype: string; status: string; error?: string }[] = [];
  for (const w of stored) {
    const done = await runWorkflow(w.id);
    const failed = await t.stack.call('GET', `/api/v1/jobs/${done.id}/failed-files`, t.asB);
    outcomes.push({ subtype: w.subtype, status: done.status, error: failed.body.failed_files?.[0]?.error });
  }
  assert.deepEqual(leaked(), [], 'no operator credential was sent');
  assert.deepEqual(seen.map((s) => s.url), [], 'nothing was sent at all');
  for (const o of outcomes) {
    assert.equal(o.status, 'FAILED', JSON.stringify(o));
    assert.match(o.error ?? '', /endpoint the deployment did not configure/, JSON.stringify(o));
  }
});

test("with the tenant's own key the request goes, carrying the tenant's key and none of the operator's", async () => {
  seen.length = 0;
  const wf = await createWorkflow(embedNodes('openai', { ...EMBEDS()[0]!.settings, api_key: TENANT_KEY }));
  assert.equal(wf.status, 200, wf.text);
  assert.equal((await runWorkflow(wf.body.id)).status, 'COMPLETED');
  const pr = await createWorkflow(prompterNodes('anthropic_table_description', { base_url: url, api_key: TENANT_KEY }));
  assert.equal(pr.status, 200, pr.text);
  assert.equal((await runWorkflow(pr.body.id)).status, 'COMPLETED');
  const embeds = seen.filter((s) => s.url.endsWith('/embeddings'));
  const messagesSeen = seen.filter((s) => s.url.endsWith('/v1/messages'));
  assert.ok(embeds.length > 0 && messagesSeen.length > 0, JSON.stringify(seen.map((s) => s.url)));
  for (const s of embeds) assert.equal(s.headers.authorization, `Bearer ${TENANT_KEY}`);
  // (the Anthropic client sends its key as x-api-key or as a bearer token, by version)
  for (const s of messagesSeen) assert.ok([s.headers['x-api-key'], s.headers.authorization].some((v) => String(v).includes(TENANT_KEY)), JSON.stringify(s.headers));
  assert.deepEqual(leaked(), []);
});

test("with the operator's own *_BASE_URL naming the listener, the deployment's key is used (the operator configured it)", async () => {
  seen.length = 0;
  await withEnv({ OPENAI_BASE_URL: `${url}/v1/` }, async () => {
    // no endpoint in the node, and the same endpoint without the trailing slash: both the operator's
    for (const settings of [{ model_name: 'text-embedding-3-small' }, { model_name: 'text-embedding-3-small', base_url: `${url}/v1` }]) {
      const wf = await createWorkflow(embedNodes('openai', settings));
      assert.equal(wf.status, 200, wf.text);
      assert.equal((await runWorkflow(wf.body.id)).status, 'COMPLETED');
    }
  });
  const embeds = seen.filter((s) => s.url.endsWith('/embeddings'));
  assert.ok(embeds.length >= 2);
  for (const s of embeds) assert.equal(s.headers.authorization, `Bearer ${OPERATOR.OPENAI_API_KEY}`);
});
