// Connections to a tenant's Redis through the official client (node-redis), opened as the platform's
// connector opens them: `uri` (redis:// or rediss://) when given, else host, port, database,
// username, password and ssl (TLS, on by default as in the platform's config). The socket resolves
// names through the outbound policy's lookup and literal addresses are checked before connecting;
// unix sockets are refused. No reconnects (an operation fails and is retried whole); RESP2, so any
// Redis from 2.x on answers. Errors carry the server's reply text (WRONGPASS, NOPERM, OOM, ...),
// never the password or the uri. AUTH sends the password as it is: with a password, TLS is required
// (rediss://, or ssl on without a uri; secure-transport.ts), at validation and before connecting;
// without one a plain connection stays allowed.
import type { RedisClientType } from 'redis';
import { assertAllowedHost, guardedLookup } from '../../net/outbound';
import { connectorCa, redact } from '../agents';
import { clearTextProblem, clearTextSettingProblem, hasSecret } from '../secure-transport';

export interface RedisTarget {
  host?: string;
  port: number;
  database: number;
  password?: string;
  username?: string;
  ssl: boolean;
  uri?: string;
  batch_size: number;
}

export interface RedisEndpoint {
  host: string;
  port: number;
  tls: boolean;
  database: number;
  username?: string;
  password?: string;
}

const CONNECT_TIMEOUT_MS = 10_000;
const COMMAND_TIMEOUT_MS = 120_000;

/** The endpoint a config names: the uri's parts when a uri is given (as the platform's from_url), else the fields. */
export function endpointOf(c: RedisTarget): RedisEndpoint {
  if (c.uri) {
    let url: URL;
    try {
      url = new URL(c.uri);
    } catch {
      throw new Error('uri is not a redis:// or rediss:// URL');
    }
    if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new Error(`uri scheme ${url.protocol} is not supported: use redis:// or rediss://`);
    if (!url.hostname) throw new Error('uri names no host');
    const db = url.pathname.replace(/^\//, '') || url.searchParams.get('db') || '0';
    if (!/^\d+$/.test(db)) throw new Error(`uri database ${JSON.stringify(db)} is not a number`);
    return {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : 6379,
      tls: url.protocol === 'rediss:',
      database: Number(db),
      username: url.username ? decodeURIComponent(url.username) : undefined,
      password: url.password ? decodeURIComponent(url.password) : undefined,
    };
  }
  if (!c.host) throw new Error('host is required when no uri is given');
  return { host: c.host, port: c.port, tls: c.ssl, database: c.database, username: c.username || undefined, password: c.password || undefined };
}

/**
 * Why this config would send its password in clear text (a password sent, TLS off), with the field
 * that turns TLS off (uri when a uri is given, else ssl), or undefined. An unusable uri is
 * endpointOf's to report.
 */
export function clearTextRedisProblem(c: RedisTarget): { field: 'uri' | 'ssl'; message: string } | undefined {
  let at: RedisEndpoint;
  try {
    at = endpointOf(c);
  } catch {
    return undefined;
  }
  if (at.tls || !hasSecret(at.password)) return undefined;
  if (c.uri) return { field: 'uri', message: clearTextProblem(c.uri, 'uri', 'password') ?? 'uri is not rediss://, which would send the password in clear text' };
  return { field: 'ssl', message: clearTextSettingProblem('ssl', 'password', 'set ssl true, or use a rediss:// uri') };
}

/** Every credential a message must not repeat. */
export function secretsOf(c: RedisTarget): string[] {
  const out = [c.password, c.uri].filter((s): s is string => Boolean(s));
  try {
    const e = c.uri ? endpointOf(c) : undefined;
    if (e?.password) out.push(e.password, encodeURIComponent(e.password));
  } catch {
    // an unusable uri is reported by endpointOf itself
  }
  return out;
}

/** The server's reply (or the client's error) for a reason, secrets removed. */
export function describeRedisError(err: unknown, c: RedisTarget): string {
  const e = err as Error & { code?: string; replies?: unknown[]; errorIndexes?: number[] };
  let msg = e?.message ?? String(err);
  // A failed MULTI/EXEC: the first refused command's reply is the store's reason.
  if (Array.isArray(e?.errorIndexes) && e.errorIndexes.length && Array.isArray(e.replies)) {
    const first = e.replies[e.errorIndexes[0]!] as Error | undefined;
    if (first?.message) msg = first.message;
  }
  return redact(msg.trim(), secretsOf(c));
}

export type Redis = RedisClientType<Record<string, never>, Record<string, never>, Record<string, never>, 2>;

/** Runs fn on a client connected for this one operation and closes it (also when `signal` aborts). */
export async function withRedis<T>(c: RedisTarget, opts: { signal?: AbortSignal; connectTimeoutMs?: number }, fn: (client: Redis, at: RedisEndpoint) => Promise<T>): Promise<T> {
  const { signal } = opts;
  const at = endpointOf(c);
  const clear = clearTextRedisProblem(c);
  if (clear) throw new RedisStoreError(clear.message, false);
  await assertAllowedHost(at.host);
  const ca = at.tls ? connectorCa() : undefined;
  const { createClient } = await import('redis'); // loaded on first use, not by every handler
  const client = createClient({
    socket: {
      host: at.host,
      port: at.port,
      lookup: guardedLookup,
      connectTimeout: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      reconnectStrategy: false,
      ...(at.tls ? { tls: true as const, servername: at.host, ...(ca ? { ca } : {}) } : { tls: false as const }),
    },
    username: at.username,
    password: at.password,
    database: at.database,
    RESP: 2,
    commandOptions: { timeout: COMMAND_TIMEOUT_MS },
  }) as unknown as Redis;
  // Errors after connect reach the pending command; the event must not go unhandled.
  client.on('error', () => undefined);
  const onAbort = () => client.destroy();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    try {
      await client.connect();
    } catch (err) {
      const hint = at.tls && /timeout|wrong version number|EPROTO|ECONNRESET/i.test(String((err as Error)?.message)) ? ' (ssl is on: does the server speak TLS? ssl false is for a plain-TCP Redis without a password)' : '';
      throw new RedisStoreError(`cannot connect to ${at.host}:${at.port}${at.database ? ` db ${at.database}` : ''}: ${describeRedisError(err, c)}${hint}`, retryableRedis(err));
    }
    return await fn(client, at);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (client.isOpen) await client.close().catch(() => client.destroy());
  }
}

// --- retries ---

/** Replies that mean "not now": a busy script, a loading dataset, a failover, provider request limits. */
const RETRYABLE_REPLY = /^(BUSY|LOADING|TRYAGAIN|MASTERDOWN|CLUSTERDOWN)\b|max (daily )?requests? limit exceeded|max concurrent connections exceeded/i;
const TRANSIENT_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

export function retryableRedis(err: unknown): boolean {
  if (err instanceof RedisStoreError) return err.retryable;
  const e = err as Error & { code?: string; replies?: unknown[]; errorIndexes?: number[] };
  const first = Array.isArray(e?.errorIndexes) && Array.isArray(e.replies) ? (e.replies[e.errorIndexes[0]!] as Error | undefined) : undefined;
  const msg = first?.message ?? e?.message ?? '';
  return RETRYABLE_REPLY.test(msg) || e?.name === 'SocketClosedUnexpectedlyError' || (typeof e?.code === 'string' && TRANSIENT_CODES.has(e.code));
}

export class RedisStoreError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export const isRetryable = (err: unknown): boolean => err instanceof RedisStoreError && err.retryable;
