// The webhook poster refuses private-network targets when CONNECTORS_DENY_PRIVATE_NETWORKS is on:
// literal addresses before any connection, names by the addresses they resolve to at connect time.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { HttpsWebhookPoster } from '../../lambdas/adapters/https-webhook';

afterEach(() => {
  delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
});

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

test('private addresses and names resolving to them are refused when private networks are denied', async () => {
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  const poster = new HttpsWebhookPoster(2000);
  const port = await closedPort();
  for (const url of [`https://127.0.0.1:${port}/hook`, `https://[::1]:${port}/hook`, 'https://10.1.2.3/hook', `https://localhost:${port}/hook`]) {
    await assert.rejects(poster.post(url, {}, '{}'), /private network address/, url);
  }
});

test('without the setting the same target is tried (and fails only because nothing listens)', async () => {
  const poster = new HttpsWebhookPoster(2000);
  const port = await closedPort();
  // the connection itself was attempted and refused by the closed port (not a policy refusal, not any other error)
  await assert.rejects(poster.post(`https://127.0.0.1:${port}/hook`, {}, '{}'), (err: Error & { code?: string }) => err.code === 'ECONNREFUSED' && err.message === `connect ECONNREFUSED 127.0.0.1:${port}`);
});
