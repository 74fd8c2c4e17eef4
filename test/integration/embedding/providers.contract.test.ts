// Contract tests: each hosted provider's real client against a local HTTP server (127.0.0.1, port 0)
// that speaks the provider's documented wire format and records the requests it gets.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { captureConsole } from '../../support/console-lines';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createH2cServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { ValidationError } from '../../../lambdas/errors';
import { createEmbedder, parseEmbedNode, EmbeddingProviderError, type EmbedderConfig } from '../../../lambdas/engine/embedding/index';

const SECRET = 'sk-test-SECRET-4f9a';
const AWS_SECRET = 'aws-SECRET-key-77';

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}
type Reply = (req: Recorded, n: number) => { status?: number; headers?: Record<string, string>; body: unknown; delayMs?: number };

const servers: { close(): void }[] = [];
after(() => servers.forEach((s) => s.close()));

/** `h2c`: HTTP/2 without TLS, which the Bedrock runtime client speaks (its default handler is HTTP/2). */
async function serve(reply: Reply, h2c = false): Promise<{ url: string; requests: Recorded[]; maxInFlight: () => number }> {
  const requests: Recorded[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const raw = Buffer.concat(chunks).toString('utf8');
      const rec: Recorded = { method: req.method!, url: req.url!, headers: req.headers, body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {} };
      requests.push(rec);
      const r = reply(rec, requests.length);
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
        res.end(JSON.stringify(r.body));
      }, r.delayMs ?? 0);
    });
  };
  const server = h2c ? createH2cServer(handler as never) : createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, maxInFlight: () => maxInFlight };
}

/** A vector that encodes its input, so ordering mistakes show. */
const vec = (text: string, dims = 4) => Array.from({ length: dims }, (_, i) => text.length + i / 10);

/** OpenAI/Together/Voyage-style response, data deliberately reversed (clients must honour `index`). */
function openaiStyle(req: Recorded, extra: Record<string, unknown> = {}) {
  const input = req.body.input as string[];
  return { body: { object: 'list', model: req.body.model, data: input.map((t, index) => ({ object: 'embedding', index, embedding: vec(t) })).reverse(), usage: { prompt_tokens: 1, total_tokens: 1 }, ...extra } };
}

const logs = captureConsole();
after(() => {
  for (const line of logs) assert.ok(!line.includes(SECRET) && !line.includes(AWS_SECRET), `a secret was logged: ${line}`);
});

const texts = ['alpha', 'bravo!', 'charlie..', 'delta', 'echo echo'];
const expected = texts.map((t) => vec(t));
const quick = { retryBaseMs: 5 } satisfies Partial<EmbedderConfig>;

test('openai: batches inputs, sends model and Bearer key, honours response order', async () => {
  const srv = await serve((r) => openaiStyle(r));
  const cfg = { ...parseEmbedNode('openai', { model_name: 'text-embedding-3-small', api_key: SECRET, batch_size: 2, base_url: `${srv.url}/v1` }), ...quick };
  const emb = await createEmbedder(cfg, {});
  assert.equal(emb.dimensions, 1536);
  assert.deepEqual(await emb.embedTexts(texts), expected);
  assert.equal(srv.requests.length, 3);
  for (const r of srv.requests) {
    assert.equal(r.method, 'POST');
    assert.equal(r.url, '/v1/embeddings');
    assert.equal(r.headers.authorization, `Bearer ${SECRET}`);
    assert.equal(r.body.model, 'text-embedding-3-small');
    assert.equal(r.body.encoding_format, 'float');
  }
  assert.deepEqual(srv.requests.map((r) => r.body.input), [['alpha', 'bravo!'], ['charlie..', 'delta'], ['echo echo']]);
});

test('openai: key and base URL from the environment', async () => {
  const srv = await serve((r) => openaiStyle(r));
  const emb = await createEmbedder({ ...parseEmbedNode('openai', { model_name: 'text-embedding-3-large' }), ...quick }, { OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: `${srv.url}/v1` });
  assert.equal(emb.dimensions, 3072);
  await emb.embedTexts(['x']);
  assert.equal(srv.requests[0]!.headers.authorization, `Bearer ${SECRET}`);
});

test('azure_openai: deployment path, api-version query, api-key header', async () => {
  const srv = await serve((r) => openaiStyle(r));
  const cfg = parseEmbedNode('azure_openai', { model_name: 'text-embedding-ada-002', deployment: 'emb-deploy', api_version: '2024-10-21' });
  const emb = await createEmbedder({ ...cfg, ...quick }, { AZURE_OPENAI_API_KEY: SECRET, AZURE_OPENAI_ENDPOINT: srv.url });
  assert.deepEqual(await emb.embedTexts(texts.slice(0, 2)), expected.slice(0, 2));
  const r = srv.requests[0]!;
  assert.equal(r.url, '/openai/deployments/emb-deploy/embeddings?api-version=2024-10-21');
  assert.equal(r.headers['api-key'], SECRET);
  assert.equal(r.headers.authorization, undefined);
  assert.deepEqual(r.body.input, ['alpha', 'bravo!']);
});

test('togetherai: OpenAI-compatible API at its base URL', async () => {
  const srv = await serve((r) => openaiStyle(r));
  const cfg = parseEmbedNode('togetherai', { model_name: 'togethercomputer/m2-bert-80M-32k-retrieval', api_key: SECRET });
  assert.equal(cfg.dimensions, 768);
  const emb = await createEmbedder({ ...cfg, ...quick }, { TOGETHER_BASE_URL: `${srv.url}/v1` });
  assert.deepEqual(await emb.embedTexts(texts), expected);
  assert.equal(srv.requests[0]!.url, '/v1/embeddings');
  assert.equal(srv.requests[0]!.headers.authorization, `Bearer ${SECRET}`);
  assert.equal(srv.requests[0]!.body.model, 'togethercomputer/m2-bert-80M-32k-retrieval');
});

test('voyageai: official client, input_type document, Bearer key', async () => {
  const srv = await serve((r) => openaiStyle(r, { usage: { total_tokens: 3 } }));
  const cfg = parseEmbedNode('voyageai', { model_name: 'voyage-3-lite', api_key: SECRET, batch_size: 4, base_url: `${srv.url}/v1` });
  assert.equal(cfg.dimensions, 512);
  const emb = await createEmbedder({ ...cfg, ...quick }, {});
  assert.deepEqual(await emb.embedTexts(texts), expected);
  assert.equal(srv.requests.length, 2);
  const r = srv.requests[0]!;
  assert.equal(r.method, 'POST');
  assert.equal(r.url, '/v1/embeddings');
  assert.equal(r.headers.authorization, `Bearer ${SECRET}`);
  assert.equal(r.body.model, 'voyage-3-lite');
  assert.equal(r.body.input_type, 'document');
  assert.deepEqual(r.body.input, texts.slice(0, 4));
});

test('bedrock titan: InvokeModel per text, SigV4-signed with the given credentials', async () => {
  const srv = await serve((r) => ({ body: { embedding: vec(r.body.inputText as string), inputTextTokenCount: 2 } }), true);
  const cfg = parseEmbedNode('bedrock', { model_name: 'amazon.titan-embed-text-v2:0', aws_access_key_id: 'AKIDTEST', aws_secret_access_key: AWS_SECRET, region: 'eu-west-1', endpoint_url: srv.url });
  assert.equal(cfg.dimensions, 1024);
  const emb = await createEmbedder({ ...cfg, ...quick }, {});
  assert.deepEqual(await emb.embedTexts(texts.slice(0, 3)), expected.slice(0, 3));
  assert.equal(srv.requests.length, 3);
  const r = srv.requests[0]!;
  assert.equal(r.method, 'POST');
  assert.equal(r.url, '/model/amazon.titan-embed-text-v2%3A0/invoke');
  assert.match(String(r.headers.authorization), /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=.*Signature=[0-9a-f]{64}$/);
  assert.equal(r.headers['content-type'], 'application/json');
  assert.deepEqual(r.body, { inputText: 'alpha', normalize: true, dimensions: 1024 });
});

test('bedrock cohere: one request carries a batch of texts', async () => {
  const srv = await serve((r) => ({ body: { id: 'x', response_type: 'embeddings_floats', texts: r.body.texts, embeddings: (r.body.texts as string[]).map((t) => vec(t)) } }), true);
  const cfg = parseEmbedNode('bedrock', { model_name: 'cohere.embed-multilingual-v3', aws_access_key_id: 'AKIDTEST', aws_secret_access_key: AWS_SECRET, endpoint_url: srv.url });
  const emb = await createEmbedder({ ...cfg, ...quick }, {});
  assert.deepEqual(await emb.embedTexts(texts), expected);
  assert.equal(srv.requests.length, 1);
  assert.equal(srv.requests[0]!.url, '/model/cohere.embed-multilingual-v3/invoke');
  assert.deepEqual(srv.requests[0]!.body, { texts, input_type: 'search_document', truncate: 'END' });
});

test('retries 429 (Retry-After) and 5xx with back-off, then succeeds', async () => {
  const srv = await serve((r, n) =>
    n === 1 ? { status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'rate limited' } } }
    : n === 2 ? { status: 503, body: { error: { message: 'busy' } } }
    : openaiStyle(r),
  );
  const emb = await createEmbedder({ ...parseEmbedNode('openai', { api_key: SECRET, base_url: `${srv.url}/v1` }), ...quick }, {});
  assert.deepEqual(await emb.embedTexts(['alpha']), [vec('alpha')]);
  assert.equal(srv.requests.length, 3);
});

test('bedrock throttling is retried too', async () => {
  const srv = await serve((r, n) => (n === 1 ? { status: 429, headers: { 'x-amzn-errortype': 'ThrottlingException' }, body: { message: 'slow down' } } : { body: { embedding: vec(r.body.inputText as string) } }), true);
  const cfg = parseEmbedNode('bedrock', { aws_access_key_id: 'AKIDTEST', aws_secret_access_key: AWS_SECRET, endpoint_url: srv.url });
  const emb = await createEmbedder({ ...cfg, ...quick }, {});
  assert.deepEqual(await emb.embedTexts(['alpha']), [vec('alpha')]);
  assert.equal(srv.requests.length, 2);
});

test('a 4xx other than 429 is not retried; the error names the status, not the key', async () => {
  const srv = await serve(() => ({ status: 401, body: { error: { message: 'Incorrect API key provided' } } }));
  const emb = await createEmbedder({ ...parseEmbedNode('openai', { api_key: SECRET, base_url: `${srv.url}/v1` }), ...quick }, {});
  await assert.rejects(emb.embedTexts(['alpha']), (e: unknown) => {
    assert.ok(e instanceof EmbeddingProviderError);
    assert.equal(e.status, 401);
    assert.ok(!e.message.includes(SECRET));
    return true;
  });
  assert.equal(srv.requests.length, 1);
});

test('gives up after max_retries', async () => {
  const srv = await serve(() => ({ status: 500, body: { error: { message: 'boom' } } }));
  const emb = await createEmbedder({ ...parseEmbedNode('voyageai', { api_key: SECRET, base_url: `${srv.url}/v1`, max_retries: 2 }), ...quick }, {});
  await assert.rejects(emb.embedTexts(['alpha']), (e: unknown) => e instanceof EmbeddingProviderError && e.status === 500);
  assert.equal(srv.requests.length, 3);
});

test('concurrency cap holds across batches', async () => {
  const srv = await serve((r) => ({ ...openaiStyle(r), delayMs: 25 }));
  const cfg = { ...parseEmbedNode('openai', { api_key: SECRET, base_url: `${srv.url}/v1`, batch_size: 1, concurrency: 2 }), ...quick };
  const emb = await createEmbedder(cfg, {});
  assert.deepEqual(await emb.embedTexts(texts), expected);
  assert.equal(srv.requests.length, 5);
  assert.ok(srv.maxInFlight() <= 2, `max in flight ${srv.maxInFlight()}`);
});

test('inputs over the provider limit are truncated with a warning', async () => {
  const srv = await serve((r) => openaiStyle(r));
  const warnings: string[] = [];
  const cfg = parseEmbedNode('togetherai', { model_name: 'togethercomputer/m2-bert-80M-2k-retrieval', api_key: SECRET, base_url: `${srv.url}/v1` });
  const emb = await createEmbedder({ ...cfg, ...quick }, {}, { onWarning: (m) => warnings.push(m) });
  await emb.embedTexts(['short', 'x'.repeat(10_000)]);
  assert.deepEqual((srv.requests[0]!.body.input as string[]).map((s) => s.length), [5, 6000]);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /truncated/);
  assert.ok(!warnings[0]!.includes(SECRET));
});

test('no credentials: refused by default; with ALLOW_OFFLINE_STANDINS the hashed stand-in at the model dimensions, marked; EMBEDDING_FALLBACK=none still refuses', async () => {
  await assert.rejects(createEmbedder(parseEmbedNode('azure_openai', { model_name: 'text-embedding-3-large', api_key: SECRET }), {}), (e: unknown) => {
    assert.ok(e instanceof ValidationError);
    assert.deepEqual(e.issues.map((i) => i.loc), [['settings', 'azure_endpoint']]);
    assert.ok(!e.message.includes(SECRET));
    return true;
  });
  const warnings: string[] = [];
  const allowed = { ALLOW_OFFLINE_STANDINS: 'true' };
  const emb = await createEmbedder(parseEmbedNode('azure_openai', { model_name: 'text-embedding-3-large', api_key: SECRET }), allowed, { onWarning: (m) => warnings.push(m) });
  assert.equal(emb.dimensions, 3072);
  assert.match(emb.model, /offline stand-in for azure_openai\/text-embedding-3-large/);
  assert.equal(emb.standIn!.warning, 'no credentials for azure_openai/text-embedding-3-large; offline hashed stand-in (not semantic) used');
  const [v] = await emb.embedTexts(['hello world']);
  assert.equal(v!.length, 3072);
  assert.equal(warnings.length, 1);
  for (const shown of [...warnings, emb.standIn!.warning, emb.standIn!.elementNote, emb.model]) assert.ok(!shown.includes(SECRET));
  await assert.rejects(createEmbedder(parseEmbedNode('voyageai', {}), { ...allowed, EMBEDDING_FALLBACK: 'none' }), ValidationError);
  // -- emulator-style AWS keys in the environment do not count as Bedrock credentials --
  const b = await createEmbedder(parseEmbedNode('bedrock', {}), { ...allowed, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' }, { onWarning: () => {} });
  assert.equal(b.provider, 'builtin');
});
