// Shared helpers of the connector integration tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A port on 127.0.0.1 that was free a moment ago and has nothing listening on it. */
export async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** A TCP server that accepts connections and never answers (a hung service). */
export async function blackHole(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const srv: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  return {
    port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        srv.close(() => r());
      }),
  };
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

export const text = (s: string): Uint8Array => new TextEncoder().encode(s);
export const untext = (b: Uint8Array): string => new TextDecoder().decode(b);
