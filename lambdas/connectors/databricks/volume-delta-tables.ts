// Databricks Volume Delta Tables destination (type `databricks_volume_delta_tables`; fields from the
// platform's table: server_hostname, http_path (a SQL warehouse), token or client_id/client_secret,
// catalog, database (default), table_name, volume with its schema (default) and volume_path).
// As the platform's uploader (volumes_table.py): each file's elements are staged as one JSON array
// (id = enhanced element id, record_id, element_id, text, type, embeddings, metadata as a JSON
// string), uploaded to /Volumes/<catalog>/<schema>/<volume>/<volume_path>/<source path>.json (the
// platform PUTs it through the SQL connector's staging; we use the Files API, same place), then on
// the warehouse: USE CATALOG, USE DATABASE, CREATE TABLE IF NOT EXISTS (the platform's
// databricks_delta_table_schema.sql) when absent, DELETE FROM t WHERE record_id = <file> (replace,
// never duplicate), INSERT INTO t (cols) SELECT ..., PARSE_JSON(metadata) FROM json.`<path>`. The
// staged upload is removed afterwards. Check = the platform's precheck (catalog, database), plus the
// volume and the table (found, or to be created).
import { defineConnector, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { literalUrlProblem } from '../../net/outbound';
import { enhancedElementId } from '../records/ids';
import { RECORD_ID_FIELD } from '../records/stage';
import type { FileRecords } from '../records/types';
import { DatabricksClient, workspaceUrl } from './client';
import { withWarehouse, workspaceAuth, type Sql, type WarehouseConfig } from './sql';
import { outputPath, volumeRoot, type VolumesConfig } from './volumes';

export interface VolumeDeltaConfig extends WarehouseConfig, ConnectorConfig {
  catalog: string;
  database: string;
  schema: string;
  volume: string;
  volume_path?: string;
  table_name?: string;
}

/** The platform's default table name when table_name is not given (create_destination). */
export const DEFAULT_TABLE = 'unstructuredautocreated';
const TYPE = 'databricks_volume_delta_tables';
const NAME = /^[^/\\\0]+$/;

const refine = refineWith<VolumeDeltaConfig>((c, ctx) => {
  for (const f of ['catalog', 'schema', 'volume', 'database', 'table_name'] as const) {
    const v = c[f];
    if (typeof v === 'string' && (!NAME.test(v) || v === '.' || v === '..' || !v.trim())) ctx.addIssue({ code: 'custom', path: [f], message: `${f} must be one Unity Catalog name (no '/')` });
  }
  if (typeof c.volume_path === 'string' && c.volume_path.split('/').some((s) => s === '.' || s === '..')) {
    ctx.addIssue({ code: 'custom', path: ['volume_path'], message: "volume_path may not contain '.' or '..' segments" });
  }
  // As the platform's connection config: exactly one form of auth.
  const oauth = Boolean(c.client_id && c.client_secret);
  if (c.token && oauth) ctx.addIssue({ code: 'custom', path: ['token'], message: 'give either token or client_id and client_secret, not both' });
  if (!c.token && !oauth) ctx.addIssue({ code: 'custom', path: ['token'], message: 'one form of auth is required: token, or client_id and client_secret' });
  if (typeof c.http_path === 'string' && !/^\/?sql\/[\w./?=-]+$/.test(c.http_path)) ctx.addIssue({ code: 'custom', path: ['http_path'], message: 'http_path must be a SQL warehouse path such as /sql/1.0/warehouses/<id>' });
  if (typeof c.server_hostname === 'string') {
    try {
      const problem = literalUrlProblem(workspaceUrl(c.server_hostname, 'server_hostname').href);
      if (problem) ctx.addIssue({ code: 'custom', path: ['server_hostname'], message: problem });
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['server_hostname'], message: (err as Error).message });
    }
  }
});

/** Databricks identifier quoting (the platform's quote_identifier). */
export const ident = (name: string) => `\`${name.replace(/`/g, '``')}\``;
/** Databricks string literal: backslash escapes, as the platform's quote_literal. */
export const literal = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const tableOf = (c: VolumeDeltaConfig) => c.table_name || DEFAULT_TABLE;
const volumesConfig = (c: VolumeDeltaConfig) => ({ ...c, host: c.server_hostname, volume_path: c.volume_path ?? '' }) as unknown as VolumesConfig;

/** The platform's databricks_delta_table_schema.sql for the table it creates. */
export function createTableSql(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${ident(table)} (id STRING NOT NULL PRIMARY KEY, record_id STRING NOT NULL, element_id STRING NOT NULL, text STRING, embeddings ARRAY<FLOAT>, type STRING, metadata VARIANT)`;
}

/** The stager's rows: elements with id, record_id, metadata as a JSON string. */
export function stageRows(file: FileRecords): Record<string, unknown>[] {
  return file.elements.map(({ metadata, ...rest }) => ({ ...rest, id: enhancedElementId(rest.element_id, file.recordId), [RECORD_ID_FIELD]: file.recordId, metadata: JSON.stringify(metadata ?? {}) }));
}

async function useTarget(sql: Sql, c: VolumeDeltaConfig): Promise<void> {
  await sql.run(`USE CATALOG ${ident(c.catalog)}`);
  await sql.run(`USE DATABASE ${ident(c.database)}`);
}

/** Table names in the current database (SHOW TABLES: database, tableName, isTemporary). */
async function tables(sql: Sql): Promise<string[]> {
  return (await sql.run('SHOW TABLES')).map((r) => String(r.tableName ?? Object.values(r)[1]));
}

async function deleteRecord(sql: Sql, c: VolumeDeltaConfig, recordId: string): Promise<number> {
  const rows = await sql.run(`DELETE FROM ${ident(tableOf(c))} WHERE ${RECORD_ID_FIELD} = ${literal(recordId)}`);
  return Number(rows[0]?.num_affected_rows ?? 0);
}

export const databricksVolumeDeltaTablesDestination = defineConnector<VolumeDeltaConfig>({
  ...derivedShape('destination', TYPE, refine),
  async check(c, ctx) {
    const table = tableOf(c);
    const notes = await withWarehouse(c, ctx.signal, async (sql) => {
      const catalogs = (await sql.run('SHOW CATALOGS')).map((r) => String(Object.values(r)[0]));
      if (!catalogs.includes(c.catalog)) throw new Error(`Catalog ${c.catalog} not found in ${catalogs.join(', ')}`);
      await sql.run(`USE CATALOG ${ident(c.catalog)}`);
      const databases = (await sql.run('SHOW DATABASES')).map((r) => String(Object.values(r)[0]));
      if (!databases.includes(c.database)) throw new Error(`Database ${c.database} not found in ${databases.join(', ')}`);
      await sql.run(`USE DATABASE ${ident(c.database)}`);
      return (await tables(sql)).includes(table) ? `table ${table} exists` : `table ${table} will be created`;
    });
    const dir = await new DatabricksClient(workspaceAuth(c), ctx.signal).call('HEAD', `/api/2.0/fs/directories${volumeRoot(c)}`, 'volume check');
    if (dir.status === 404) throw new Error(`volume ${c.catalog}.${c.schema}.${c.volume} not found (or not visible): create it in Unity Catalog and grant WRITE VOLUME`);
    return `warehouse ${c.http_path}: catalog ${c.catalog}, database ${c.database}; ${notes}; staging volume ${c.catalog}.${c.schema}.${c.volume} exists`;
  },
  async upload(c, file, ctx) {
    const table = tableOf(c);
    const rows = stageRows(file);
    const key = /\.json$/i.test(file.sourceKey) ? file.sourceKey : `${file.sourceKey}.json`;
    const encoded = outputPath(volumesConfig(c), key);
    const rest = new DatabricksClient(workspaceAuth(c), ctx?.signal);
    let uploaded = false;
    try {
      return await withWarehouse(c, ctx?.signal, async (sql) => {
        await useTarget(sql, c);
        if (!(await tables(sql)).includes(table)) {
          // Two files of one job may both find the table absent: the create that loses the race may fail
          // (a concurrent-write conflict) although the table now exists, which is all this write needs.
          await sql.run(createTableSql(table)).catch(async (err: unknown) => {
            if (!(await tables(sql)).includes(table)) throw err;
          });
        }
        const columns = new Set(await sql.columns(`SELECT * FROM ${ident(table)} LIMIT 1`));
        const deleted = columns.has(RECORD_ID_FIELD) ? await deleteRecord(sql, c, file.recordId) : 0;
        if (!rows.length) return { written: 0, deleted };
        await rest.call('PUT', `/api/2.0/fs/files${encoded}`, `upload of ${key}`, Buffer.from(JSON.stringify(rows)), '?overwrite=true');
        uploaded = true;
        const names = Object.keys(rows[0]!);
        const select = names.map((n) => (n === 'metadata' ? 'PARSE_JSON(metadata)' : n));
        const path = decodeURIComponent(encoded);
        await sql.run(`INSERT INTO ${ident(table)} (${names.join(', ')}) SELECT ${select.join(', ')} FROM json.${ident(path)}`);
        return { written: rows.length, deleted };
      }, ctx?.log);
    } finally {
      // The staged JSON is only the INSERT's source: removed so the volume does not fill up.
      if (uploaded) await rest.call('DELETE', `/api/2.0/fs/files${encoded}`, `removal of ${key}`).catch((err: Error) => ctx?.log?.('staged file not removed', { error: err.message }));
    }
  },
  async removeRecords(c, recordId, ctx) {
    return withWarehouse(c, ctx?.signal, async (sql) => {
      await useTarget(sql, c);
      return (await tables(sql)).includes(tableOf(c)) ? deleteRecord(sql, c, recordId) : 0;
    });
  },
});
