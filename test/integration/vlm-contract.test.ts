// Contract tests of the VLM partition providers: the official clients (`openai`, `@anthropic-ai/sdk`,
// the Bedrock runtime client's Converse), called through the partition engine with strategy=vlm,
// against the local model server that speaks each provider's wire format
// (lambdas/engine/enrichment/test-server.ts) and records what it receives: path, auth, model, the
// prompt, the page image. Provider errors, the outbound policy and the no-provider fallback are
// checked too; without credentials the engine falls back to local OCR/text and says so.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { withEnv as withEnvVars } from '../support/env';
import { partition } from '../../lambdas/engine/partition/index';
import { VLM_PROMPT } from '../../lambdas/engine/partition/vlm/index';
import { startModelServer, type ModelServer, type RecordedCall, type Scripted } from '../../lambdas/engine/enrichment/test-server';

const pdf = readFileSync(resolve(process.cwd(), '../shared/corpus/docs/emphasis-text.pdf')); // 1 page
const ANSWER = '[{"type":"Title","text":"Read by the model"},{"type":"NarrativeText","text":"A paragraph the model found on the page."}]';
const MODEL_TEXTS = ['Read by the model', 'A paragraph the model found on the page.'];

const servers: ModelServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));
async function serve(opts: { h2c?: boolean; reply?: (call: RecordedCall) => Scripted } = {}): Promise<ModelServer> {
  const s = await startModelServer({ h2c: opts.h2c, reply: opts.reply ?? (() => ({ text: ANSWER })) });
  servers.push(s);
  return s;
}

/** No provider but the one a test names: keys of the others are cleared. */
const NONE = {
  OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined,
  AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined, AWS_SESSION_TOKEN: undefined, BEDROCK_ENDPOINT: undefined,
};

/** Runs `fn` with no provider but those `vars` set. */
const withEnv = <T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> => withEnvVars({ ...NONE, ...vars }, fn);

const vlm = (provider: string, model?: string) => ({ strategy: 'vlm' as const, vlm: { provider, ...(model ? { model } : {}) } });
const texts = (els: { text: string }[]) => els.map((e) => e.text);
const run = (provider: string, env: Record<string, string | undefined>, model?: string) =>
  withEnv(env, () => partition({ data: pdf, filename: 'emphasis-text.pdf' }, vlm(provider, model)));

/** The page image the server received is a whole PNG of the rendered page (IHDR width and height). */
function assertPagePng(b64: string | undefined): void {
  assert.ok(b64, 'an image was sent');
  const png = Buffer.from(b64, 'base64');
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  assert.equal(png.subarray(12, 16).toString(), 'IHDR');
  assert.ok(png.readUInt32BE(16) > 500 && png.readUInt32BE(20) > 500, `page size ${png.readUInt32BE(16)}×${png.readUInt32BE(20)}`);
  assert.equal(png.subarray(-8, -4).toString(), 'IEND');
}

function assertModelElements(out: Awaited<ReturnType<typeof partition>>): void {
  assert.deepEqual(texts(out.elements), MODEL_TEXTS);
  assert.equal(out.elements[0]!.type, 'Title');
  assert.equal(out.elements[0]!.metadata.page_number, 1);
  assert.deepEqual(out.warnings, []);
}

test('OpenAI: the official client posts chat completions with the prompt, the page as an inline PNG and a bearer key', async () => {
  const srv = await serve();
  const out = await run('openai', { OPENAI_API_KEY: 'sk-contract', OPENAI_BASE_URL: `${srv.url}/v1` }, 'gpt-4o');
  assertModelElements(out);
  assert.equal(srv.calls.length, 1);
  const call = srv.calls[0]!;
  assert.equal(call.url, '/v1/chat/completions');
  assert.equal(call.headers.authorization, 'Bearer sk-contract');
  assert.match(String(call.headers['user-agent']), /^OpenAI\/JS /, 'sent by the official client');
  assert.equal(call.body.model, 'gpt-4o');
  assert.equal(call.body.temperature, 0);
  assert.equal(call.prompt, VLM_PROMPT);
  assert.match(JSON.stringify(call.body), /"url":"data:image\/png;base64,/);
  assertPagePng(call.image);
});

test('Anthropic: the official client posts messages with the key as it sends it (bearer), its version header, the prompt and a base64 PNG', async () => {
  const srv = await serve();
  const out = await run('anthropic', { ANTHROPIC_API_KEY: 'ak-contract', ANTHROPIC_BASE_URL: srv.url, ANTHROPIC_AUTH_TOKEN: 'not-sent' });
  assertModelElements(out);
  const call = srv.calls[0]!;
  assert.equal(call.url, '/v1/messages');
  assert.equal(call.headers.authorization, 'Bearer ak-contract', 'the key, not ANTHROPIC_AUTH_TOKEN of the process');
  assert.match(String(call.headers['anthropic-version']), /^\d{4}-\d{2}-\d{2}$/);
  assert.match(String(call.headers['user-agent']), /^Anthropic\/JS /, 'sent by the official client');
  assert.equal(call.body.model, 'claude-sonnet-4-6');
  assert.equal(call.body.max_tokens, 8192);
  assert.equal(call.prompt, VLM_PROMPT);
  const image = (call.body.messages as any[])[0].content.find((c: { type: string }) => c.type === 'image');
  assert.deepEqual([image.source.type, image.source.media_type], ['base64', 'image/png']);
  assertPagePng(call.image);
});

test('Bedrock: the runtime client sends Converse on the model path over HTTP/2, SigV4-signed with the given keys', async () => {
  const srv = await serve({ h2c: true });
  const model = 'anthropic.claude-3-5-sonnet-20240620-v1:0';
  const env = { AWS_ACCESS_KEY_ID: 'AKIDCONTRACT', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'session-1', AWS_REGION: 'us-west-2', BEDROCK_ENDPOINT: srv.url };
  const out = await run('bedrock', env, model);
  assertModelElements(out);
  const call = srv.calls[0]!;
  assert.equal(decodeURIComponent(call.url), `/model/${model}/converse`);
  assert.match(String(call.headers.authorization), /^AWS4-HMAC-SHA256 Credential=AKIDCONTRACT\/\d{8}\/us-west-2\/bedrock\/aws4_request, SignedHeaders=[^,]*x-amz-security-token[^,]*, Signature=[0-9a-f]{64}$/);
  assert.equal(call.headers['x-amz-security-token'], 'session-1');
  assert.match(String(call.headers['user-agent']), /aws-sdk-js\/3/, 'sent by the official client');
  assert.deepEqual(call.body.inferenceConfig, { maxTokens: 8192, temperature: 0 });
  assert.equal(call.prompt, VLM_PROMPT);
  assert.equal((call.body.messages as any[])[0].content[0].image.format, 'png');
  assertPagePng(call.image);
  // anthropic_bedrock is the same client
  const again = await run('anthropic_bedrock', env, model);
  assert.deepEqual(texts(again.elements), MODEL_TEXTS);
  assert.equal(srv.calls.length, 2);
});

test('a provider error fails the page over to local OCR, with the status and the provider\'s message in the warning; no retry', async () => {
  const openai = await serve({ reply: () => ({ status: 429, body: { error: { message: 'rate limited', type: 'requests' } } }) });
  const o = await run('openai', { OPENAI_API_KEY: 'sk', OPENAI_BASE_URL: `${openai.url}/v1` });
  assert.deepEqual(o.warnings, ['page 1: VLM provider failed (OpenAI returned HTTP 429: rate limited); used local OCR']);
  assert.ok(!texts(o.elements).includes(MODEL_TEXTS[0]!) && o.elements.length > 0);
  assert.equal(openai.calls.length, 1, 'the client does not retry');

  const anthropic = await serve({ reply: () => ({ status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }) });
  const a = await run('anthropic', { ANTHROPIC_API_KEY: 'ak', ANTHROPIC_BASE_URL: anthropic.url });
  assert.deepEqual(a.warnings, ['page 1: VLM provider failed (Anthropic returned HTTP 529: Overloaded); used local OCR']);
  assert.equal(anthropic.calls.length, 1);

  const bedrock = await serve({ h2c: true, reply: () => ({ status: 429, headers: { 'x-amzn-errortype': 'ThrottlingException' }, body: { message: 'Too many requests' } }) });
  const b = await run('bedrock', { AWS_ACCESS_KEY_ID: 'AK', AWS_SECRET_ACCESS_KEY: 'SK', BEDROCK_ENDPOINT: bedrock.url });
  assert.deepEqual(b.warnings, ['page 1: VLM provider failed (Bedrock returned HTTP 429: ThrottlingException: Too many requests); used local OCR']);
  assert.equal(bedrock.calls.length, 1);
});

test('the outbound policy: with private networks denied, no provider reaches the local server', async () => {
  const h1 = await serve();
  const h2 = await serve({ h2c: true });
  const deny = { CONNECTORS_DENY_PRIVATE_NETWORKS: 'true' };
  const cases: [string, string, Record<string, string>][] = [
    ['openai', 'OpenAI', { ...deny, OPENAI_API_KEY: 'sk', OPENAI_BASE_URL: `${h1.url}/v1` }],
    ['anthropic', 'Anthropic', { ...deny, ANTHROPIC_API_KEY: 'ak', ANTHROPIC_BASE_URL: h1.url }],
    ['bedrock', 'Bedrock', { ...deny, AWS_ACCESS_KEY_ID: 'AK', AWS_SECRET_ACCESS_KEY: 'SK', BEDROCK_ENDPOINT: h2.url }],
  ];
  for (const [provider, who, env] of cases) {
    const out = await run(provider, env);
    assert.equal(out.warnings.length, 1, `${provider}: ${JSON.stringify(out.warnings)}`);
    assert.match(out.warnings[0]!, new RegExp(`^page 1: VLM provider failed \\(${who} request refused: host 127\\.0\\.0\\.1 .*private network address.*\\); used local OCR$`), out.warnings[0]);
  }
  assert.equal(h1.calls.length + h2.calls.length, 0);
});

test('no provider configured: local text/OCR instead, and the metadata says so', async () => {
  const srv = await serve();
  const out = await run('openai', { OPENAI_BASE_URL: `${srv.url}/v1` });
  assert.equal(srv.calls.length, 0);
  assert.ok(out.elements.length > 0);
  assert.ok(out.elements.every((e) => typeof e.metadata.partitioner_note === 'string' && e.metadata.partitioner_note.length > 0));
  assert.ok(!texts(out.elements).includes(MODEL_TEXTS[0]!));
});

test('allow_fast: a page with a good text layer skips the model', async () => {
  const srv = await serve();
  const out = await withEnv({ OPENAI_API_KEY: 'sk-contract', OPENAI_BASE_URL: `${srv.url}/v1` }, () =>
    partition({ data: pdf, filename: 'emphasis-text.pdf' }, { strategy: 'vlm', vlm: { provider: 'openai', allowFast: true } }),
  );
  assert.equal(srv.calls.length, 0, 'the model was not called');
  assert.ok(out.elements.length > 0);
  assert.ok(!texts(out.elements).includes(MODEL_TEXTS[0]!));
});
