// Connections to a tenant's Neo4j through the official `neo4j-driver` (Bolt), as the platform's
// connector opens them: the uri (bolt://, bolt+s://, neo4j://, neo4j+s:// for routing clusters and
// Aura), basic auth with username/password, the configured database.
//
// Outbound policy: the driver has no socket or lookup option, so every Bolt connection it opens (the
// seed, routers, readers and writers a routing table names) is created through a wrapper of its
// connection factory (installed once per process, it covers every driver instance): the host
// name resolves through the policy's lookup and the driver connects to that checked address (TLS
// still verifies the certificate against the host name), so a name cannot resolve elsewhere between
// the check and the connect. +ssc schemes (certificates not verified) are refused; a private CA is
// given with CONNECTOR_CA_FILE (then trusted instead of the system roots for +s uris).
// bolt:// and neo4j:// carry the basic-auth password in clear text (LOGON): with a password they are
// refused (secure-transport.ts), at validation and before connecting; without one they stay allowed.
// Errors come out as the server's message and code, never with the password.
import type { Driver } from 'neo4j-driver';
import { guardedLookup, literalHostProblem, policyReason } from '../../net/outbound';
import { redact } from '../agents';
import { config as appConfig } from '../../config';
import { clearTextProblem, hasSecret } from '../secure-transport';

export interface Neo4jTarget {
  uri: string;
  username: string;
  password: string;
  database: string;
  batch_size?: number;
}

const SCHEME = /^(bolt|neo4j)(\+s|\+ssc)?:\/\/([^/?#]*)(.*)$/i;
const CONNECT_TIMEOUT_MS = 10_000;

/** Why this uri may not be used here (checked without connecting), or undefined. `password`: the one sent with it. */
export function uriProblem(uri: string, password?: unknown): string | undefined {
  const m = SCHEME.exec(uri.trim());
  if (!m) return 'uri must be <scheme>://<host>:<port> with scheme bolt, bolt+s, neo4j or neo4j+s';
  if (m[2]?.toLowerCase() === '+ssc') return `the ${m[1]}+ssc scheme accepts any certificate: use ${m[1]}+s (a private CA is configured with CONNECTOR_CA_FILE)`;
  const hostPort = m[3]!;
  if (hostPort.includes('@')) return 'the uri must not carry credentials: use username and password';
  const host = hostPort.startsWith('[') ? hostPort.slice(1, hostPort.indexOf(']')) : hostPort.replace(/:\d*$/, '');
  if (!host) return 'uri names no host';
  if (m[1]!.toLowerCase() === 'bolt' && m[4] && m[4] !== '/') return 'a bolt:// uri takes no path or query (routing parameters need neo4j://)';
  return literalHostProblem(host) ?? (hasSecret(password) ? clearTextProblem(uri.trim(), 'uri', 'password') : undefined);
}

/** The server's (or driver's) message for a failure: message and Neo4j status code, without the password. */
export function describeNeo4jError(err: unknown, c: Pick<Neo4jTarget, 'password'>): string {
  const policy = policyReason(err);
  if (policy) return policy;
  const e = err as Error & { code?: string };
  const msg = e?.message ?? String(err);
  const code = typeof e?.code === 'string' && e.code.startsWith('Neo.') && !msg.includes(e.code) ? ` (${e.code})` : '';
  return redact(`${msg}${code}`, c.password ? [c.password] : []);
}

let guardInstalled: Promise<void> | undefined;
const FACTORY = Symbol('guardedChannelConnection');

type BoltAddress = { host(): string; resolveWith(ip: string): BoltAddress };
type ChannelFactory = (address: BoltAddress, ...rest: unknown[]) => Promise<unknown>;

/**
 * Every connection provider of the driver (direct and routing) keeps its connection factory as the
 * instance property `_createChannelConnection`, set in the PooledConnectionProvider constructor and
 * called for every Bolt socket (pool, routing discovery, probes). An accessor on that class's
 * prototype receives the assignment and hands back the factory wrapped under the policy.
 */
function installGuard(): Promise<void> {
  guardInstalled ??= (async () => {
    const mod = (await import('neo4j-driver-bolt-connection')) as unknown as { PooledConnectionProvider?: { prototype: object }; default?: { PooledConnectionProvider?: { prototype: object } } };
    const proto = (mod.PooledConnectionProvider ?? mod.default?.PooledConnectionProvider)?.prototype;
    if (!proto) throw new Error('neo4j-driver: connection provider not found (driver version not supported)');
    Object.defineProperty(proto, '_createChannelConnection', {
      configurable: true,
      get(this: Record<symbol, ChannelFactory>) {
        return this[FACTORY];
      },
      set(this: Record<symbol, ChannelFactory>, original: ChannelFactory) {
        this[FACTORY] = async (address, ...rest) => {
          const host = address.host().replace(/^\[|\]$/g, '');
          const ip = await new Promise<string>((resolve, reject) =>
            guardedLookup(host, {}, (err, addr) => (err ? reject(err) : resolve(typeof addr === 'string' ? addr : addr[0]!.address))),
          );
          // The checked address is the one connected to; TLS still verifies the certificate for `host`.
          return original(address.resolveWith(ip), ...rest);
        };
      },
    });
  })();
  return guardInstalled;
}

/** The host:port of a uri, for messages. */
export function hostOf(uri: string): string {
  return SCHEME.exec(uri.trim())?.[3] ?? uri;
}

/**
 * Runs fn with a driver opened for this one operation (a check, a file's write) and closes it.
 * Aborting `signal` closes it too, so nothing stays open past a check's budget.
 */
export async function withNeo4j<T>(c: Neo4jTarget, opts: { signal?: AbortSignal }, fn: (driver: Driver) => Promise<T>): Promise<T> {
  const problem = uriProblem(c.uri, c.password);
  if (problem) throw new Error(problem);
  await installGuard();
  const { default: neo4j } = await import('neo4j-driver'); // loaded on first use, not by every handler
  const m = SCHEME.exec(c.uri.trim())!;
  let uri = c.uri.trim();
  const tls: Record<string, unknown> = {};
  const caFile = appConfig().CONNECTOR_CA_FILE;
  if (m[2] && caFile) {
    uri = `${m[1]}://${m[3]}${m[4]}`;
    Object.assign(tls, { encrypted: 'ENCRYPTION_ON', trust: 'TRUST_CUSTOM_CA_SIGNED_CERTIFICATES', trustedCertificates: [caFile] });
  }
  let driver: Driver;
  try {
    driver = neo4j.driver(uri, neo4j.auth.basic(c.username, c.password), {
      ...tls,
      disableLosslessIntegers: true,
      // Retries are ours (withRetry), so each is logged and bounded with the file's signal.
      maxTransactionRetryTime: 0,
      connectionTimeout: CONNECT_TIMEOUT_MS,
      connectionAcquisitionTimeout: 3 * CONNECT_TIMEOUT_MS,
      maxConnectionPoolSize: 4,
      userAgent: 'workflow-service',
      telemetryDisabled: true,
    });
  } catch (err) {
    throw new Error(`uri is not usable: ${describeNeo4jError(err, c)}`);
  }
  const onAbort = () => void driver.close();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await fn(driver);
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    await driver.close().catch(() => undefined);
  }
}

/** A store failure as withRetry sees it: the message, and whether the driver calls it retriable. */
export class Neo4jStoreError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** Classifies a driver error: transient errors (Neo.TransientError.*, unavailable, session expired) are retried. */
export async function toStoreError(err: unknown, c: Neo4jTarget, prefix = ''): Promise<Neo4jStoreError> {
  if (err instanceof Neo4jStoreError) return err;
  const { isRetryableError } = await import('neo4j-driver');
  // A connection that never opened says so, whatever step the writer was at.
  const lead = (err as { code?: string })?.code === 'ServiceUnavailable' || policyReason(err) ? `cannot connect to ${hostOf(c.uri)}: ` : prefix;
  return new Neo4jStoreError(`${lead}${describeNeo4jError(err, c)}`, !policyReason(err) && isRetryableError(err as Error));
}

export const isRetryable = (err: unknown): boolean => err instanceof Neo4jStoreError && err.retryable;
