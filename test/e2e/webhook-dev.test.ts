// Webhooks you can develop against (issue 14 point 5) on the whole local stack:
// - LOCAL_WEBHOOKS_ALLOW_LOOPBACK (the local runner's switch) lets an http:// loopback receiver in;
// - POST .../channels/{id}/test sends a signed test event and reports the answer (404, 429, 400);
// - a delivery waiting for its retry when the stack stops is delivered, once, after a restart on
//   the same data directory.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Webhook } from 'standardwebhooks';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { startTestStack, eventually, NEEDS_LOCAL, type TestStack } from '../support/local-stack';
import { deliveriesSettled } from '../support/delivery-queue';
import { EVENT_SOURCE } from '../../lambdas/events';

const ACCT = '/api/v1/notifications/channels';

/** A plain-HTTP receiver on loopback: answers `mode` and records every request. */
type Hit = { headers: IncomingMessage['headers']; body: string; status: number };
const hits: Hit[] = [];
let mode: 200 | 500 = 200;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const status = mode;
    hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
    res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'received, thanks' : 'receiver down');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

const dataDir = mkdtempSync(join(tmpdir(), 'wps-webhook-dev-'));
process.env.NOTIFICATION_RETRY_BASE_SECONDS = '4';
let stack: TestStack | undefined = NEEDS_LOCAL ? undefined : await startTestStack({ dataDir, allowLoopbackWebhooks: true });

after(async () => {
  await stack?.close();
  receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('an http:// loopback receiver is accepted when the local switch is on; a signed test event reports the answer', { skip: NEEDS_LOCAL }, async () => {
  const created = await stack!.call('POST', ACCT, { body: { channel_type: 'webhook', url: hookUrl, event_types: ['job.completed'] } });
  assert.equal(created.status, 201, created.text);
  const { id, secret } = created.body as { id: string; secret: string };
  // not loopback: still https only
  const remote = await stack!.call('POST', ACCT, { body: { channel_type: 'webhook', url: 'http://hooks.example.com/x', event_types: ['job.completed'] } });
  assert.equal(remote.status, 422, remote.text);

  mode = 200;
  const before = hits.length;
  const res = await stack!.call('POST', `${ACCT}/${id}/test`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.delivered, true);
  assert.equal(res.body.status, 200);
  assert.equal(res.body.response_excerpt, 'received, thanks');
  assert.equal(res.body.error, null);
  assert.ok(Number.isInteger(res.body.latency_ms) && res.body.latency_ms >= 0);
  assert.equal(hits.length, before + 1);
  const hit = hits.at(-1)!;
  assert.equal(hit.headers['webhook-id'], res.body.webhook_id);
  // the same signature scheme as deliveries: verifies with the channel's secret
  const payload = new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>) as { type: string; data: { channel_id: string } };
  assert.equal(payload.type, 'channel.test');
  assert.equal(payload.data.channel_id, id);

  const again = await stack!.call('POST', `${ACCT}/${id}/test`);
  assert.equal(again.status, 429, again.text);
  assert.ok(Number(again.headers.get('retry-after')) >= 1);
  assert.equal((await stack!.call('POST', `${ACCT}/ep_${'0'.repeat(32)}/test`)).status, 404);
  const mail = await stack!.call('POST', ACCT, { body: { channel_type: 'email', email_config: { recipient_email: 'ops@example.com' }, event_types: ['job.failed'] } });
  assert.equal((await stack!.call('POST', `${ACCT}/${mail.body.id}/test`)).status, 400);
});

test('with private networks denied, a private webhook target is a 422 at create and update (DNS resolved), not at delivery', { skip: NEEDS_LOCAL }, async () => {
  const ok = await stack!.call('POST', ACCT, { body: { channel_type: 'webhook', url: 'https://hooks.example.com/x', event_types: ['job.failed'] } });
  assert.equal(ok.status, 201, ok.text);
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  try {
    for (const url of ['https://localhost/hook', 'https://127.0.0.1/hook', 'https://[::ffff:10.0.0.1]/hook']) {
      const r = await stack!.call('POST', ACCT, { body: { channel_type: 'webhook', url, event_types: ['job.failed'] } });
      assert.equal(r.status, 422, `${url}: ${r.text}`);
      assert.deepEqual(r.body.detail[0].loc, ['body', 'url']);
      assert.match(r.body.detail[0].msg, /private network/);
    }
    const patched = await stack!.call('PATCH', `${ACCT}/${ok.body.id}`, { body: { url: 'https://localhost/hook' } });
    assert.equal(patched.status, 422, patched.text);
    assert.equal((await stack!.call('GET', `${ACCT}/${ok.body.id}`)).body.url, 'https://hooks.example.com/x');
  } finally {
    delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  }
});

test('a delivery waiting for its retry when the stack stops arrives once after a restart on the same data directory', { skip: NEEDS_LOCAL }, async () => {
  // its own channel and event type, so the other tests' channels do not hear this event
  const ch = await stack!.call('POST', ACCT, { body: { channel_type: 'webhook', url: hookUrl, event_types: ['job.stopped'] } });
  assert.equal(ch.status, 201, ch.text);
  mode = 500;
  const jobId = '0190f0a0-0000-7000-8000-00000000beef';
  const eb = new EventBridgeClient({ region: 'us-east-1', endpoint: stack!.endpoints.eventbridge });
  await eb.send(new PutEventsCommand({
    Entries: [{ EventBusName: stack!.env.EVENT_BUS_NAME, Source: EVENT_SOURCE, DetailType: 'job.stopped', Detail: JSON.stringify({ account_id: 'default', job_id: jobId, workflow_id: null, status: 'STOPPED' }) }],
  }));
  eb.destroy();
  const forJob = () => hits.filter((h) => h.body.includes(jobId));
  await eventually(async () => (forJob().length >= 1 ? true : undefined), 'a failed first attempt', 30_000);
  await stack!.close(); // the message now waits for its retry (hidden ≥ 4 s)

  mode = 200;
  stack = await startTestStack({ dataDir, allowLoopbackWebhooks: true });
  const delivered = await eventually(async () => forJob().find((h) => h.status === 200), 'the retried delivery after the restart', 60_000);
  assert.equal(delivered.headers['webhook-id'], forJob()[0]!.headers['webhook-id'], 'the same message (same webhook-id) as before the restart');
  // Once: the delivery queue drains to nothing in flight or waiting, and one 200 was answered.
  await deliveriesSettled(stack);
  assert.equal(forJob().filter((h) => h.status === 200).length, 1);
});
