// The operator-credentials rule (issue 27, finding 1) as a pure function: which endpoints count as
// the operator's, so that the deployment's keys may go with a call there. The security tier plays it
// through the API (test/security/operator-credentials.test.ts); here, the URL spellings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foreignEndpointIssues, isOperatorEndpoint } from '../../lambdas/engine/providers/operator-endpoints';

test("no endpoint, the provider's default host, or the operator's own setting (normalised) are the operator's", () => {
  assert.ok(isOperatorEndpoint('openai', undefined, {}));
  assert.ok(isOperatorEndpoint('openai', 'https://api.openai.com/v1', {}));
  assert.ok(isOperatorEndpoint('openai', 'HTTPS://API.OPENAI.COM:443/v1/', {}));
  assert.ok(isOperatorEndpoint('anthropic', 'https://api.anthropic.com', {}));
  assert.ok(isOperatorEndpoint('vertexai', 'https://europe-west4-aiplatform.googleapis.com/', {}));
  assert.ok(isOperatorEndpoint('bedrock', 'https://bedrock-runtime.eu-west-1.amazonaws.com', {}));
  assert.ok(isOperatorEndpoint('openai', 'http://127.0.0.1:8080/v1', { OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1/' }));
  assert.ok(isOperatorEndpoint('azure_openai', 'https://mine.openai.azure.com/', { AZURE_OPENAI_ENDPOINT: 'https://mine.openai.azure.com' }));
  assert.ok(isOperatorEndpoint('bedrock', 'http://localhost:4566', { BEDROCK_ENDPOINT_URL: 'http://localhost:4566/' }));
});

test("anything else is the tenant's: other hosts, look-alikes, user info, plain http to a default host, another path on the operator's host", () => {
  const env = { OPENAI_BASE_URL: 'https://gateway.example/openai/v1' };
  for (const url of [
    'https://evil.example/v1',
    'https://api.openai.com.evil.example/v1',
    'https://api.openai.com@evil.example/v1',
    'https://user:pw@api.openai.com/v1',
    'http://api.openai.com/v1',
    'https://api.openai.com:8443/v1',
    'https://gateway.example/other/v1',
    'not a url',
  ]) {
    assert.equal(isOperatorEndpoint('openai', url, env), false, url);
  }
  // a provider's default is its own: another provider's host is not
  assert.equal(isOperatorEndpoint('togetherai', 'https://api.openai.com/v1', {}), false);
  // Azure has no public default: only the operator's AZURE_OPENAI_ENDPOINT
  assert.equal(isOperatorEndpoint('azure_openai', 'https://x.openai.azure.com', {}), false);
});

test("a foreign endpoint needs the node's own credentials: one issue at the credential field, never the URL", () => {
  const node = { provider: 'openai' as const, model: 'm', baseUrl: 'https://user:secret@evil.example/v1' };
  const [issue, ...rest] = foreignEndpointIssues(node, {}, ['body', 'workflow_nodes', 1]);
  assert.equal(rest.length, 0);
  assert.deepEqual(issue!.loc, ['body', 'workflow_nodes', 1, 'settings', 'api_key']);
  assert.match(issue!.msg, /OPENAI_BASE_URL/);
  assert.ok(!issue!.msg.includes('secret') && !issue!.msg.includes('evil'), issue!.msg);
  assert.deepEqual(foreignEndpointIssues({ ...node, apiKey: 'own' }, {}), []);
  assert.deepEqual(foreignEndpointIssues({ ...node, baseUrl: undefined }, {}), []);
  // contextual chunking names its key field; Bedrock needs both AWS keys and names the missing one
  assert.deepEqual(foreignEndpointIssues(node, {}, [], 'contextual_chunking_api_key')[0]!.loc, ['settings', 'contextual_chunking_api_key']);
  const bedrock = { provider: 'bedrock' as const, model: 'm', baseUrl: 'http://127.0.0.1:1' };
  assert.deepEqual(foreignEndpointIssues(bedrock, {})[0]!.loc, ['settings', 'aws_access_key_id']);
  assert.deepEqual(foreignEndpointIssues({ ...bedrock, accessKeyId: 'AKID' }, {})[0]!.loc, ['settings', 'aws_secret_access_key']);
  assert.deepEqual(foreignEndpointIssues({ ...bedrock, accessKeyId: 'AKID', secretAccessKey: 's' }, {}), []);
});
