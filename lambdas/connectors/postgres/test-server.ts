// A real PostgreSQL (PGlite: Postgres compiled to WASM, with pgvector) behind its socket server, so
// tests and benchmarks drive the destination through the real `pg` driver over the wire protocol.
// Not imported by any handler. PGlite accepts any user and password (no authentication).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface PgTestServer {
  host: string;
  port: number;
  db: PGlite;
  stop(): Promise<void>;
}

/** The elements table of the platform's Postgres destination docs (pgvector, 384 dimensions by default). */
export function platformElementsTable(name = 'elements', dims = 384): string {
  return `CREATE TABLE ${name} (
    id UUID PRIMARY KEY, record_id VARCHAR, element_id VARCHAR, text TEXT, embeddings vector(${dims}), type VARCHAR,
    system VARCHAR, layout_width DECIMAL, layout_height DECIMAL, points TEXT, url TEXT, version VARCHAR,
    date_created TIMESTAMPTZ, date_modified TIMESTAMPTZ, date_processed TIMESTAMPTZ, permissions_data TEXT,
    record_locator TEXT, category_depth INTEGER, parent_id VARCHAR, attached_filename VARCHAR, filetype VARCHAR,
    last_modified TIMESTAMPTZ, file_directory VARCHAR, filename VARCHAR, languages VARCHAR [], page_number VARCHAR,
    links TEXT, page_name VARCHAR, link_urls VARCHAR [], link_texts VARCHAR [], sent_from VARCHAR [], sent_to VARCHAR [],
    subject VARCHAR, section VARCHAR, header_footer_type VARCHAR, emphasized_text_contents VARCHAR [],
    emphasized_text_tags VARCHAR [], text_as_html TEXT, regex_metadata TEXT, detection_class_prob DECIMAL)`;
}

export async function startPgTestServer(): Promise<PgTestServer> {
  // On disk, not in memory: PGlite's in-memory filesystem grows a file by copying it whole (a 10,000-row
  // write spent a sixth of its time there); the data directory behaves like a real server's.
  const dataDir = mkdtempSync(join(tmpdir(), 'wps-pglite-'));
  const db = await PGlite.create({ dataDir, extensions: { vector } });
  await db.exec('CREATE EXTENSION IF NOT EXISTS vector');
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 16 } as ConstructorParameters<typeof PGLiteSocketServer>[0]);
  await server.start();
  const [host, port] = (server as unknown as { getServerConn(): string }).getServerConn().split(':');
  return {
    host: host!,
    port: Number(port),
    db,
    async stop() {
      await server.stop();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
