// Connections to a tenant's PostgreSQL through the `pg` driver, on a socket that connects only
// where the outbound policy allows (checked on the address really connected to).
import pg from 'pg';
import type { z } from 'zod';
import { assertAllowedHost, guardedSocket } from '../../net/outbound';

export interface PostgresConnection {
  host: string;
  port: number;
  database: string;
  username: string;
  password: string;
}

const CONNECT_TIMEOUT_MS = 10_000;
const QUERY_TIMEOUT_MS = 120_000;

export async function connect(c: PostgresConnection, signal?: AbortSignal): Promise<pg.Client> {
  await assertAllowedHost(c.host);
  const client = new pg.Client({
    host: c.host,
    stream: () => guardedSocket(),
    port: c.port,
    database: c.database,
    user: c.username,
    password: c.password,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    application_name: 'workflow-service',
  });
  // An error after connect (server gone) must not become an unhandled 'error' event.
  client.on('error', () => undefined);
  const onAbort = () => void client.end().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await client.connect();
  } catch (err) {
    signal?.removeEventListener('abort', onAbort);
    await client.end().catch(() => undefined);
    throw new Error(`cannot connect to ${c.host}:${c.port}/${c.database}: ${describePgError(err)}`);
  }
  return client;
}

/** The server's message with its SQLSTATE, never the connection's password. */
export function describePgError(err: unknown): string {
  const e = err as { message?: string; code?: string; detail?: string };
  const parts = [e?.message ?? String(err)];
  if (e?.detail) parts.push(e.detail);
  if (e?.code && /^[0-9A-Z]{5}$/.test(e.code)) parts.push(`SQLSTATE ${e.code}`);
  return parts.join('; ');
}

/** "schema.table" or "table" as a quoted identifier, and its parts for catalog lookups. */
export function tableRef(name: string): { sql: string; schema?: string; table: string } {
  const parts = name.split('.');
  if (parts.length > 2 || parts.some((p) => !p)) throw new Error(`table_name ${JSON.stringify(name)} is not a table or schema.table name`);
  const q = (p: string) => pg.escapeIdentifier(p);
  return parts.length === 2 ? { sql: `${q(parts[0]!)}.${q(parts[1]!)}`, schema: parts[0], table: parts[1]! } : { sql: q(parts[0]!), table: parts[0]! };
}

/** Runs fn on a connection made for it (a check, one page), closed afterwards whatever happens. */
export async function withConnection<T>(c: PostgresConnection, signal: AbortSignal | undefined, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await connect(c, signal);
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The derived input schema refined as source and destination both need it: batch_size, port, table_name. */
export function postgresInput<C>(base: z.ZodTypeAny): z.ZodType<C> {
  return (base as z.ZodType<Record<string, unknown>>).superRefine((c, ctx) => {
    if (typeof c.batch_size === 'number' && c.batch_size < 1) ctx.addIssue({ code: 'custom', path: ['batch_size'], message: 'batch_size must be at least 1' });
    if (typeof c.port === 'number' && (c.port < 1 || c.port > 65535)) ctx.addIssue({ code: 'custom', path: ['port'], message: 'port must be between 1 and 65535' });
    if (typeof c.table_name === 'string') {
      try {
        tableRef(c.table_name);
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['table_name'], message: (err as Error).message });
      }
    }
  }) as unknown as z.ZodType<C>;
}
