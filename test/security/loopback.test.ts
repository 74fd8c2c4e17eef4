// Finding 7: the local emulators listened on 0.0.0.0 without auth, so another machine could inject
// a message into the delivery queue. Every listener `npm start` opens (emulators, router, Azurite,
// anything a library opens itself) must be bound to loopback; the API follows HOST (default
// 127.0.0.1) and says loudly when HOST exposes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { startTestStack } from '../support/local-stack';
import { isLoopback, listeningSockets } from '../support/listening-sockets';

/**
 * Connects to 127.0.0.2, another address of this machine (all of 127/8 is local): a listener bound
 * to 127.0.0.1 refuses it, one bound to 0.0.0.0 accepts it. This stays on loopback on purpose: the
 * interface addresses of this sandbox are not test targets.
 */
function connectVia(address: string, port: number): Promise<'accepted' | 'refused'> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port });
    socket.setTimeout(5000, () => {
      socket.destroy();
      reject(new Error(`connect ${address}:${port} neither accepted nor refused within 5 s`));
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNREFUSED' ? resolve('refused') : reject(err)));
  });
}

const portOf = (url: string) => Number(new URL(url).port);

test('every listener of the local stack (Azurite included) is bound to loopback and refuses other addresses', { timeout: 120_000 }, async () => {
  const stack = await startTestStack({ azurite: true });
  try {
    const sockets = listeningSockets();
    const ports = new Set(sockets.map((s) => s.port));
    // The table must really show the stack's listeners, or the checks below would prove nothing.
    for (const [name, url] of Object.entries({ api: stack.url, ...stack.endpoints })) {
      assert.ok(ports.has(portOf(url)), `${name} (${url}) is not among this process's listening sockets: ${JSON.stringify(sockets)}`);
    }
    const exposed = sockets.filter((s) => !isLoopback(s.address));
    assert.deepEqual(exposed, [], `listeners bound beyond loopback: ${exposed.map((s) => `${s.address}:${s.port}`).join(', ')}`);

    // No listener on a wildcard means none is reachable through this machine's interface addresses.
    const interfaceAddresses = Object.values(networkInterfaces()).flat().filter((a) => a && !a.internal).map((a) => a!.address);
    for (const s of sockets) assert.ok(!interfaceAddresses.includes(s.address), `${s.address}:${s.port} is an interface address`);

    for (const port of ports) {
      assert.equal(await connectVia('127.0.0.2', port), 'refused', `port ${port} accepts a connection addressed to 127.0.0.2`);
    }
  } finally {
    await stack.close();
  }
});

test('HOST beyond loopback exposes the API (with a warning), never the emulators', { timeout: 120_000 }, async () => {
  const lines: string[] = [];
  const stack = await startTestStack({ host: '0.0.0.0', log: (l) => lines.push(l) });
  try {
    assert.ok(
      lines.some((l) => /WARNING/.test(l) && /0\.0\.0\.0/.test(l) && /exposed/i.test(l)),
      `no exposure warning among the startup lines:\n${lines.join('\n')}`,
    );
    const api = portOf(stack.url);
    const sockets = listeningSockets();
    assert.ok(sockets.some((s) => s.port === api && s.address === '0.0.0.0'), 'the API follows HOST');
    const exposed = sockets.filter((s) => s.port !== api && !isLoopback(s.address));
    assert.deepEqual(exposed, [], `emulators bound beyond loopback: ${exposed.map((s) => `${s.address}:${s.port}`).join(', ')}`);
  } finally {
    await stack.close();
  }
});
