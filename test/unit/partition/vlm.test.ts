import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseVlmAnswer, resolveVlmProvider, VLM_PROMPT } from '../../../lambdas/engine/partition/vlm/index';
import { signV4 } from '../../../lambdas/engine/partition/vlm/bedrock';
import { DEFAULT_PARTITION_OPTIONS } from '../../../lambdas/engine/partition/types';

const page = { gray: new Uint8Array(4 * 3).fill(255), width: 4, height: 3, page: 2 };
const answer = '```json\n[{"type":"Title","text":"Hello"},{"type":"Table","text":"a b","html":"<table><tr><td>a</td><td>b</td></tr></table>"},{"type":"Bogus","text":"x"}]\n```';

interface Captured { url: string; init: RequestInit }
function fakeFetch(body: unknown, captured: Captured[], status = 200): typeof fetch {
  return (async (url: string | URL | Request, init?: RequestInit) => {
    captured.push({ url: String(url), init: init ?? {} });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
}

describe('VLM providers', () => {
  it('is unavailable without credentials', () => {
    assert.equal(resolveVlmProvider({ provider: 'openai' }, {}), undefined);
    assert.equal(resolveVlmProvider(undefined, {}), undefined);
    assert.equal(resolveVlmProvider({ provider: 'nope' }, { OPENAI_API_KEY: 'k' }), undefined);
  });

  it('parses the model answer into elements', () => {
    const els = parseVlmAnswer(answer, 3);
    assert.deepEqual(els.map((e) => e.type), ['Title', 'Table', 'UncategorizedText']);
    assert.equal(els[1]!.metadata.text_as_html, '<table><tr><td>a</td><td>b</td></tr></table>');
    assert.equal(els[0]!.metadata.page_number, 3);
    assert.throws(() => parseVlmAnswer('no json here', 1), /not a JSON array/);
  });

  it('calls OpenAI chat completions with an inline PNG', async () => {
    const calls: Captured[] = [];
    const p = resolveVlmProvider({ provider: 'openai', model: 'gpt-test' }, { OPENAI_API_KEY: 'sk-1', OPENAI_BASE_URL: 'http://vlm.local/v1' }, fakeFetch({ choices: [{ message: { content: answer } }] }, calls))!;
    const els = await p.partitionPage(page, DEFAULT_PARTITION_OPTIONS);
    assert.equal(els.length, 3);
    assert.equal(calls[0]!.url, 'http://vlm.local/v1/chat/completions');
    const headers = calls[0]!.init.headers as Record<string, string>;
    assert.equal(headers.authorization, 'Bearer sk-1');
    const body = JSON.parse(String(calls[0]!.init.body));
    assert.equal(body.model, 'gpt-test');
    assert.equal(body.messages[0].content[0].text, VLM_PROMPT);
    assert.match(body.messages[0].content[1].image_url.url, /^data:image\/png;base64,iVBORw0KGgo/);
  });

  it('calls the Anthropic messages API', async () => {
    const calls: Captured[] = [];
    const p = resolveVlmProvider({ provider: 'anthropic' }, { ANTHROPIC_API_KEY: 'ak' }, fakeFetch({ content: [{ type: 'text', text: answer }] }, calls))!;
    const els = await p.partitionPage(page, DEFAULT_PARTITION_OPTIONS);
    assert.equal(els[0]!.text, 'Hello');
    assert.equal(calls[0]!.url, 'https://api.anthropic.com/v1/messages');
    const headers = calls[0]!.init.headers as Record<string, string>;
    assert.equal(headers['x-api-key'], 'ak');
    assert.equal(headers['anthropic-version'], '2023-06-01');
    const body = JSON.parse(String(calls[0]!.init.body));
    assert.equal(body.messages[0].content[0].source.media_type, 'image/png');
  });

  it('calls Bedrock Converse with a SigV4 signature', async () => {
    const calls: Captured[] = [];
    // a Lambda's role credentials (the environment of a deployed function)
    const env = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_REGION: 'eu-west-1', AWS_SESSION_TOKEN: 'tok', AWS_LAMBDA_FUNCTION_NAME: 'wps-job-process' };
    // keys alone (the local emulators' keys with `npm start`) are no Bedrock access
    assert.equal(resolveVlmProvider({ provider: 'bedrock' }, { ...env, AWS_LAMBDA_FUNCTION_NAME: undefined }), undefined);
    const p = resolveVlmProvider({ provider: 'bedrock', model: 'anthropic.claude-3-haiku-20240307-v1:0' }, env, fakeFetch({ output: { message: { content: [{ text: answer }] } } }, calls))!;
    await p.partitionPage(page, DEFAULT_PARTITION_OPTIONS);
    assert.equal(calls[0]!.url, 'https://bedrock-runtime.eu-west-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse');
    const h = calls[0]!.init.headers as Record<string, string>;
    assert.match(h.authorization!, /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/);
    assert.equal(h['x-amz-security-token'], 'tok');
  });

  it('signs deterministically for a fixed time and body', () => {
    const input = { method: 'POST', url: new URL('https://bedrock-runtime.us-east-1.amazonaws.com/model/m%3A1/converse'), body: '{}', region: 'us-east-1', service: 'bedrock', accessKeyId: 'AK', secretAccessKey: 'SK', now: new Date('2024-01-02T03:04:05Z') };
    const a = signV4(input), b = signV4(input);
    assert.equal(a.authorization, b.authorization);
    assert.equal(a['x-amz-date'], '20240102T030405Z');
    assert.notEqual(signV4({ ...input, body: '{"x":1}' }).authorization, a.authorization);
  });

  it('surfaces HTTP errors from the provider', async () => {
    const p = resolveVlmProvider({ provider: 'openai' }, { OPENAI_API_KEY: 'k' }, fakeFetch({ error: 'rate limited' }, [], 429))!;
    await assert.rejects(p.partitionPage(page, DEFAULT_PARTITION_OPTIONS), /HTTP 429/);
  });
});
