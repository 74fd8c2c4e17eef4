// Test-only: a Databricks SQL warehouse stand-in for the workspace stand-in (test-server.ts). It speaks
// what @databricks/sql really sends to /sql/1.0/warehouses/<id>: Thrift TCLIService calls (binary
// protocol, buffered transport) in HTTP POST bodies, decoded and encoded with the driver's own
// generated TCLIService code and thrift package. Statements run on a real engine, DuckDB: the Spark
// SQL the destination sends is translated (backtick identifiers, Spark's backslash-escaped literals,
// STRING/ARRAY<FLOAT>/VARIANT, PARSE_JSON, json.`/Volumes/...` file sources) and Unity Catalog's
// catalog/database pair maps to one DuckDB schema `<catalog>__<database>`. Every statement is kept
// (`statements`) so tests see the delete before a rewrite. Imported only by tests and benches.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- generated Thrift code, loaded untyped */
const driverRequire = createRequire(createRequire(import.meta.url).resolve('@databricks/sql'));
const thrift = driverRequire('thrift');
const TCLIService = driverRequire('../thrift/TCLIService');
const T = driverRequire('../thrift/TCLIService_types');

export interface Warehouse {
  /** Every statement received, in order, with the session's catalog.database. */
  statements: { sql: string; scope: string }[];
  /** Runs SQL on the engine (read-back for tests), in schema <catalog>__<database>. */
  query(catalog: string, database: string, sql: string): Promise<Record<string, unknown>[]>;
  /** Handles one Thrift-over-HTTP POST body; returns the reply body. */
  handle(body: Buffer): Promise<Buffer>;
  close(): void;
}

interface Session {
  conn: DuckDBConnection;
  catalog?: string;
  database?: string;
}
interface Outcome {
  columns: string[];
  rows: string[][];
  fetched?: boolean;
}

const ok = () => new T.TStatus({ statusCode: T.TStatusCode.SUCCESS_STATUS });
const handleId = () => new T.THandleIdentifier({ guid: Buffer.from(randomUUID().replace(/-/g, ''), 'hex'), secret: Buffer.alloc(16) });
const key = (h: any) => Buffer.from(h.guid).toString('hex');
const schemaName = (catalog: string, database: string) => `${catalog}__${database}`;
const dq = (s: string) => `"${s.replace(/"/g, '""')}"`;

class SqlError extends Error {
  constructor(
    message: string,
    readonly sqlState: string,
  ) {
    super(message);
  }
}

/** Spark SQL as the destination writes it -> DuckDB SQL. Literals and identifiers are tokenised so type keywords inside them are left alone. */
export function sparkToDuckDb(sql: string, fileFor: (volumePath: string) => string): string {
  const parts = sql.split(/('(?:\\.|[^'\\])*'|`(?:``|[^`])*`)/);
  let out = '';
  for (const part of parts) {
    if (part.startsWith("'")) {
      const value = part.slice(1, -1).replace(/\\(.)/g, '$1');
      out += `'${value.replace(/'/g, "''")}'`;
    } else if (part.startsWith('`')) {
      const name = part.slice(1, -1).replace(/``/g, '`');
      if (/json\.$/i.test(out)) out = `${out.slice(0, -5)}read_json(${`'${fileFor(name).replace(/'/g, "''")}'`}, format = 'array')`;
      else out += dq(name);
    } else {
      out += part
        .replace(/\bSTRING\b/gi, 'VARCHAR')
        .replace(/\bARRAY<FLOAT>/gi, 'FLOAT[]')
        .replace(/\bVARIANT\b/gi, 'JSON')
        .replace(/\bPARSE_JSON\(/gi, 'json(');
    }
  }
  return out;
}

export async function startWarehouse(opts: { catalogs: Record<string, string[]>; fileFor: (volumePath: string) => string | undefined }): Promise<Warehouse> {
  const instance = await DuckDBInstance.create(':memory:');
  const sessions = new Map<string, Session>();
  const operations = new Map<string, Outcome>();
  const statements: Warehouse['statements'] = [];
  const setup = await instance.connect();
  for (const [catalog, dbs] of Object.entries(opts.catalogs)) for (const db of dbs) await setup.run(`CREATE SCHEMA IF NOT EXISTS ${dq(schemaName(catalog, db))}`);

  const fileFor = (path: string) => {
    const file = opts.fileFor(path);
    if (!file) throw new SqlError(`[PATH_NOT_FOUND] Path does not exist: ${path}.`, '42K03');
    return file;
  };

  async function run(s: Session, sql: string): Promise<Outcome> {
    const text = sql.trim();
    let m: RegExpExecArray | null;
    if (/^SHOW CATALOGS$/i.test(text)) return { columns: ['catalog'], rows: Object.keys(opts.catalogs).map((c) => [c]) };
    if ((m = /^USE CATALOG `((?:``|[^`])+)`$/i.exec(text))) {
      const name = m[1]!.replace(/``/g, '`');
      if (!opts.catalogs[name]) throw new SqlError(`[NO_SUCH_CATALOG_EXCEPTION] Catalog '${name}' was not found. Please verify the catalog name and then retry the query or command again.`, '42704');
      s.catalog = name;
      s.database = undefined;
      return { columns: [], rows: [] };
    }
    if (!s.catalog) throw new SqlError('no current catalog', '42704');
    if (/^SHOW DATABASES$/i.test(text)) return { columns: ['databaseName'], rows: opts.catalogs[s.catalog]!.map((d) => [d]) };
    if ((m = /^USE DATABASE `((?:``|[^`])+)`$/i.exec(text))) {
      const name = m[1]!.replace(/``/g, '`');
      if (!opts.catalogs[s.catalog]!.includes(name)) throw new SqlError(`[SCHEMA_NOT_FOUND] The schema \`${s.catalog}\`.\`${name}\` cannot be found. Verify the spelling and correctness of the schema and catalog.`, '42704');
      s.database = name;
      await s.conn.run(`SET search_path = '${schemaName(s.catalog, name).replace(/'/g, "''")}'`);
      return { columns: [], rows: [] };
    }
    if (!s.database) throw new SqlError('no current database', '42704');
    if (/^SHOW TABLES$/i.test(text)) {
      const r = await s.conn.runAndReadAll(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`, [schemaName(s.catalog, s.database)]);
      return { columns: ['database', 'tableName', 'isTemporary'], rows: r.getRowsJson().map((row) => [s.database!, String(row[0]), 'false']) };
    }
    let reader;
    try {
      reader = await s.conn.runAndReadAll(sparkToDuckDb(text, fileFor));
    } catch (err) {
      if (err instanceof SqlError) throw err;
      const msg = (err as Error).message;
      throw new SqlError(msg.includes('does not exist') ? `[TABLE_OR_VIEW_NOT_FOUND] ${msg}` : `[DUCKDB] ${msg}`, msg.includes('does not exist') ? '42P01' : '42000');
    }
    const dml = /^(DELETE|INSERT)\b/i.exec(text);
    const columns = dml ? [dml[1]!.toUpperCase() === 'DELETE' ? 'num_affected_rows' : 'num_inserted_rows'] : reader.columnNames();
    const rows = reader.getRowsJson().map((row) => row.map((v) => (v === null ? (null as unknown as string) : typeof v === 'string' ? v : JSON.stringify(v))));
    return { columns, rows };
  }

  const handler = {
    async OpenSession(req: any) {
      const conn = await instance.connect();
      const h = new T.TSessionHandle({ sessionId: handleId() });
      const s: Session = { conn };
      sessions.set(key(h.sessionId), s);
      if (req.initialNamespace?.catalogName) await run(s, `USE CATALOG \`${req.initialNamespace.catalogName}\``);
      return new T.TOpenSessionResp({ status: ok(), serverProtocolVersion: T.TProtocolVersion.SPARK_CLI_SERVICE_PROTOCOL_V1, sessionHandle: h });
    },
    async CloseSession(req: any) {
      const s = sessions.get(key(req.sessionHandle.sessionId));
      s?.conn.closeSync();
      sessions.delete(key(req.sessionHandle.sessionId));
      return new T.TCloseSessionResp({ status: ok() });
    },
    async ExecuteStatement(req: any) {
      const s = sessions.get(key(req.sessionHandle.sessionId));
      if (!s) return new T.TExecuteStatementResp({ status: new T.TStatus({ statusCode: T.TStatusCode.INVALID_HANDLE_STATUS, errorMessage: 'Invalid SessionHandle' }) });
      statements.push({ sql: req.statement, scope: `${s.catalog ?? ''}.${s.database ?? ''}` });
      let outcome: Outcome;
      try {
        outcome = await run(s, req.statement);
      } catch (err) {
        // As the warehouse answers a statement that fails analysis: an error status with its message.
        const message = (err as Error).message;
        return new T.TExecuteStatementResp({ status: new T.TStatus({ statusCode: T.TStatusCode.ERROR_STATUS, errorMessage: message, displayMessage: message, sqlState: (err as SqlError).sqlState ?? '42000' }) });
      }
      const opHandle = new T.TOperationHandle({ operationId: handleId(), operationType: T.TOperationType.EXECUTE_STATEMENT, hasResultSet: outcome.columns.length > 0 });
      operations.set(key(opHandle.operationId), outcome);
      return new T.TExecuteStatementResp({ status: ok(), operationHandle: opHandle });
    },
    async GetOperationStatus(req: any) {
      const o = operations.get(key(req.operationHandle.operationId));
      if (!o) return new T.TGetOperationStatusResp({ status: new T.TStatus({ statusCode: T.TStatusCode.INVALID_HANDLE_STATUS, errorMessage: 'Invalid OperationHandle' }) });
      // Statements run to the end inside ExecuteStatement (errors are answered there), so: finished.
      return new T.TGetOperationStatusResp({ status: ok(), operationState: T.TOperationState.FINISHED_STATE, hasResultSet: o.columns.length > 0 });
    },
    async GetResultSetMetadata(req: any) {
      const o = operations.get(key(req.operationHandle.operationId))!;
      const columns = o.columns.map(
        (name, i) =>
          new T.TColumnDesc({ columnName: name, position: i + 1, typeDesc: new T.TTypeDesc({ types: [new T.TTypeEntry({ primitiveEntry: new T.TPrimitiveTypeEntry({ type: T.TTypeId.STRING_TYPE }) })] }) }),
      );
      return new T.TGetResultSetMetadataResp({ status: ok(), schema: new T.TTableSchema({ columns }), resultFormat: T.TSparkRowSetType.COLUMN_BASED_SET });
    },
    async FetchResults(req: any) {
      const o = operations.get(key(req.operationHandle.operationId))!;
      const rows = o.fetched ? [] : o.rows;
      o.fetched = true;
      const columns = o.columns.map((_, c) => {
        const nulls = Buffer.alloc(Math.ceil(rows.length / 8) || 1);
        rows.forEach((r, i) => {
          if (r[c] === null) nulls[i >> 3]! |= 1 << (i & 7);
        });
        return new T.TColumn({ stringVal: new T.TStringColumn({ values: rows.map((r) => r[c] ?? ''), nulls }) });
      });
      return new T.TFetchResultsResp({ status: ok(), hasMoreRows: false, results: new T.TRowSet({ startRowOffset: 0, rows: [], columns }) });
    },
    async CloseOperation(req: any) {
      operations.delete(key(req.operationHandle.operationId));
      return new T.TCloseOperationResp({ status: ok() });
    },
  };
  const processor = new TCLIService.Processor(handler);

  return {
    statements,
    async query(catalog, database, sql) {
      const c = await instance.connect();
      try {
        await c.run(`SET search_path = '${schemaName(catalog, database)}'`);
        return (await c.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
      } finally {
        c.closeSync();
      }
    },
    handle(body) {
      return new Promise<Buffer>((resolve, reject) => {
        const receive = thrift.TBufferedTransport.receiver((transport: any) => {
          const input = new thrift.TBinaryProtocol(transport);
          const output = new thrift.TBinaryProtocol(new thrift.TBufferedTransport(undefined, (buf: Buffer) => resolve(buf)));
          try {
            processor.process(input, output);
            transport.commitPosition();
          } catch (err) {
            reject(err as Error);
          }
        });
        receive(body);
      });
    },
    close() {
      for (const s of sessions.values()) s.conn.closeSync();
      setup.closeSync();
      instance.closeSync();
    },
  };
}
