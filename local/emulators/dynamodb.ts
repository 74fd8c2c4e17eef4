// DynamoDB emulator: dynalite (pure JS, LevelDB on disk). No transactions and no TTL: the store is
// designed around single-item conditional writes and filters expired items on read.
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';

const require = createRequire(import.meta.url);

export async function startDynamo(opts: { port?: number; dataDir?: string }): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const dynalite = require('dynalite') as (o: Record<string, unknown>) => Server;
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const server = dynalite({ path: opts.dataDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
