// Issue 31: a loopback webhook refused under npm start names the setting that allows it; on AWS (and
// for any other http:// URL) the message does not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowLoopbackHttpWebhooks, webhookUrlProblem } from '../../../lambdas/net/webhook-target';

test('an http:// loopback receiver refused locally names LOCAL_WEBHOOKS_ALLOW_LOOPBACK; elsewhere the plain rule', () => {
  allowLoopbackHttpWebhooks(false);
  assert.match(webhookUrlProblem('http://127.0.0.1:9000/hook')!, /LOCAL_WEBHOOKS_ALLOW_LOOPBACK=true/);
  assert.match(webhookUrlProblem('http://localhost/hook')!, /LOCAL_WEBHOOKS_ALLOW_LOOPBACK/);
  assert.equal(webhookUrlProblem('http://hooks.example.com/x'), 'URL must be an absolute https:// URL');
  assert.equal(webhookUrlProblem('https://hooks.example.com/x'), undefined);
  const saved = process.env.AWS_LAMBDA_FUNCTION_NAME;
  process.env.AWS_LAMBDA_FUNCTION_NAME = 'channels';
  try {
    assert.equal(webhookUrlProblem('http://127.0.0.1:9000/hook'), 'URL must be an absolute https:// URL', 'no local setting named on AWS');
  } finally {
    if (saved === undefined) delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    else process.env.AWS_LAMBDA_FUNCTION_NAME = saved;
  }
  allowLoopbackHttpWebhooks(true);
  assert.equal(webhookUrlProblem('http://127.0.0.1:9000/hook'), undefined);
  allowLoopbackHttpWebhooks(false);
});
