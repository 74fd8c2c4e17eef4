// SES v2 emulator: aws-ses-v2-local keeps sent mail in memory and shows it at its own URL (GET /store
// returns the messages as JSON; GET / is a web page of them; /get-emlContent, /clear-store and
// /health-check besides the API). With `credentials` (the local stack passes its per-start one) every
// request, those pages included, must be SigV4-signed with it (sigv4-guard.ts): the mailbox is read
// with a signed GET (`curl --aws-sigv4`, see README), the web page is closed.
import * as crypto from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from './http-server';
import { guardHttpServer, sigV4, type EmulatorCredentials } from './sigv4-guard';
import sesServer from 'aws-ses-v2-local';

export async function startSes(opts: { port?: number; credentials?: EmulatorCredentials }): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const start = ((sesServer as unknown as { default?: typeof sesServer }).default ?? sesServer) as typeof sesServer;
  const server: Server = await start({ host: '127.0.0.1', port: opts.port ?? 0 });
  // The library listens before it returns its server; this runs in the same turn as its listen
  // callback (promise continuations), before any connection is read, so no request passes unchecked.
  if (opts.credentials) guardHttpServer(server, sigV4(opts.credentials, crypto).verify, 'ses');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () => closeServer(server),
  };
}
