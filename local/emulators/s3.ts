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

export interface S3Options {
  /** 0 or absent: a free port. */
  port?: number;
  dataDir: string;
  /** Buckets created before the server listens (existing ones are kept). */
  buckets?: string[];
  /** Extra access key ids to accept besides S3RVER (s3rver's key registry is process-wide). */
  accessKeys?: { accessKeyId: string; secretAccessKey: string }[];
}

export async function startS3(opts: S3Options): Promise<{ endpoint: string; stop(): Promise<void> }> {
  mkdirSync(opts.dataDir, { recursive: true });
  const S3rver = require('s3rver') as S3rverCtor;
  if (opts.accessKeys?.length) {
    const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account') as { DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void } };
    for (const k of opts.accessKeys) DUMMY_ACCOUNT.createKeyPair(k.accessKeyId, k.secretAccessKey);
  }
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
