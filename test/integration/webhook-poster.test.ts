// The webhook poster refuses private-network targets when CONNECTORS_DENY_PRIVATE_NETWORKS is on:
// literal addresses before any connection, names by the addresses they resolve to at connect time;
// its timeout is a deadline over the whole exchange and it reads an answer's excerpt only.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { HttpsWebhookPoster } from '../../lambdas/adapters/https-webhook';
import { createServer as createHttpServer, type Server } from 'node:http';
import { allowLoopbackHttpWebhooks } from '../../lambdas/net/webhook-target';

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

// -- issue 28: WEBHOOK_TIMEOUT_MS bounds the whole exchange, and only an excerpt of the answer is read --

async function receiver(handler: Parameters<typeof createHttpServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createHttpServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, server };
}

test('a receiver dripping its answer a byte at a time is cut at the deadline, not held by an idle timer', async () => {
  allowLoopbackHttpWebhooks(true);
  const timers: NodeJS.Timeout[] = [];
  const { url, server } = await receiver((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    timers.push(setInterval(() => res.write('.'), 200));
  });
  try {
    const started = Date.now();
    await assert.rejects(new HttpsWebhookPoster(1000).post(url, {}, '{}'), /no complete answer within 1000 ms/);
    const took = Date.now() - started;
    assert.ok(took < 2000, `held ${took} ms by a 1,000 ms deadline`);
  } finally {
    timers.forEach(clearInterval);
    allowLoopbackHttpWebhooks(false);
    server.closeAllConnections();
    server.close();
  }
});

test('a receiver streaming a huge answer is read to an excerpt only, and the connection closed', async () => {
  allowLoopbackHttpWebhooks(true);
  let sent = 0;
  let closed = false;
  const { url, server } = await receiver((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = () => {
      while (!closed && sent < 2 * 1024 * 1024 * 1024) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => (closed = true));
    pump();
  });
  try {
    const out = await new HttpsWebhookPoster(10_000).post(url, {}, '{}');
    assert.equal(out.status, 200);
    assert.equal(out.body.length, 1024, 'the first KiB is kept for the report');
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(closed, 'the poster closed the connection');
    assert.ok(sent < 64 * 1024 * 1024, `the receiver got to send ${sent} bytes`);
  } finally {
    allowLoopbackHttpWebhooks(false);
    server.closeAllConnections();
    server.close();
  }
});
