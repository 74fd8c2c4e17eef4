// Contract tests of the prompter node: each provider's official client against a local server that
// speaks its wire format (lambdas/engine/enrichment/test-server.ts) and records what it receives.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { captureConsole } from '../../support/console-lines';
import { ConnectorFailure, ValidationError } from '../../../lambdas/errors';
import { makeElement, type Element } from '../../../lambdas/engine/elements';
import { enrichElements, parsePrompterNode } from '../../../lambdas/engine/enrichment/index';
import { startModelServer, type ModelServer, type Reply } from '../../../lambdas/engine/enrichment/test-server';

const SECRET = 'sk-enrich-SECRET-93c1';
const AWS_SECRET = 'aws-enrich-SECRET-51';
// a 1×1 PNG
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const servers: ModelServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));
async function serve(reply?: Reply, h2c = false): Promise<ModelServer> {
  const s = await startModelServer({ reply, h2c });
  servers.push(s);
  return s;
}

const logs = captureConsole();
/** Everything a test could leak a key into: logs, the elements, warnings, error messages. */
const outputs: string[] = [];
after(() => {
  for (const line of [...logs, ...outputs]) assert.ok(!line.includes(SECRET) && !line.includes(AWS_SECRET), `a secret leaked: ${line.slice(0, 200)}`);
});

const image = (text = '') => makeElement('Image', text, { filename: 'doc.pdf', page_number: 1, image_base64: PNG, image_mime_type: 'image/png' });
const table = (text = 'Year Revenue 2023 10 2024 12') => makeElement('Table', text, { filename: 'doc.pdf', text_as_html: '<table><tr><td>Year</td><td>Revenue</td></tr></table>' });
const para = (text: string) => makeElement('NarrativeText', text, { filename: 'doc.pdf' });

async function run(subtype: string, settings: Record<string, unknown>, elements: Element[], env: Record<string, string> = {}) {
  try {
    const r = await enrichElements(elements, parsePrompterNode(subtype, { max_retries: 2, ...settings }), env);
    outputs.push(JSON.stringify(r));
    return r;
  } catch (err) {
    outputs.push(String((err as Error).message), JSON.stringify(err));
    throw err;
  }
}

test('openai image description: image as a data URL, Bearer key, answer written to text as the platform does', async () => {
  const srv = await serve();
  const els = [image('Figure 1'), para('not an image')];
  const r = await run('openai_image_description', { api_key: SECRET, base_url: `${srv.url}/v1`, model: 'gpt-4o-mini' }, els);
  assert.equal(srv.calls.length, 1);
  const call = srv.calls[0]!;
  assert.equal(call.url, '/v1/chat/completions');
  assert.equal(call.headers.authorization, `Bearer ${SECRET}`);
  assert.equal(call.body.model, 'gpt-4o-mini');
  assert.equal(call.image, PNG);
  assert.match(call.prompt, /Describe this image/);
  assert.match(call.prompt, /Figure 1/);
  assert.deepEqual(JSON.parse(els[0]!.text), { type: 'diagram', description: `A test image of ${PNG.length} base64 characters.` });
  assert.equal(els[0]!.metadata.image_base64, PNG, 'pixels are kept, as the platform keeps image_base64');
  assert.equal(els[1]!.text, 'not an image');
  assert.equal(r.enriched, 1);
  assert.equal(r.warning, undefined);
});

test('anthropic table description: image and HTML sent, the key as the client sends it, summary replaces the text', async () => {
  const srv = await serve();
  const t = table();
  t.metadata.image_base64 = PNG;
  await run('anthropic_table_description', {}, [t], { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: srv.url });
  const call = srv.calls[0]!;
  assert.equal(call.url, '/v1/messages');
  assert.equal(call.headers.authorization, `Bearer ${SECRET}`);
  assert.ok(call.headers['anthropic-version'], 'the Messages API version header');
  assert.equal(call.body.model, 'claude-sonnet-4-6');
  assert.equal(call.image, PNG);
  assert.match(call.prompt, /<table><tr><td>Year/);
  assert.match(call.system, /summarise tables/);
  assert.equal(t.text, 'A table of test values.');
  assert.match(String(t.metadata.text_as_html), /Revenue/);
});

test('bedrock image description: Converse over the real runtime client, image bytes, SigV4 with the given key', async () => {
  const srv = await serve(undefined, true);
  const el = image();
  await run('bedrock_image_description', { endpoint_url: srv.url, region: 'eu-west-1', aws_access_key_id: 'AKIDENRICH', aws_secret_access_key: AWS_SECRET }, [el]);
  const call = srv.calls[0]!;
  assert.equal(call.url, `/model/${encodeURIComponent('us.anthropic.claude-3-5-sonnet-20241022-v2:0')}/converse`);
  assert.match(String(call.headers.authorization), /^AWS4-HMAC-SHA256 Credential=AKIDENRICH\/\d+\/eu-west-1\/bedrock\/aws4_request/);
  assert.equal(call.image, PNG);
  assert.equal((call.body.messages as { content: { image?: { format: string } }[] }[])[0]!.content[0]!.image!.format, 'png');
  assert.equal(JSON.parse(el.text).type, 'diagram');
});

test('vertexai image description: generateContent with inline data, API key header (express mode)', async () => {
  const srv = await serve();
  const el = image();
  await run('vertexai_image_description', { model: 'gemini-2.0-flash-001' }, [el], { VERTEX_API_KEY: SECRET, VERTEX_BASE_URL: srv.url });
  const call = srv.calls[0]!;
  assert.match(call.url, /models\/gemini-2\.0-flash-001:generateContent/);
  assert.equal(call.headers['x-goog-api-key'], SECRET);
  assert.equal(call.image, PNG);
  assert.match(call.system, /describe images/);
  assert.equal(JSON.parse(el.text).type, 'diagram');
});

test('openai ner → metadata.entities {items, relationships}; table2html → metadata.text_as_html', async () => {
  const srv = await serve();
  const els = [para('Steve founded Apple in Cupertino.'), image()];
  await run('openai_ner', { api_key: SECRET, base_url: `${srv.url}/v1` }, els);
  assert.deepEqual(els[0]!.metadata.entities, { items: [{ entity: 'Steve', type: 'ORGANIZATION' }, { entity: 'Apple', type: 'ORGANIZATION' }, { entity: 'Cupertino', type: 'ORGANIZATION' }], relationships: [] });
  assert.equal(srv.calls.length, 1, 'an element without text is not sent');
  const t = table();
  await run('openai_table2html', { api_key: SECRET, base_url: `${srv.url}/v1` }, [t]);
  assert.equal(t.metadata.text_as_html, '<table><tbody><tr><td>cell</td></tr></tbody></table>');
  assert.match(srv.calls[1]!.prompt, /Year Revenue 2023/);
});

test('429 with Retry-After: the client waits what the server says, then succeeds', async () => {
  const srv = await serve((_c, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached', type: 'rate_limit' } } } : undefined));
  const times: number[] = [];
  const origPush = srv.calls.push.bind(srv.calls);
  srv.calls.push = (...c) => (times.push(Date.now()), origPush(...c));
  const el = image();
  const r = await run('openai_image_description', { api_key: SECRET, base_url: `${srv.url}/v1` }, [el]);
  assert.equal(srv.calls.length, 2);
  assert.ok(times[1]! - times[0]! >= 900, `retried after ${times[1]! - times[0]!} ms, Retry-After said 1 s`);
  assert.equal(r.enriched, 1);
  assert.equal(JSON.parse(el.text).type, 'diagram');
});

test('429 forever: bounded retries, the element keeps its text, the reason is the warning', async () => {
  const srv = await serve(() => ({ status: 429, headers: { 'retry-after-ms': '10' }, body: { error: { message: 'Rate limit reached' } } }));
  const el = image('caption text');
  const r = await run('openai_image_description', { api_key: SECRET, base_url: `${srv.url}/v1`, max_retries: 2 }, [el]);
  assert.equal(srv.calls.length, 3, 'one call and two retries');
  assert.equal(el.text, 'caption text');
  assert.equal(r.failed.length, 1);
  assert.match(r.warning ?? '', /1 of 1 element\(s\) of doc\.pdf kept their original text \(image_description\): openai\/gpt-4o: Rate limit reached \(HTTP 429\) after 3 attempts/);
  assert.match(String(el.metadata.enrichment_note), /HTTP 429/);
});

test('malformed JSON from the provider and a malformed model answer: elements keep their text', async () => {
  const srv = await serve((_c, n) => (n === 1 ? { status: 200, body: '{"choices": [ not json' } : { text: 'no json here' }));
  const els = [image('first'), image('second')];
  const r = await run('openai_image_description', { api_key: SECRET, base_url: `${srv.url}/v1`, concurrency: 1 }, els);
  assert.deepEqual(els.map((e) => e.text), ['first', 'second']);
  assert.equal(r.failed.length, 2);
  assert.match(r.failed[1]!.reason, /not a JSON object/);
  assert.equal(srv.calls.length, 2, 'a malformed body is not retried');
});

test('refusals (OpenAI refusal, Anthropic stop_reason refusal, Bedrock content_filtered, Vertex SAFETY) keep the text', async () => {
  const cases: [string, Record<string, unknown>, Record<string, string>, boolean][] = [
    ['openai_image_description', { api_key: SECRET }, {}, false],
    ['anthropic_image_description', { api_key: SECRET }, {}, false],
    ['bedrock_image_description', { aws_access_key_id: 'AKID', aws_secret_access_key: AWS_SECRET }, {}, true],
    ['vertexai_image_description', { api_key: SECRET }, {}, false],
  ];
  for (const [subtype, settings, env, h2c] of cases) {
    const srv = await serve(() => ({ refuse: true }), h2c);
    const base = subtype.startsWith('openai') ? `${srv.url}/v1` : srv.url;
    const el = image('kept');
    const r = await run(subtype, { ...settings, base_url: base }, [el], env);
    assert.equal(el.text, 'kept', subtype);
    assert.match(r.warning ?? '', /refused/, subtype);
    assert.equal(srv.calls.length, 1, `${subtype}: a refusal is not retried`);
  }
});

test('an image over the provider limit is not sent: the element keeps its text', async () => {
  const srv = await serve();
  const big = makeElement('Image', 'big one', { filename: 'doc.pdf', image_base64: 'A'.repeat(7 * 1024 * 1024), image_mime_type: 'image/png' });
  const small = image();
  const r = await run('anthropic_image_description', { api_key: SECRET, base_url: srv.url }, [big, small]);
  assert.equal(srv.calls.length, 1);
  assert.equal(big.text, 'big one');
  assert.match(r.warning ?? '', /over anthropic\/claude-sonnet-4-6's limit of 5242880 bytes/);
  assert.equal(r.enriched, 1);
});

test('a provider refusing every call fails the node with its message', async () => {
  const srv = await serve(() => ({ status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } }));
  await assert.rejects(run('openai_image_description', { api_key: SECRET, base_url: `${srv.url}/v1` }, [image(), image()]), (err: unknown) => {
    assert.ok(err instanceof ConnectorFailure);
    assert.equal((err as Error).message, 'openai/gpt-4o: Incorrect API key provided (HTTP 401)');
    return true;
  });
  assert.equal(srv.calls.length, 2, 'a 401 is not retried');
});

test('bounded concurrency: never more requests in flight than the setting', async () => {
  const srv = await startModelServer({ latencyMs: 30 });
  servers.push(srv);
  const els = Array.from({ length: 12 }, () => image());
  const r = await run('openai_image_description', { api_key: SECRET, base_url: `${srv.url}/v1`, concurrency: 3 }, els);
  assert.equal(r.enriched, 12);
  assert.equal(srv.maxInFlight(), 3);
});

test('no credentials: refused with the field to set; allowed stand-in marks every target element', async () => {
  await assert.rejects(run('openai_image_description', {}, [image()]), (err: unknown) => {
    assert.ok(err instanceof ValidationError);
    assert.deepEqual(err.issues[0]!.loc, ['settings', 'api_key']);
    assert.match(err.issues[0]!.msg, /OPENAI_API_KEY/);
    return true;
  });
  const el = image('kept');
  const r = await run('openai_image_description', {}, [el, para('x')], { ALLOW_OFFLINE_STANDINS: 'true' });
  assert.equal(el.text, 'kept');
  assert.match(String(el.metadata.enrichment_note), /offline stand-in for openai\/gpt-4o/);
  assert.match(r.standIn ?? '', /1 element\(s\) left without image_description/);
});
