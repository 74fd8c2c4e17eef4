// S3 emulator: s3rver on 127.0.0.1, objects on disk under dataDir. s3rver alone accepts the access
// key "S3RVER" with any secret (it does not verify SigV4 signatures) and unsigned requests too; with
// `credentials` (the local stack always passes its per-start one) every request must carry a SigV4
// signature made with that secret, header-signed or presigned (sigv4-guard.ts), or gets a 403.
// s3rver encrypts a paged listing's continuation token with DES, which OpenSSL 3 keeps in its legacy
// provider: the process needs --openssl-legacy-provider (npm start passes the flag to node, test/run.mjs
// and the test helpers that start the service add it to NODE_OPTIONS), else a second page fails.
import * as crypto from 'node:crypto';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage, Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { sigV4, type EmulatorCredentials } from './sigv4-guard';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
  /** Koa's middleware list (s3rver is a Koa application), composed when run() starts listening. */
  middleware: KoaMiddleware[];
  store: S3rverStore;
}
interface S3rverStore {
  existsObject(bucket: string, key: string): Promise<boolean>;
  putObject(object: { bucket: string; key: string; metadata: Record<string, string>; content: Buffer | NodeJS.ReadableStream }): Promise<{ size: number; md5: string }>;
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
}
interface KoaContext {
  req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>;
  method: string;
  path: string;
  get(header: string): string;
}
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
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
  /** Refuse every request not signed with this credential (403 AccessDenied). */
  credentials?: EmulatorCredentials;
}

export async function startS3(opts: S3Options): Promise<{ endpoint: string; stop(): Promise<void> }> {
  mkdirSync(opts.dataDir, { recursive: true });
  const S3rver = require('s3rver') as S3rverCtor;
  const keys = [...(opts.accessKeys ?? []), ...(opts.credentials ? [opts.credentials] : [])];
  if (keys.length) {
    const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account') as { DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void } };
    for (const k of keys) DUMMY_ACCOUNT.createKeyPair(k.accessKeyId, k.secretAccessKey);
  }
  const server = new S3rver({
    address: '127.0.0.1',
    port: opts.port ?? 0,
    directory: opts.dataDir,
    silent: true,
    configureBuckets: (opts.buckets ?? []).map((name) => ({ name })),
  });
  atomicPuts(server.store);
  // After the logger and the XML encoder (a refusal is an S3 XML error), before everything that reads the request.
  if (opts.credentials) server.middleware.splice(2, 0, signedOnly(opts.credentials));
  // Before the router (the last middleware), after the XML encoder and the virtual-host rewrite.
  server.middleware.splice(server.middleware.length - 1, 0, conditionalPut(server));
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

/** Refuses (403 AccessDenied) a request whose SigV4 signature does not verify against `credentials`. */
function signedOnly(credentials: EmulatorCredentials): KoaMiddleware {
  const S3Error = require('s3rver/lib/models/error') as new (code: string, message: string, detail?: Record<string, string>) => Error;
  const { verify } = sigV4(credentials, crypto);
  return async (ctx, next) => {
    // the request as sent: the middleware after this one rewrites ctx.path and ctx.headers
    const refused = verify({ method: ctx.req.method ?? 'GET', url: ctx.req.url ?? '/', headers: ctx.req.headers }, 's3');
    if (refused !== undefined) throw new S3Error('AccessDenied', `Access Denied (${refused})`);
    await next();
  };
}

/**
 * PutObject with `If-None-Match: *` (S3's conditional write, put-if-absent), which s3rver ignores:
 * 412 PreconditionFailed when the key exists or another conditional PUT of it is under way, as S3
 * answers. Delta Lake commits (lambdas/connectors/delta) rely on it to detect concurrent writers.
 */
function conditionalPut(server: S3rverInstance): KoaMiddleware {
  const S3Error = require('s3rver/lib/models/error') as new (code: string, message: string, detail?: Record<string, string>) => Error;
  const inFlight = new Set<string>();
  return async (ctx, next) => {
    if (ctx.method !== 'PUT' || ctx.get('if-none-match').trim() !== '*' || ctx.get('x-amz-copy-source')) return next();
    const [, bucket, ...rest] = ctx.path.split('/');
    const key = rest.map((seg) => decodeURIComponent(seg)).join('/');
    const id = `${bucket}/${key}`;
    if (!bucket || !key) return next();
    const refuse = () => new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', { Condition: 'If-None-Match' });
    // Claimed before the first await, so two PUTs racing for one key cannot both pass the check.
    if (inFlight.has(id)) throw refuse();
    inFlight.add(id);
    try {
      if (await server.store.existsObject(bucket, key)) throw refuse();
      await next();
    } finally {
      inFlight.delete(id);
    }
  };
}

/**
 * PutObject as S3 does it: the object appears whole or not at all, and only once its bytes are on
 * disk. s3rver writes in place and answers when its hashing stream ends, before the file stream has
 * flushed, so a GET right after a PUT (a job reading a node output it just wrote, a retry reusing one)
 * could read a truncated object under load ("Unterminated string in JSON"). Here the bytes go to a
 * temporary file beside the object, which is renamed over it once written.
 */
function atomicPuts(store: S3rverStore): void {
  store.putObject = async (object) => {
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(objectPath), { recursive: true });
    const tmp = `${objectPath}.${randomBytes(6).toString('hex')}.partial`;
    const md5 = createHash('md5');
    let size = 0;
    try {
      const count = new Transform({
        transform(chunk: Buffer, _enc, done) {
          md5.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      const source = Buffer.isBuffer(object.content) ? [object.content] : object.content;
      await pipeline(source as AsyncIterable<Buffer>, count, createWriteStream(tmp));
      await rename(tmp, objectPath);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    const digest = md5.digest('hex');
    await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}
