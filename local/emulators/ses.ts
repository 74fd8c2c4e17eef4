// SES v2 emulator: aws-ses-v2-local keeps sent mail in memory and shows it at its own URL
// (GET /store returns the messages as JSON).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from './http-server';
import sesServer from 'aws-ses-v2-local';

export async function startSes(opts: { port?: number }): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const start = ((sesServer as unknown as { default?: typeof sesServer }).default ?? sesServer) as typeof sesServer;
  const server: Server = await start({ host: '127.0.0.1', port: opts.port ?? 0 });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () => closeServer(server),
  };
}
