// Connections to a tenant's Milvus (or Zilliz Cloud) through the official @zilliz/milvus2-sdk-node,
// which speaks gRPC (milvus.proto.milvus.MilvusService). uri http(s)://host[:port] as the platform
// takes it; token, or user + password, sent as the SDK's authorization metadata; db_name as its
// database. The host is checked before connecting, and the channel resolves only through the guarded
// gRPC resolvers (lambdas/net/grpc-guard.ts), so it connects to checked addresses only. Global-cluster
// topology discovery (a REST call the SDK would make on its own) and client telemetry are off.
// A token or password goes to an https:// uri only (milvusClearText).
import { MilvusClient, ErrorCode } from '@zilliz/milvus2-sdk-node';
import { assertAllowedHost } from '../../net/outbound';
import { guardGrpcChannels } from '../../net/grpc-guard';
import { connectorCa } from '../agents';
import { clearTextProblem } from '../secure-transport';
import { describeError } from '../definition';

export interface MilvusConnection {
  uri: string;
  token?: string | null;
  user?: string | null;
  password?: string | null;
  db_name?: string | null;
}

const CONNECT_TIMEOUT_MS = 10_000;

export function hostOf(uri: string): string {
  return new URL(uri).hostname.replace(/^\[|\]$/g, '');
}

/** Why uri may not get the token or password: plain http:// is a clear-text gRPC channel (secure-transport.ts). */
export function milvusClearText(c: { uri?: unknown; token?: unknown; password?: unknown }): string | undefined {
  const secret = c.token ? 'token' : c.password ? 'password' : undefined;
  return typeof c.uri === 'string' && secret ? clearTextProblem(c.uri, 'uri', secret) : undefined;
}

export async function connect(c: MilvusConnection): Promise<MilvusClient> {
  const clear = milvusClearText(c);
  if (clear) throw new Error(clear);
  await assertAllowedHost(hostOf(c.uri));
  guardGrpcChannels();
  // https:// is a TLS channel verified against the system roots plus CONNECTOR_CA_FILE (a rootCert
  // given for http:// would switch the SDK to TLS, so only for https).
  const ca = /^https:/i.test(c.uri) ? connectorCa() : undefined;
  const client = new MilvusClient({
    address: c.uri,
    ...(ca ? { tls: { rootCert: Buffer.from(ca.join('\n')) } } : {}),
    ...(c.token ? { token: c.token } : {}),
    ...(c.user ? { username: c.user, password: c.password ?? '' } : {}),
    ...(c.db_name ? { database: c.db_name } : {}),
    timeout: CONNECT_TIMEOUT_MS,
    isGlobal: false,
    telemetry: { enabled: false },
    logLevel: 'error',
  } as ConstructorParameters<typeof MilvusClient>[0]);
  // The constructor starts the Connect call (server info, and the credentials' first test); wait for
  // it so a refused login or an unreachable server fails here, not as an unhandled rejection later.
  try {
    await (client as unknown as { connectPromise?: Promise<unknown> }).connectPromise;
  } catch (err) {
    await client.closeConnection().catch(() => undefined);
    throw new Error(`cannot connect to Milvus at ${new URL(c.uri).host}: ${milvusMessage(err, c)}`);
  }
  return client;
}

export interface MilvusStatus {
  error_code?: string | number;
  code?: number;
  reason?: string;
  retriable?: boolean;
}

export class MilvusError extends Error {
  override readonly name = 'MilvusError';
  constructor(
    message: string,
    readonly status: MilvusStatus,
  ) {
    super(message);
  }
}

/** Throws the server's reason when a response status is not Success. */
export function assertOk<T extends { status?: MilvusStatus }>(res: T, what: string): T {
  const s = res.status ?? (res as MilvusStatus);
  if (s.error_code !== undefined && s.error_code !== ErrorCode.SUCCESS) {
    throw new MilvusError(`${what}: ${s.reason || String(s.error_code)}${s.code ? ` (code ${s.code})` : ''}`, s);
  }
  return res;
}

/** Text of an SDK or gRPC error without credentials (the SDK never echoes them; scrub anyway). */
export function milvusMessage(err: unknown, c: MilvusConnection): string {
  let msg = describeError(err).replace(/^MilvusError: /, '');
  for (const secret of [c.token, c.password]) if (secret && secret.length >= 4) msg = msg.split(secret).join('**********');
  return msg;
}

/** Rate limits (ErrorCode RateLimit, code 8, or retriable statuses) and gRPC UNAVAILABLE/RESOURCE_EXHAUSTED. */
export function retryableMilvus(err: unknown): boolean {
  if (err instanceof MilvusError) {
    const s = err.status;
    return s.retriable === true || s.error_code === 'RateLimit' || s.code === 8 || /rate limit/i.test(s.reason ?? '');
  }
  const code = (err as { code?: unknown })?.code;
  return code === 14 || code === 8; // grpc UNAVAILABLE, RESOURCE_EXHAUSTED
}
