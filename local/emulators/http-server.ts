// Listening and stopping for the in-process HTTP servers of the local stack.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** True for a host only this machine can reach (the emulators' only kind; HOST may differ for the API). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host) || /^::ffff:127\./i.test(host);
}

/** Listens on 127.0.0.1 (port 0: any free port) and returns the bound port. */
export async function listen(server: Server, port = 0, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** Closes the server, dropping keep-alive sockets that would otherwise hold close() open. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
