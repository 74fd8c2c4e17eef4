// SQL on a Databricks SQL warehouse through the official driver, @databricks/sql (Thrift
// TCLIService over HTTP to <server_hostname><http_path>), as the platform's connector does with
// databricks-sql-connector. The driver's HTTP goes through the outbound policy: its connection
// provider's agent is replaced by a guarded one (the driver has no public agent option). The bearer
// token comes from DatabricksClient (a PAT as it is, or OAuth M2M through the guarded fetch), so the
// driver's own OAuth (openid-client, unguarded) is never used. Telemetry is off (it would post to the
// workspace outside the policy). Errors carry the warehouse's message, never a secret.
import type { DBSQLClient } from '@databricks/sql';
import type IDBSQLSession from '@databricks/sql/dist/contracts/IDBSQLSession';
import { connectorAgent, redact } from '../agents';
import { statusOf, withRetry } from '../records/retry';
import type { UploadContext } from '../records/types';
import { DatabricksClient, workspaceUrl, type DatabricksAuth } from './client';

export interface WarehouseConfig {
  server_hostname: string;
  http_path: string;
  token?: string;
  client_id?: string;
  client_secret?: string;
}

export interface Sql {
  /** Runs a statement and returns its rows. */
  run(sql: string): Promise<Record<string, unknown>[]>;
  /** Runs a query and returns its result's column names (known even when it has no rows). */
  columns(sql: string): Promise<string[]>;
}

const silent = { log: () => undefined };

/**
 * A DBSQLClient whose Thrift connection uses a guarded HTTPS agent (CONNECTOR_CA_FILE trusted; the
 * workspace URL is https:// only, client.ts). The driver keeps createConnectionProvider private and has no agent option:
 * shadowing that method on the instance is the one way to hand it an agent.
 */
async function guardedClient(): Promise<DBSQLClient> {
  const { DBSQLClient: Client } = await import('@databricks/sql'); // loaded on first use, not by every handler
  const client = new Client({ logger: silent });
  const original = (Client.prototype as unknown as { createConnectionProvider(o: unknown): Record<string, unknown> }).createConnectionProvider;
  Object.defineProperty(client, 'createConnectionProvider', {
    value(options: unknown) {
      const provider = original.call(client, options);
      (provider.options as { https: boolean }).https = true;
      provider.agent = connectorAgent('https:');
      return provider;
    },
  });
  return client;
}

export function workspaceAuth(c: WarehouseConfig): DatabricksAuth {
  return { host: c.server_hostname, token: c.token, client_id: c.client_id, client_secret: c.client_secret };
}

/**
 * Opens a session on the warehouse, runs `fn` with a statement runner, closes everything. The driver
 * retries only its idempotent calls; a 429/5xx on OpenSession or ExecuteStatement retries the whole
 * `fn` here (Retry-After honoured), so `fn` must be safe to run again (delete by record_id, then insert).
 */
export function withWarehouse<T>(c: WarehouseConfig, signal: AbortSignal | undefined, fn: (sql: Sql) => Promise<T>, log?: UploadContext['log']): Promise<T> {
  return withRetry(() => once(c, signal, fn), {
    signal,
    attempts: 4,
    onRetry: (err, attempt, delayMs) => log?.('Databricks SQL warehouse busy, retrying', { attempt, delayMs, status: statusOf(err) }),
  });
}

async function once<T>(c: WarehouseConfig, signal: AbortSignal | undefined, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const url = workspaceUrl(c.server_hostname, 'server_hostname');
  const rest = new DatabricksClient(workspaceAuth(c), signal);
  const clean = (m: string) => redact(m, [c.token, c.client_secret]);
  const client = await guardedClient();
  let session: IDBSQLSession | undefined;
  try {
    await client.connect({
      host: url.hostname,
      port: url.port ? Number(url.port) : 443,
      path: c.http_path,
      authType: 'custom',
      provider: { authenticate: async () => ({ Authorization: `Bearer ${await rest.token()}` }) },
      userAgentEntry: 'unstructuredio_oss',
      telemetryEnabled: false,
      retryMaxAttempts: 4,
      retryDelayMin: 500,
      retryDelayMax: 8000,
      retriesTimeout: 60_000,
      socketTimeout: 60_000,
    });
    session = await client.openSession();
    const s = session;
    const withOp = async <R>(sql: string, read: (op: Awaited<ReturnType<IDBSQLSession['executeStatement']>>) => Promise<R>) => {
      signal?.throwIfAborted();
      // Results inline in the Thrift answers: cloud fetch would download presigned URLs outside the
      // guarded agent, and LZ4 needs a native module (neither is needed for these small results).
      const op = await s.executeStatement(sql, { useCloudFetch: false, useLZ4Compression: false });
      try {
        return await read(op);
      } finally {
        await op.close().catch(() => undefined);
      }
    };
    return await fn({
      run: (sql) => withOp(sql, async (op) => (await op.fetchAll()) as Record<string, unknown>[]),
      columns: (sql) => withOp(sql, async (op) => ((await op.getSchema())?.columns ?? []).map((col) => col.columnName)),
    });
  } catch (err) {
    // statusCode/response kept (not the message's secrets) so withRetry sees a 429's Retry-After.
    const e = err as { statusCode?: number; response?: unknown };
    throw Object.assign(new Error(clean(`SQL warehouse ${c.http_path}: ${(err as Error).message}`)), { statusCode: e.statusCode, response: e.response });
  } finally {
    await session?.close().catch(() => undefined);
    await client.close().catch(() => undefined);
  }
}
