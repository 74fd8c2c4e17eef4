// DynamoDB emulator: dynalite (pure JS, LevelDB on disk). No transactions and no TTL: the store is
// designed around single-item conditional writes and filters expired items on read.
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { closeServer, listen } from './http-server';

const require = createRequire(import.meta.url);

export async function startDynamo(opts: { port?: number; dataDir?: string }): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const dynalite = require('dynalite') as (o: Record<string, unknown>) => Server;
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const server = dynalite({ path: opts.dataDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const port = await listen(server, opts.port);
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => closeServer(server) };
}
