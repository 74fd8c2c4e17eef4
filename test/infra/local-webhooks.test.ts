// LOCAL_WEBHOOKS_ALLOW_LOOPBACK (http:// loopback webhook receivers) is a switch of the local runner
// only: no deployment sets it, and a Lambda whose environment had it would still refuse http://.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { synthStack } from './synth';
import { PROJECT_ROOT } from '../../lib/base-function';
import { CreateChannelRequest } from '../../lambdas/schemas/channels';
import { HttpsWebhookPoster } from '../../lambdas/adapters/https-webhook';
import { resetConfig } from '../../lambdas/config';

const VAR = 'LOCAL_WEBHOOKS_ALLOW_LOOPBACK';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('the CDK never sets it: no template of the stack (root and nested) names the variable', () => {
  for (const props of [{}, { authMode: 'none' as const }]) {
    const { templates } = synthStack(props);
    for (const t of templates) assert.ok(!JSON.stringify(t.json).includes(VAR), `${t.path} names ${VAR}`);
  }
  for (const f of sources(join(PROJECT_ROOT, 'lib'))) assert.ok(!readFileSync(f, 'utf8').includes(VAR), f);
});

test('Lambda code ignores it: with the variable set, http:// loopback is still refused by the schema and the poster', async () => {
  // No module the Lambdas bundle reads the variable (comments may name it): only local/stack.ts does.
  const reads = new RegExp(`process\\.env(\\.${VAR}|\\[['"\`]${VAR})|['"\`]${VAR}['"\`]`);
  assert.ok(reads.test(readFileSync(join(PROJECT_ROOT, 'local/stack.ts'), 'utf8')), 'the pattern finds the local runner\'s read');
  for (const f of sources(join(PROJECT_ROOT, 'lambdas'))) assert.ok(!reads.test(readFileSync(f, 'utf8')), `${f} reads ${VAR}`);
  process.env[VAR] = 'true';
  resetConfig();
  try {
    const r = CreateChannelRequest.safeParse({ channel_type: 'webhook', url: 'http://127.0.0.1:9/hook', event_types: ['job.failed'] });
    assert.ok(!r.success);
    assert.match(r.error.issues[0]!.message, /https:\/\//);
    await assert.rejects(new HttpsWebhookPoster(1000).post('http://127.0.0.1:9/hook', {}, '{}'), /https:\/\//);
  } finally {
    delete process.env[VAR];
  }
});
