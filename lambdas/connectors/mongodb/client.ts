// Connections to a tenant's MongoDB through the official `mongodb` driver, as the platform's connector
// opens them (Stable API version 1, so MongoDB 5.0 or later), under the outbound policy:
// - every host name the driver resolves (seeds, SRV targets, discovered members) goes through the
//   policy's lookup; literal seed addresses are checked before connecting; a discovered member at a
//   refused literal address stops the client (best effort: the driver gives no hook before its
//   monitor dials, see the README);
// - what would reach past the tenant's server is refused in the URI: unix socket hosts, files of this
//   machine (tlsCAFile, tlsCertificateKeyFile, tlsCRLFile), mechanisms that use this runtime's own
//   identity (MONGODB-AWS, MONGODB-OIDC, GSSAPI, MONGODB-X509 without a file) and SOCKS proxies.
// Errors come out in the server's words (errmsg and codeName), the URI's credentials never.
import type { MongoClient, MongoClientOptions } from 'mongodb';
import { assertAllowedHost, guardedLookup, literalHostProblem } from '../../net/outbound';
import { connectorCa, redact } from '../agents';

export interface MongoTarget {
  uri: string;
  database: string;
  collection: string;
  /** Not in the platform's field table (its uploader's default is 100); honoured when a config sets it. */
  batch_size?: number;
}

/** Authentication mechanisms that prove only what the URI carries (no ambient identity of this runtime). */
const ALLOWED_MECHANISMS = new Set(['DEFAULT', 'SCRAM-SHA-1', 'SCRAM-SHA-256', 'PLAIN']);
/** URI options naming files of the machine the driver runs on, or a proxy to dial. */
const REFUSED_OPTIONS = ['tlscafile', 'tlscertificatekeyfile', 'tlscertificatekeyfilepassword', 'tlscrlfile', 'sslca', 'sslcert', 'sslkey', 'sslpass', 'sslcrl', 'proxyhost', 'proxyport', 'proxyusername', 'proxypassword'];

const CONNECT_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 120_000;

/** Why this URI may not be used here (without connecting), or undefined. Used for 422s and before connecting. */
export function uriProblem(uri: string): string | undefined {
  const query = uri.includes('?') ? uri.slice(uri.indexOf('?') + 1) : '';
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const [k = '', v = ''] = pair.split('=').map((s) => safeDecode(s));
    const key = k.toLowerCase();
    if (REFUSED_OPTIONS.includes(key)) return `the uri option ${k} is not supported here (it names a file or a proxy of the service's machine)`;
    if (key === 'authmechanism' && !ALLOWED_MECHANISMS.has(v.toUpperCase())) {
      return `authMechanism ${v} is not supported here: use SCRAM-SHA-256, SCRAM-SHA-1 or PLAIN with the credentials in the uri`;
    }
  }
  const hosts = /^mongodb(?:\+srv)?:\/\/(?:[^@/]*@)?([^/?]*)/.exec(uri)?.[1] ?? '';
  for (const h of hosts.split(',')) {
    const host = safeDecode(h.replace(/:\d+$/, ''));
    if (host.includes('/') || host.endsWith('.sock')) return 'unix domain socket hosts are not supported here';
    const literal = literalHostProblem(host.replace(/^\[|\]$/g, ''));
    if (literal) return literal;
  }
  return undefined;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The URI's password and user:password, so no message repeats them. */
export function uriSecrets(uri: string): string[] {
  const m = /^mongodb(?:\+srv)?:\/\/([^@/]*)@/.exec(uri);
  if (!m) return [uri];
  const pass = m[1]!.split(':')[1];
  return [uri, m[1]!, ...(pass ? [pass, safeDecode(pass)] : [])];
}

/** The server's or driver's message for a failure: errmsg and codeName, first write error, no secrets. */
export function describeMongoError(err: unknown, uri: string): string {
  const e = err as Error & { code?: number | string; codeName?: string; errmsg?: string; writeErrors?: { errmsg?: string; code?: number; index?: number }[]; cause?: Error; reason?: { error?: Error } };
  const parts: string[] = [];
  const first = Array.isArray(e?.writeErrors) ? e.writeErrors[0] : undefined;
  if (first?.errmsg) parts.push(`${first.errmsg}${first.code !== undefined ? ` (code ${first.code})` : ''}`);
  else {
    let msg = e?.errmsg ?? e?.message ?? String(err);
    if (e?.name === 'MongoServerSelectionError' && /timed out/i.test(msg) && e.cause?.message) msg = `${msg}: ${e.cause.message}`;
    parts.push(msg);
    if (e?.codeName) parts.push(`(${e.codeName})`);
  }
  return redact(parts.join(' '), uriSecrets(uri));
}

/** Hosts for messages ("h1:27017,h2:27017" or the SRV name), without credentials. */
export function hostsOf(client: MongoClient): string {
  const o = client.options;
  return o.srvHost ?? o.hosts.map((h) => h.toString()).join(',');
}

/**
 * Runs fn on a client connected for this one operation (a check, a file's write) and closes it.
 * Aborting `signal` closes it too, so a check past its budget leaves nothing open.
 */
export async function withMongo<T>(c: MongoTarget, opts: { signal?: AbortSignal; serverSelectionTimeoutMS?: number }, fn: (client: MongoClient) => Promise<T>): Promise<T> {
  const problem = uriProblem(c.uri);
  if (problem) throw new Error(problem);
  const base: MongoClientOptions = {
    serverApi: { version: '1' },
    driverInfo: { name: 'workflow-service' },
    appName: 'workflow-service',
    lookup: guardedLookup,
    serverSelectionTimeoutMS: opts.serverSelectionTimeoutMS ?? CONNECT_TIMEOUT_MS,
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    socketTimeoutMS: SOCKET_TIMEOUT_MS,
    maxPoolSize: 4,
  };
  const { MongoClient: Client } = await import('mongodb'); // loaded on first use, not by every handler
  let client: MongoClient;
  try {
    client = new Client(c.uri, base);
    const ca = client.options.tls ? connectorCa() : undefined;
    if (ca) client = new Client(c.uri, { ...base, ca });
  } catch (err) {
    throw new Error(`uri is not usable: ${describeMongoError(err, c.uri)}`);
  }
  const mechanism = client.options.credentials?.mechanism;
  if (mechanism && !ALLOWED_MECHANISMS.has(mechanism)) throw new Error(`authMechanism ${mechanism} is not supported here: use SCRAM-SHA-256, SCRAM-SHA-1 or PLAIN`);
  if (client.options.hosts.some((h) => h.socketPath)) throw new Error('unix domain socket hosts are not supported here');
  // An SRV name has no address of its own (Atlas): it is checked as a name; its targets resolve
  // through the policy's lookup like any host.
  const srvHost = client.options.srvHost;
  if (srvHost) {
    const literal = literalHostProblem(srvHost);
    if (literal) throw new Error(literal);
  } else for (const h of client.options.hosts) await assertAllowedHost(h.host ?? '');

  // Members a replica set announces are dialled by the driver's monitors; names resolve through the
  // policy's lookup, literal addresses do not, so a refused one stops this client.
  let refused: string | undefined;
  client.on('serverOpening', (ev) => {
    const why = literalHostProblem(ev.address.replace(/:\d+$/, '').replace(/^\[|\]$/g, ''));
    if (why && !refused) {
      refused = why;
      void client.close();
    }
  });
  const onAbort = () => void client.close();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    try {
      await client.connect();
    } catch (err) {
      throw new Error(`cannot connect to ${hostsOf(client)}: ${refused ?? describeMongoError(err, c.uri)}`);
    }
    try {
      return await fn(client);
    } catch (err) {
      if (refused) throw new Error(`cannot connect to ${hostsOf(client)}: ${refused}`);
      throw err;
    }
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    await client.close().catch(() => undefined);
  }
}

// --- retries ---

/** Server error codes worth retrying: throttling, elections, shutdowns, network trouble on the server side. */
const RETRYABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  462, // IngressRequestRateLimitExceeded (Atlas)
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
  16500, // TooManyRequests / RequestRateTooLarge (Azure Cosmos DB for MongoDB)
]);
const RETRYABLE_LABELS = ['RetryableWriteError', 'SystemOverloadedError', 'RetryableError'];

/** A store failure as withRetry sees it: the message, and for retryable ones a flag and Retry-After. */
export class MongoStoreError extends Error {
  readonly retryable: boolean;
  readonly headers?: Record<string, string>;
  constructor(message: string, retryable: boolean, retryAfterMs?: number) {
    super(message);
    this.retryable = retryable;
    if (retryAfterMs !== undefined) this.headers = { 'retry-after': String(retryAfterMs / 1000) };
  }
}

/** Classifies a driver error (throttling and transient failures retryable; Cosmos DB's RetryAfterMs honoured). */
export function toStoreError(err: unknown, uri: string, prefix = ''): MongoStoreError {
  if (err instanceof MongoStoreError) return err;
  const e = err as Error & { code?: number; errorLabels?: string[]; hasErrorLabel?: (l: string) => boolean; writeErrors?: { code?: number }[] };
  const code = typeof e?.code === 'number' ? e.code : e?.writeErrors?.[0]?.code;
  const labelled = RETRYABLE_LABELS.some((l) => e?.hasErrorLabel?.(l) || e?.errorLabels?.includes(l));
  const network = e?.name === 'MongoNetworkError' || e?.name === 'MongoNetworkTimeoutError';
  const retryable = network || labelled || (code !== undefined && RETRYABLE_CODES.has(code));
  const hint = /RetryAfterMs=(\d+)/.exec(e?.message ?? '')?.[1];
  return new MongoStoreError(`${prefix}${describeMongoError(err, uri)}`, retryable, hint ? Number(hint) : undefined);
}

export const isRetryable = (err: unknown): boolean => err instanceof MongoStoreError && err.retryable;
