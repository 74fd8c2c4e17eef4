// DynamoDB emulator: dynalite (pure JS, LevelDB on disk). No transactions and no TTL: the store is
// designed around single-item conditional writes and filters expired items on read.
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { closeServer, listen } from './http-server';

const require = createRequire(import.meta.url);

type LevelClass = abstract new (...args: never[]) => object;
export interface DynaliteLevel {
  AbstractLevel: LevelClass;
  AbstractIterator: LevelClass;
  AbstractKeyIterator: LevelClass;
  AbstractValueIterator: LevelClass;
}

/** The abstract-level module of dynalite's own LevelDB binding (the copy whose iterators it opens). */
export function dynaliteLevelModule(): DynaliteLevel {
  const fromDynalite = createRequire(require.resolve('dynalite'));
  const fromLevel = createRequire(fromDynalite.resolve('level'));
  const fromClassic = createRequire(fromLevel.resolve('classic-level'));
  return fromClassic('abstract-level');
}

/**
 * dynalite 4.0.0 tears its value/key streams down (at the end, or early when a query reaches its
 * Limit) by calling `iterator.return()` if it exists, but abstract-level 3 iterators only have
 * `close()`: so no iterator was ever closed, each stayed attached to the database with its LevelDB
 * snapshot, and under load the process grew by gigabytes. Giving the iterators that method lets
 * dynalite's own teardown close them (a runtime shim instead of a patched node_modules: no
 * postinstall step, and it stands aside once abstract-level defines `return` itself).
 */
function closeDynaliteIterators(): void {
  const { AbstractIterator } = dynaliteLevelModule();
  // The common base of AbstractIterator, AbstractKeyIterator and AbstractValueIterator.
  const common = Object.getPrototypeOf(AbstractIterator.prototype) as { return?: () => Promise<void>; close(): Promise<void> };
  common.return ??= function (this: { close(): Promise<void> }) {
    return this.close();
  };
}

export async function startDynamo(opts: { port?: number; dataDir?: string }): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const dynalite = require('dynalite') as (o: Record<string, unknown>) => Server;
  closeDynaliteIterators();
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const server = dynalite({ path: opts.dataDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const port = await listen(server, opts.port);
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => closeServer(server) };
}
