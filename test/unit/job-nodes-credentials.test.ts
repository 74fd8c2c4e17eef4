// No silent stand-ins at create (issue 13, point 4): planNodes, the one validation every job,
// workflow and template path goes through, refuses a hosted embedding model or a VLM without usable
// credentials at the missing field, accepts the same node when the deployment's environment has
// them, and lets the stand-ins through only with ALLOW_OFFLINE_STANDINS=true.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planNodes } from '../../lambdas/domain/job-nodes';
import { ValidationError } from '../../lambdas/errors';

const FAKE = 'sk-fake-unit-0123456789SECRET';
const LOC = ['body', 'workflow_nodes'];
const partition = { name: 'P', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } };
const embed = (subtype: string, settings: Record<string, unknown> = {}) => [partition, { name: 'E', type: 'embed', subtype, settings }];

function refusal(nodes: unknown[], env: Record<string, string | undefined>) {
  try {
    planNodes(nodes, LOC, env);
  } catch (err) {
    assert.ok(err instanceof ValidationError, String(err));
    assert.ok(!JSON.stringify(err.issues).includes(FAKE), 'a key must never be echoed');
    return err.issues;
  }
  return assert.fail('expected a 422');
}

const cases: { subtype: string; settings?: Record<string, unknown>; field: string; hint: RegExp; env: Record<string, string> }[] = [
  { subtype: 'openai', field: 'api_key', hint: /OPENAI_API_KEY/, env: { OPENAI_API_KEY: FAKE } },
  { subtype: 'togetherai', settings: { model_name: 'togethercomputer/m2-bert-80M-8k-retrieval' }, field: 'api_key', hint: /TOGETHER_API_KEY/, env: { TOGETHER_API_KEY: FAKE } },
  { subtype: 'voyageai', field: 'api_key', hint: /VOYAGE_API_KEY/, env: { VOYAGE_API_KEY: FAKE } },
  { subtype: 'azure_openai', settings: { api_key: FAKE }, field: 'azure_endpoint', hint: /AZURE_OPENAI_ENDPOINT/, env: { AZURE_OPENAI_ENDPOINT: 'https://example.openai.azure.com' } },
  { subtype: 'bedrock', settings: { aws_secret_access_key: FAKE }, field: 'aws_access_key_id', hint: /BEDROCK_USE_DEFAULT_CREDENTIALS/, env: { BEDROCK_ENDPOINT_URL: 'https://bedrock.example.com', AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: FAKE } },
];

for (const c of cases) {
  test(`embed ${c.subtype} without credentials: 422 at settings.${c.field}; accepted with the environment's; stand-in opt-in`, () => {
    const nodes = embed(c.subtype, c.settings);
    const [issue, ...rest] = refusal(nodes, {});
    assert.equal(rest.length, 0, JSON.stringify(rest));
    assert.deepEqual(issue!.loc, [...LOC, 1, 'settings', c.field]);
    assert.match(issue!.msg, c.hint);
    assert.match(issue!.msg, /subtype 'local' is the offline choice/);
    assert.equal(planNodes(nodes, LOC, c.env).length, 2);
    assert.equal(planNodes(nodes, LOC, { ALLOW_OFFLINE_STANDINS: 'true' }).length, 2);
    // the old switch still refuses, whatever the new one says
    refusal(nodes, { ALLOW_OFFLINE_STANDINS: 'true', EMBEDDING_FALLBACK: 'none' });
  });
}

test('azure_openai with nothing: both missing fields reported; emulator AWS keys are no Bedrock access', () => {
  assert.deepEqual(refusal(embed('azure_openai'), {}).map((i) => i.loc.at(-1)), ['api_key', 'azure_endpoint']);
  const emulator = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:1' };
  assert.deepEqual(refusal(embed('bedrock'), emulator)[0]!.loc, [...LOC, 1, 'settings', 'aws_access_key_id']);
  assert.equal(planNodes(embed('bedrock', { aws_access_key_id: 'AKID', aws_secret_access_key: FAKE }), LOC, {}).length, 2);
  assert.equal(planNodes(embed('local'), LOC, {}).length, 2);
});

test('VLM partition nodes without credentials: 422 at the provider field, for every spelling; accepted with the environment\'s', () => {
  const vlm = (settings: Record<string, unknown>, subtype = 'vlm') => [{ name: 'V', type: 'partition', subtype, settings }];
  const at = (f: string) => [...LOC, 0, 'settings', f];
  const issue = refusal(vlm({ provider: 'openai', model: 'gpt-4o', api_key: FAKE }), {})[0]!;
  assert.deepEqual(issue.loc, at('provider'));
  assert.match(issue.msg, /OPENAI_API_KEY/);
  assert.match(issue.msg, /strategy 'hi_res' \(local OCR\) is the offline choice/);
  assert.deepEqual(refusal(vlm({ allow_fast: true }), {})[0]!.loc, at('provider'));
  assert.deepEqual(refusal(vlm({ strategy: 'vlm', vlm_model_provider: 'anthropic' }, 'unstructured_api'), {})[0]!.loc, at('vlm_model_provider'));
  assert.deepEqual(refusal(vlm({ strategy: 'vlm' }, 'unstructured_api'), {})[0]!.loc, at('strategy'));
  assert.match(refusal(vlm({ provider: 'vertexai' }), { OPENAI_API_KEY: FAKE })[0]!.msg, /'vertexai' is not available here/);
  // the local stack's emulator keys must not pass for Bedrock
  refusal(vlm({ provider: 'bedrock' }), { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' });
  assert.equal(planNodes(vlm({ provider: 'bedrock' }), LOC, { AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: FAKE, BEDROCK_ENDPOINT: 'https://bedrock.example.com' }).length, 1);
  assert.equal(planNodes(vlm({ provider: 'openai' }), LOC, { OPENAI_API_KEY: FAKE }).length, 1);
  assert.equal(planNodes(vlm({ provider: 'openai' }), LOC, { ALLOW_OFFLINE_STANDINS: 'true' }).length, 1);
  assert.equal(planNodes(vlm({ strategy: 'hi_res' }, 'unstructured_api'), LOC, {}).length, 1);
});

test('every node\'s missing credentials are reported in one 422', () => {
  const nodes = [{ name: 'V', type: 'partition', subtype: 'vlm', settings: { provider: 'anthropic' } }, { name: 'E', type: 'embed', subtype: 'openai', settings: {} }];
  assert.deepEqual(refusal(nodes, {}).map((i) => i.loc), [[...LOC, 0, 'settings', 'provider'], [...LOC, 1, 'settings', 'api_key']]);
});
