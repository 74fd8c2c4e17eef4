// Test-only: a local DuckDB database file standing in for a MotherDuck database (MotherDuck is a
// hosted service and cannot be reached offline). The destination runs the same SQL against it
// when MOTHERDUCK_LOCAL_DATABASE names the file (see client.ts); tests read back through the same
// shared instance the destination uses. Imported only by tests and benches.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { LOCAL_DATABASE_ENV } from './client';

/** The table the platform's MotherDuck docs have users create (duckdb-schema.sql), plus record_id. */
export function platformElementsTable(table = 'elements', extra = 'record_id VARCHAR'): string {
  return `CREATE TABLE ${table} (
    id VARCHAR, element_id VARCHAR, text TEXT, embeddings FLOAT[], type VARCHAR, system VARCHAR,
    layout_width DECIMAL, layout_height DECIMAL, points TEXT, url TEXT, version VARCHAR,
    date_created INTEGER, date_modified INTEGER, date_processed DOUBLE, permissions_data TEXT,
    record_locator TEXT, category_depth INTEGER, parent_id VARCHAR, attached_filename VARCHAR,
    filetype VARCHAR, last_modified TIMESTAMP, file_directory VARCHAR, filename VARCHAR,
    languages VARCHAR[], page_number VARCHAR, links TEXT, page_name VARCHAR, link_urls VARCHAR[],
    link_texts VARCHAR[], sent_from VARCHAR[], sent_to VARCHAR[], subject VARCHAR, section VARCHAR,
    header_footer_type VARCHAR, emphasized_text_contents VARCHAR[], emphasized_text_tags VARCHAR[],
    text_as_html TEXT, regex_metadata TEXT, detection_class_prob DECIMAL${extra ? `, ${extra}` : ''})`;
}

export interface LocalMotherDuck {
  /** The database name a config uses (the file's stem). */
  database: string;
  path: string;
  query<T = Record<string, unknown>>(sql: string, values?: (string | number)[]): Promise<T[]>;
  exec(sql: string): Promise<void>;
  stop(): Promise<void>;
}

/** A database file named <database>.duckdb with the platform's elements table, and the env pointing at it. */
export async function startLocalMotherDuck(database = 'my_db'): Promise<LocalMotherDuck> {
  const dir = mkdtempSync(join(tmpdir(), 'wps-motherduck-'));
  const path = join(dir, `${database}.duckdb`);
  const previous = process.env[LOCAL_DATABASE_ENV];
  process.env[LOCAL_DATABASE_ENV] = path;
  const instance = await DuckDBInstance.fromCache(path);
  const withConn = async <T>(fn: (c: import('@duckdb/node-api').DuckDBConnection) => Promise<T>) => {
    const conn = await instance.connect();
    try {
      return await fn(conn);
    } finally {
      conn.closeSync();
    }
  };
  const exec = (sql: string) => withConn(async (c) => void (await c.run(sql)));
  await exec(platformElementsTable());
  return {
    database,
    path,
    exec,
    query: <T>(sql: string, values: (string | number)[] = []) => withConn(async (c) => (await c.runAndReadAll(sql, values)).getRowObjectsJson() as T[]),
    stop: async () => {
      if (previous === undefined) delete process.env[LOCAL_DATABASE_ENV];
      else process.env[LOCAL_DATABASE_ENV] = previous;
      instance.closeSync();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
