// Connections to MotherDuck through DuckDB's own Node API (@duckdb/node-api, the official client;
// MotherDuck is DuckDB with an `md:` database). As the platform's connector does: connect to `md:`
// with the account's token, `USE "<database>"`, and qualify every name as database.schema.table.
//
// Network: DuckDB's MotherDuck extension opens its own connections from native code, so the
// outbound policy (lambdas/net/outbound.ts) cannot see or guard them. What bounds that: the only
// name ever given to DuckDB is the fixed `md:` (MotherDuck's public service, not a tenant-chosen
// host), the token travels as a config option (never in a path), and every statement is fixed SQL
// with quoted identifiers and bound values, so a tenant's config cannot make DuckDB read or attach
// anything else (no URL, no path reaches it). The extension itself is fetched by DuckDB on first use
// (extensions.duckdb.org), into a home directory under the OS temp dir (writable on Lambda).
//
// MOTHERDUCK_LOCAL_DATABASE (tests and offline runs only): the path of a local DuckDB file used in
// place of `md:`. The database is then the file itself (DuckDB names its catalog after the file's
// stem), so the same SQL runs: a config naming another database fails with DuckDB's Catalog Error.
// The token is not verified in that mode. One shared instance per file in the process (DuckDB must
// not open a file twice in one process).
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { redact } from '../agents';

export const LOCAL_DATABASE_ENV = 'MOTHERDUCK_LOCAL_DATABASE';

export interface MotherDuckTarget {
  database: string;
  db_schema: string;
  table: string;
  md_token: string;
  batch_size: number;
}

type DuckApi = typeof import('@duckdb/node-api');
export type DuckConnection = import('@duckdb/node-api').DuckDBConnection;

let api: Promise<DuckApi> | undefined;
let missing: string | undefined | null = null;

/**
 * Why DuckDB cannot run here (its API or this platform's native binding is not installed, as in
 * the Lambda bundles, see lib/base-function.ts), or undefined. Resolved, not loaded: cheap enough
 * for config validation, which then answers 422 naming the reason.
 */
export function engineMissing(): string | undefined {
  if (missing !== null) return missing;
  const binding = `@duckdb/node-bindings-${process.platform}-${process.arch}`;
  try {
    const req = createRequire(import.meta.url);
    req.resolve('@duckdb/node-api');
    req.resolve(`${binding}/package.json`);
    missing = undefined;
  } catch {
    missing = `the motherduck destination needs DuckDB's native engine (@duckdb/node-api and ${binding}), which this deployment does not ship`;
  }
  return missing;
}

/** The DuckDB engine, loaded on first use: a native addon (linux-x64 build only), absent from Lambda bundles. */
function duck(): Promise<DuckApi> {
  api ??= import('@duckdb/node-api').catch((err: unknown) => {
    api = undefined;
    throw new Error(
      `the DuckDB engine (@duckdb/node-api) cannot be loaded in this runtime (${(err as Error).message}); the motherduck destination needs its native binding, installed for linux-x64 only`,
    );
  });
  return api;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** database.schema.table, quoted. */
export function tableRef(c: Pick<MotherDuckTarget, 'database' | 'db_schema' | 'table'>): string {
  return [c.database, c.db_schema, c.table].map(quoteIdent).join('.');
}

export function localDatabasePath(): string | undefined {
  return process.env[LOCAL_DATABASE_ENV] || undefined;
}

/** A DuckDB error's text with the token removed (DuckDB may quote connection settings). */
export function describeDuckError(err: unknown, c: Pick<MotherDuckTarget, 'md_token'>): string {
  const msg = err instanceof Error ? err.message : String(err);
  return redact(msg, [c.md_token]);
}

/** Opens a connection on the configured database, runs fn, closes what it opened. */
export async function withMotherDuck<T>(c: MotherDuckTarget, fn: (conn: DuckConnection) => Promise<T>): Promise<T> {
  const { DuckDBInstance } = await duck();
  const local = localDatabasePath();
  let instance: import('@duckdb/node-api').DuckDBInstance;
  try {
    instance = local
      ? await DuckDBInstance.fromCache(local)
      : await DuckDBInstance.create('md:', {
          motherduck_token: c.md_token,
          custom_user_agent: 'workflow-processing-service',
          home_directory: tmpdir(),
        });
  } catch (err) {
    throw new Error(`cannot connect to MotherDuck: ${describeDuckError(err, c)}`);
  }
  let conn: DuckConnection | undefined;
  try {
    conn = await instance.connect();
    await conn.run(`USE ${quoteIdent(c.database)}`);
    return await fn(conn);
  } finally {
    conn?.closeSync();
    // The shared local instance stays open for the process; an md: instance is this call's own.
    if (!local) instance.closeSync();
  }
}
