// Sessions on a tenant's Snowflake account through the official snowflake-sdk, opened as the
// platform's connector opens them (password authentication, database, schema and role of the config;
// the account's `host` and `port`: https://<host>:<port>).
// Outbound policy: the SDK has no documented agent or fetch option, but its connection option
// `agentClass` (its hook for a mock agent, read in lib/http/base.js and node_untyped.js getProxyAgent)
// supplies the agent of every HTTPS request of the connection: login, queries, session close,
// telemetry. It returns the policy's guarded agent here, so every address a request really uses is
// checked, and TLS is verified against the system roots plus CONNECTOR_CA_FILE. Its cost: the SDK's
// own OCSP-checking agent is not used (certificate revocation is not checked, as with every other
// store client here). The host is also checked before connecting, for an early readable failure.
// Errors come out in Snowflake's words (its message, code and SQL state), never with the password.
import type { Connection, ConnectionOptions } from 'snowflake-sdk';
import { assertAllowedHost, guardedHttpsAgent, literalHostProblem } from '../../net/outbound';
import { connectorCa, redact } from '../agents';

export interface SnowflakeTarget {
  account: string;
  user: string;
  password: string;
  host: string;
  port?: number;
  database: string;
  schema: string;
  role: string;
  table_name?: string;
  batch_size?: number;
  record_id_key?: string;
}

/** An unquoted Snowflake identifier, optionally qualified (db.schema.table). */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*){0,2}$/;
/** Snowflake account identifiers: org-account, account.region(.cloud) or a locator. */
export const ACCOUNT = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export function hostProblem(host: string): string | undefined {
  if (!host || /[\s/:@?#]/.test(host)) return `${JSON.stringify(host)} is not a host name (give the account's host, e.g. <account>.snowflakecomputing.com)`;
  return literalHostProblem(host);
}

let configured = false;

/** Runs fn on a session opened for this one operation (a check, a file's write) and closes it. */
export async function withSnowflake<T>(c: SnowflakeTarget, opts: { signal?: AbortSignal; timeoutMs?: number }, fn: (conn: Connection) => Promise<T>): Promise<T> {
  const problem = hostProblem(c.host);
  if (problem) throw new Error(problem);
  await assertAllowedHost(c.host);
  const sdk = (await import('snowflake-sdk')).default; // loaded on first use, not by every handler
  if (!configured) {
    // Its log lines may carry SQL text; they stay off (the writer logs what matters, without secrets).
    sdk.configure({ logLevel: 'OFF', additionalLogToConsole: false });
    configured = true;
  }
  const ca = connectorCa();
  // The SDK calls agentClass for every request: one agent per session, so its keep-alive sockets are
  // reused, and destroyed with the session.
  const agent = guardedHttpsAgent({ keepAlive: true, ...(ca ? { ca } : {}) });
  const options: ConnectionOptions & Record<string, unknown> = {
    account: c.account,
    username: c.user,
    password: c.password,
    database: c.database,
    schema: c.schema,
    role: c.role,
    host: c.host,
    accessUrl: `https://${c.host}:${c.port ?? 443}`,
    application: 'workflow_service',
    timeout: opts.timeoutMs ?? 60_000,
    sfRetryMaxLoginRetries: 2,
    clientSessionKeepAlive: false,
    agentClass: () => agent,
  };
  const conn = sdk.createConnection(options);
  const onAbort = () => void conn.destroy(() => undefined);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await new Promise<void>((resolve, reject) => conn.connect((err) => (err ? reject(err) : resolve())));
  } catch (err) {
    opts.signal?.removeEventListener('abort', onAbort);
    agent.destroy();
    throw new Error(`cannot log in to ${c.host}: ${describeSnowflakeError(err, c)}`);
  }
  try {
    return await fn(conn);
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    await new Promise<void>((resolve) => conn.destroy(() => resolve()));
    agent.destroy();
  }
}

export interface QueryResult {
  rows: Record<string, unknown>[];
  updated: number;
}

/** Executes one statement (binds: one row, or an array of rows for array binding). */
export function execute(conn: Connection, sqlText: string, binds?: (string | null)[] | (string | null)[][]): Promise<QueryResult> {
  return new Promise((resolve, reject) =>
    conn.execute({
      sqlText,
      ...(binds ? { binds: binds as never } : {}),
      complete: (err, stmt, rows) => (err ? reject(err) : resolve({ rows: (rows ?? []) as Record<string, unknown>[], updated: Math.max(0, stmt.getNumUpdatedRows() ?? 0) })),
    }),
  );
}

/** Snowflake's message for a failure (with its error code and SQL state), without the password. */
export function describeSnowflakeError(err: unknown, c: Pick<SnowflakeTarget, 'password'>): string {
  const e = err as Error & { code?: string | number; sqlState?: string; cause?: Error & { code?: string } };
  let msg = e?.message ?? String(err);
  const tags = [e?.code !== undefined ? `code ${e.code}` : '', e?.sqlState ? `SQL state ${e.sqlState}` : ''].filter(Boolean).join(', ');
  if (tags) msg += ` (${tags})`;
  if (e?.cause?.message && !msg.includes(e.cause.message)) msg += `: ${e.cause.code ? `${e.cause.code} ` : ''}${e.cause.message}`;
  return redact(msg, [c.password]);
}

/** HTTP statuses and network failures worth a retry of the whole write (after the SDK's own retries). */
export function retryableSnowflake(err: unknown): boolean {
  const e = err as { code?: string | number; response?: { status?: number }; cause?: { code?: string } };
  const status = e?.response?.status;
  if (status === 429 || (status !== undefined && status >= 500)) return true;
  // 401001: network error (could not reach Snowflake); 000630/000625: statement or transaction aborted by the service.
  return ['401001', '000630', '000625', 401001].includes(e?.code as string) || ['ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(e?.cause?.code ?? '');
}
