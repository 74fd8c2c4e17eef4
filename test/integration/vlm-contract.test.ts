// Contract tests of the VLM partition providers: the real client code, called through the partition
// endpoint's engine with strategy=vlm, against a local HTTP server that speaks each provider's
// documented wire format (OpenAI Chat Completions, Anthropic Messages, Bedrock Converse) and checks
// the request: path, auth header, model, the page image. Without credentials the engine falls back to
// local OCR/text and says so in the metadata.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { partition } from '../../lambdas/engine/partition/index';

const pdf = readFileSync(resolve(process.cwd(), '../shared/corpus/docs/emphasis-text.pdf')); // 1 page
const ANSWER = '[{"type":"Title","text":"Read by the model"},{"type":"NarrativeText","text":"A paragraph the model found on the page."}]';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

let server: Server;
let base: string;
const seen: Seen[] = [];

function reply(path: string): unknown {
  if (path.endsWith('/chat/completions')) return { id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }] };
  if (path.endsWith('/v1/messages')) return { id: 'm1', type: 'message', role: 'assistant', content: [{ type: 'text', text: ANSWER }], stop_reason: 'end_turn' };
  if (path.endsWith('/converse')) return { output: { message: { role: 'assistant', content: [{ text: ANSWER }] } }, stopReason: 'end_turn' };
  return undefined;
}

before(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push({ method: req.method ?? '', path, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') });
    const body = reply(path);
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: { message: 'unknown path' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(vars)) {
    saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

const vlm = (provider: string, model?: string) => ({ strategy: 'vlm' as const, vlm: { provider, ...(model ? { model } : {}) } });
const texts = (els: { text: string }[]) => els.map((e) => e.text);
const pngOf = (dataUrlOrB64: string) => Buffer.from(dataUrlOrB64.replace(/^data:image\/png;base64,/, ''), 'base64');

test('OpenAI: chat completions with the page as an inline PNG and a bearer key', async () => {
  seen.length = 0;
  const out = await withEnv({ OPENAI_API_KEY: 'sk-contract', OPENAI_BASE_URL: `${base}/v1` }, () =>
    partition({ data: pdf, filename: 'emphasis-text.pdf' }, vlm('openai', 'gpt-4o')),
  );
  assert.deepEqual(texts(out.elements), ['Read by the model', 'A paragraph the model found on the page.']);
  assert.equal(out.elements[0]!.type, 'Title');
  assert.equal(out.elements[0]!.metadata.page_number, 1);
  const call = seen.find((s) => s.path === '/v1/chat/completions')!;
  assert.ok(call, JSON.stringify(seen.map((s) => s.path)));
  assert.equal(call.method, 'POST');
  assert.equal(call.headers.authorization, 'Bearer sk-contract');
  assert.equal(call.body.model, 'gpt-4o');
  const image = call.body.messages[0].content.find((c: { type: string }) => c.type === 'image_url');
  assert.equal(pngOf(image.image_url.url).subarray(1, 4).toString(), 'PNG');
});

test('Anthropic: messages API with x-api-key, version header and a base64 PNG source', async () => {
  seen.length = 0;
  const out = await withEnv({ OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: 'ak-contract', ANTHROPIC_BASE_URL: base }, () =>
    partition({ data: pdf, filename: 'emphasis-text.pdf' }, vlm('anthropic')),
  );
  assert.deepEqual(texts(out.elements), ['Read by the model', 'A paragraph the model found on the page.']);
  const call = seen.find((s) => s.path === '/v1/messages')!;
  assert.ok(call);
  assert.equal(call.headers['x-api-key'], 'ak-contract');
  assert.equal(call.headers['anthropic-version'], '2023-06-01');
  assert.equal(typeof call.body.model, 'string');
  const image = call.body.messages[0].content.find((c: { type: string }) => c.type === 'image');
  assert.equal(image.source.type, 'base64');
  assert.equal(image.source.media_type, 'image/png');
  assert.equal(pngOf(image.source.data).subarray(1, 4).toString(), 'PNG');
});

test('Bedrock: Converse on the model path with a SigV4 Authorization header', async () => {
  seen.length = 0;
  const model = 'anthropic.claude-3-5-sonnet-20240620-v1:0';
  const out = await withEnv(
    { OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, AWS_ACCESS_KEY_ID: 'AKIDCONTRACT', AWS_SECRET_ACCESS_KEY: 'secret', AWS_REGION: 'us-west-2', BEDROCK_ENDPOINT: base },
    () => partition({ data: pdf, filename: 'emphasis-text.pdf' }, vlm('bedrock', model)),
  );
  assert.deepEqual(texts(out.elements), ['Read by the model', 'A paragraph the model found on the page.']);
  const call = seen.find((s) => s.path.endsWith('/converse'))!;
  assert.ok(call);
  assert.equal(decodeURIComponent(call.path), `/model/${model}/converse`);
  assert.match(String(call.headers.authorization), /^AWS4-HMAC-SHA256 Credential=AKIDCONTRACT\/\d{8}\/us-west-2\/bedrock\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/);
  assert.ok(call.headers['x-amz-date']);
  const image = call.body.messages[0].content.find((c: { image?: unknown }) => c.image);
  assert.equal(image.image.format, 'png');
  assert.equal(pngOf(image.image.source.bytes).subarray(1, 4).toString(), 'PNG');
});

test('no provider configured: local text/OCR instead, and the metadata says so', async () => {
  seen.length = 0;
  const out = await withEnv({ OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined }, () =>
    partition({ data: pdf, filename: 'emphasis-text.pdf' }, vlm('openai')),
  );
  assert.equal(seen.length, 0);
  assert.ok(out.elements.length > 0);
  assert.ok(out.elements.every((e) => typeof e.metadata.partitioner_note === 'string' && e.metadata.partitioner_note.length > 0));
  assert.ok(!texts(out.elements).includes('Read by the model'));
});

test('allow_fast: a page with a good text layer skips the model', async () => {
  seen.length = 0;
  const out = await withEnv({ OPENAI_API_KEY: 'sk-contract', OPENAI_BASE_URL: `${base}/v1` }, () =>
    partition({ data: pdf, filename: 'emphasis-text.pdf' }, { strategy: 'vlm', vlm: { provider: 'openai', allowFast: true } }),
  );
  assert.equal(seen.length, 0, 'the model was not called');
  assert.ok(out.elements.length > 0);
  assert.ok(!texts(out.elements).includes('Read by the model'));
});
