import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseVlmAnswer, resolveVlmProvider } from '../../../lambdas/engine/partition/vlm/index';

const answer = '```json\n[{"type":"Title","text":"Hello"},{"type":"Table","text":"a b","html":"<table><tr><td>a</td><td>b</td></tr></table>"},{"type":"Bogus","text":"x"}]\n```';

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

  it('counts AWS keys as Bedrock access only on a Lambda, with an endpoint, or when opted in', () => {
    // a Lambda's role credentials (the environment of a deployed function)
    const env = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_REGION: 'eu-west-1', AWS_LAMBDA_FUNCTION_NAME: 'wps-job-process' };
    assert.equal(resolveVlmProvider({ provider: 'bedrock' }, env)?.name, 'bedrock');
    // keys alone (the local emulators' keys with `npm start`) are no Bedrock access
    assert.equal(resolveVlmProvider({ provider: 'bedrock' }, { ...env, AWS_LAMBDA_FUNCTION_NAME: undefined }), undefined);
    assert.equal(resolveVlmProvider({ provider: 'bedrock' }, { ...env, AWS_ENDPOINT_URL: 'http://127.0.0.1:4566' }), undefined);
    assert.equal(resolveVlmProvider({ provider: 'bedrock' }, { ...env, AWS_LAMBDA_FUNCTION_NAME: undefined, BEDROCK_USE_DEFAULT_CREDENTIALS: 'true' })?.name, 'bedrock');
  });
});
