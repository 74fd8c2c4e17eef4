// S3 emulator: s3rver on 127.0.0.1, objects on disk under dataDir. It accepts the access key
// "S3RVER" (any secret; it does not verify SigV4 signatures) and rejects other access key ids.
// Paged listings need NODE_OPTIONS=--openssl-legacy-provider (test/run.mjs and npm start set it).
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverCtor = new (opts: Record<string, unknown>) => S3rverInstance;

const require = createRequire(import.meta.url);

/** Credentials s3rver accepts. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export async function startS3(opts: { port?: number; dataDir: string; buckets?: string[] }): Promise<{ endpoint: string; stop(): Promise<void> }> {
  mkdirSync(opts.dataDir, { recursive: true });
  const S3rver = require('s3rver') as S3rverCtor;
  const server = new S3rver({
    address: '127.0.0.1',
    port: opts.port ?? 0,
    directory: opts.dataDir,
    silent: true,
    configureBuckets: (opts.buckets ?? []).map((name) => ({ name })),
  });
  const addr = await server.run();
  let stopped = false;
  return {
    endpoint: `http://127.0.0.1:${addr.port}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      const closing = server.close();
      // Keep-alive sockets of SDK clients would otherwise hold close() open.
      server.httpServer?.closeAllConnections();
      await closing;
    },
  };
}
