// Fair share between tenants (issue 28), played as the attacker: tenant B floods a shared queue or
// pool and tenant A's latency stays within a small multiple of its figure alone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { EventBridgePublisher } from '../../lambdas/adapters/eventbridge-publisher';
import { NEEDS_LOCAL, eventually } from '../support/local-stack';
import { keyedStack, type Tenants } from './helpers';

let t: Tenants;
let blackhole: Server;
const held: Socket[] = [];
let holePort = 0;
let closedPort = 0;

before(async () => {
  if (NEEDS_LOCAL) return;
  t = await keyedStack({ allowLoopbackWebhooks: true });
  // -- a TLS endpoint that accepts and never answers: each check waits for its whole timeout --
  blackhole = createServer((s) => void held.push(s));
  await new Promise<void>((r) => blackhole.listen(0, '127.0.0.1', r));
  holePort = (blackhole.address() as { port: number }).port;
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  closedPort = (closed.address() as { port: number }).port;
  await new Promise<void>((r) => closed.close(() => r()));
});
after(async () => {
  held.forEach((s) => s.destroy());
  blackhole?.close();
  await t?.stack.close();
});

async function destination(as: Tenants['asA'], name: string, port: number): Promise<string> {
  const r = await t.stack.call('POST', '/api/v1/destinations/', {
    ...as,
    body: { name, type: 'elasticsearch', config: { hosts: [`https://127.0.0.1:${port}`], index_name: 'elements', es_api_key: 'k' } },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.id;
}

/** Milliseconds from asking for a check to its outcome. */
async function checkLatency(as: Tenants['asA'], id: string): Promise<number> {
  const started = Date.now();
  const r = await t.stack.call('POST', `/api/v1/destinations/${id}/connection-check`, as);
  assert.equal(r.status, 202, JSON.stringify(r.body));
  await eventually(async () => {
    const s = await t.stack.call('GET', `/api/v1/destinations/${id}/connection-check`, as);
    return s.body.status !== 'SCHEDULED' ? s.body : undefined;
  }, 'the check to finish', 120_000);
  return Date.now() - started;
}

test("B's sixty hanging connection checks do not hold A's check", { skip: NEEDS_LOCAL }, async () => {
  const a = await destination(t.asA, 'a-es', closedPort);
  const alone = await checkLatency(t.asA, a);
  const bIds = await Promise.all(Array.from({ length: 60 }, (_, i) => destination(t.asB, `b-es-${i}`, holePort)));
  // -- each asked three times: a repeated ask answers the check still queued, never queues another --
  for (const id of bIds) {
    const first = await t.stack.call('POST', `/api/v1/destinations/${id}/connection-check`, t.asB);
    assert.ok([202, 409, 429].includes(first.status), `${first.status} ${JSON.stringify(first.body)}`);
    for (let i = 0; i < 2 && first.status === 202; i++) {
      const again = await t.stack.call('POST', `/api/v1/destinations/${id}/connection-check`, t.asB);
      assert.equal(again.status, 202, again.text);
      assert.equal(again.body.id, first.body.id, 'a repeated ask answers the queued check');
    }
  }
  const flooded = await checkLatency(t.asA, a);
  assert.ok(flooded < Math.max(5_000, 5 * alone), `A's check took ${flooded} ms under B's flood (${alone} ms alone)`);
});

test("B's fifty channels at receivers that never answer do not hold A's delivery", { skip: NEEDS_LOCAL }, async () => {
  const arrived: number[] = [];
  const receiver = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived.push(Date.now());
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const ACCT = '/api/v1/notifications/channels';
  try {
    const a = await t.stack.call('POST', ACCT, { ...t.asA, body: { channel_type: 'webhook', url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/a`, event_types: ['job.completed'] } });
    assert.equal(a.status, 201, a.text);
    for (let i = 0; i < 50; i++) {
      const b = await t.stack.call('POST', ACCT, { ...t.asB, body: { channel_type: 'webhook', url: `http://127.0.0.1:${holePort}/b${i}`, event_types: ['job.completed'] } });
      assert.ok([201, 409].includes(b.status), b.text);
    }
    const publisher = new EventBridgePublisher(t.stack.env.EVENT_BUS_NAME!);
    const event = (account: string, job: string) => ({ account_id: account, job_id: job, workflow_id: null, status: 'COMPLETED', job_type: 'ephemeral', message: null });
    // -- B's three events: 150 deliveries that each hold a slot until WEBHOOK_TIMEOUT_MS --
    for (const j of ['b-1', 'b-2', 'b-3']) await publisher.publish('job.completed', event('tenant-b', j));
    await t.stack.eventsIdle();
    const started = Date.now();
    await publisher.publish('job.completed', event('tenant-a', 'a-1'));
    await t.stack.eventsIdle();
    await eventually(async () => (arrived.length ? true : undefined), "A's delivery", 120_000);
    const took = arrived[0]! - started;
    // -- unfair, it waits for B's 150 deliveries at 10 s each, 4 at a time: minutes --
    assert.ok(took < 20_000, `A's delivery arrived ${took} ms after its event, behind B's hanging ones`);
  } finally {
    receiver.close();
  }
});
