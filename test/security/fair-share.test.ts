// Fair share between tenants (issue 28), played as the attacker: tenant B floods a shared queue or
// pool and tenant A's latency stays within a small multiple of its figure alone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { NEEDS_LOCAL, eventually } from '../support/local-stack';
import { keyedStack, type Tenants } from './helpers';

let t: Tenants;
let blackhole: Server;
const held: Socket[] = [];
let holePort = 0;
let closedPort = 0;

before(async () => {
  if (NEEDS_LOCAL) return;
  t = await keyedStack();
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
  for (const id of bIds) {
    const r = await t.stack.call('POST', `/api/v1/destinations/${id}/connection-check`, t.asB);
    assert.ok([202, 409, 429].includes(r.status), `${r.status} ${JSON.stringify(r.body)}`);
  }
  const flooded = await checkLatency(t.asA, a);
  assert.ok(flooded < Math.max(5_000, 5 * alone), `A's check took ${flooded} ms under B's flood (${alone} ms alone)`);
});
