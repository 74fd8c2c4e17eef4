// The guarded agents close a pooled connection before a server's usual keep-alive timeout (a request
// written on a socket the server is closing fails with "socket hang up"), and never close one in use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Agent, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { FREE_SOCKET_IDLE_MS, guardedHttpAgent } from '../../../lambdas/net/outbound';

/** A server that keeps idle connections a minute, answers after `delay(n)` ms, and records its sockets' ends. */
async function server(delay: (n: number) => number): Promise<{ srv: Server; port: number; closed: number[]; sockets: Set<Socket> }> {
  const closed: number[] = [];
  const sockets = new Set<Socket>();
  let n = 0;
  const srv = createServer((req, res) => {
    const k = ++n;
    setTimeout(() => res.end(`answer ${k}`), delay(k));
  });
  srv.keepAliveTimeout = 60_000;
  srv.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => closed.push(Date.now()));
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { srv, port: (srv.address() as { port: number }).port, closed, sockets };
}

function get(agent: Agent, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });
}

test('an idle pooled connection is closed by the client before the usual 5 s server timeout', async () => {
  assert.ok(FREE_SOCKET_IDLE_MS < 5000, 'below Node servers\' default keepAliveTimeout');
  const { srv, port, closed } = await server(() => 0);
  const agent = guardedHttpAgent({ keepAlive: true });
  try {
    assert.equal(await get(agent, port), 'answer 1');
    const idleSince = Date.now();
    await sleep(FREE_SOCKET_IDLE_MS + 800);
    assert.equal(closed.length, 1, 'the client closed the idle connection (the server would have kept it a minute)');
    assert.ok(closed[0]! - idleSince >= FREE_SOCKET_IDLE_MS - 50, `closed after ${closed[0]! - idleSince} ms idle`);
    assert.equal(Object.keys(agent.freeSockets).length, 0);
  } finally {
    agent.destroy();
    srv.close();
  }
});

test('a reused connection waiting longer than the idle limit for its answer is not closed', async () => {
  const { srv, port, closed, sockets } = await server((n) => (n === 2 ? FREE_SOCKET_IDLE_MS + 600 : 0));
  const agent = guardedHttpAgent({ keepAlive: true });
  try {
    assert.equal(await get(agent, port), 'answer 1');
    assert.equal(await get(agent, port), 'answer 2', 'the slow answer arrives on the reused socket');
    assert.equal(sockets.size, 1, 'one connection, reused');
    assert.equal(closed.length, 0);
  } finally {
    agent.destroy();
    srv.close();
  }
});
