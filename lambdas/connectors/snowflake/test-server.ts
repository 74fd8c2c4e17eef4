// A stand-in Snowflake account for tests and benchmarks only (no handler imports it). It serves, over
// HTTPS, the REST calls the official snowflake-sdk makes — POST /session/v1/login-request (password
// authentication; bodies gzip-compressed JSON), /queries/v1/query-request (SQL text with positional
// bindings, array bindings executed row by row as one atomic statement), /session?delete=true and
// /telemetry/send — and answers in Snowflake's JSON result format (rowtype + rowset of strings,
// statementTypeId, DML counts) or its error format (success false, code, message, sqlState).
// The SQL really runs: it is translated to PostgreSQL and executed by PGlite (Postgres in WASM), so
// what the client writes can be read back. Snowflake types map to Postgres ones (VECTOR(FLOAT, n) →
// real[] with its dimension enforced, ARRAY/VARIANT → jsonb, TIMESTAMP_TZ → timestamptz); the
// catalog keeps the Snowflake types for SHOW COLUMNS; SELECTs resolve names as Snowflake does.
// Unquoted identifiers are upper-cased as in Snowflake. BEGIN/COMMIT/ROLLBACK are per session (one open transaction at a time; others wait);
// a failed statement inside a transaction is rolled back alone, as Snowflake does.
import { gunzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { createServer, type ServerOptions } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { PGlite } from '@electric-sql/pglite';

export interface SnowflakeStandIn {
  /** 127.0.0.1 */
  host: string;
  port: number;
  account: string;
  db: PGlite;
  /** Every request: path and parsed body (SQL text and bindings of queries). */
  requests: { path: string; body: any; session?: string }[];
  /** SQL texts of the queries received, in order. */
  queries(): string[];
  /** Runs Snowflake DDL (CREATE TABLE) as the account's owner would. */
  ddl(sql: string): Promise<void>;
  /** Rows of a table, lower-cased column names, read straight from the engine. */
  rows(table: string): Promise<Record<string, any>[]>;
  /** The next `times` query requests whose SQL matches get this HTTP status (and Retry-After). */
  inject(match: RegExp, status: number, times?: number, retryAfter?: string): void;
  stop(): Promise<void>;
}

export interface SnowflakeStandInOptions {
  tls: ServerOptions;
  account: string;
  users: Record<string, { password: string; readOnly?: boolean }>;
  database: string;
  schema: string;
}

/** The elements table of the platform's Snowflake destination (its test schema), with `dims` dimensions. */
export function platformElementsTable(name = 'elements', dims = 384): string {
  return `CREATE TABLE ${name} (
    id VARCHAR(36) PRIMARY KEY NOT NULL DEFAULT UUID_STRING(), record_id VARCHAR, element_id VARCHAR, text VARCHAR,
    embeddings VECTOR(FLOAT, ${dims}), type VARCHAR, system VARCHAR, layout_width DECIMAL, layout_height DECIMAL,
    points VARCHAR, url VARCHAR, version VARCHAR, date_created TIMESTAMP_TZ, date_modified TIMESTAMP_TZ,
    date_processed TIMESTAMP_TZ, permissions_data VARCHAR, record_locator VARCHAR, category_depth INTEGER,
    parent_id VARCHAR, attached_filename VARCHAR, filetype VARCHAR, last_modified TIMESTAMP_TZ, file_directory VARCHAR,
    filename VARCHAR, languages ARRAY, page_number VARCHAR, links VARCHAR, page_name VARCHAR, link_urls ARRAY,
    link_texts ARRAY, sent_from ARRAY, sent_to ARRAY, subject VARCHAR, section VARCHAR, header_footer_type VARCHAR,
    emphasized_text_contents ARRAY, emphasized_text_tags ARRAY, text_as_html VARCHAR, regex_metadata VARCHAR,
    detection_class_prob DECIMAL, image_base64 VARCHAR, image_mime_type VARCHAR, orig_elements VARCHAR,
    is_continuation BOOLEAN)`;
}

interface CatalogColumn {
  name: string;
  /** Snowflake's data_type JSON as SHOW COLUMNS prints it. */
  dataType: Record<string, unknown>;
  pgType: string;
}

class SnowflakeError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly sqlState: string,
  ) {
    super(message);
  }
}

const BOOL_OID = 16;

const SNOWFLAKE_TYPES: [RegExp, (m: RegExpExecArray) => { dataType: Record<string, unknown>; pg: string }][] = [
  [/^VECTOR\s*\(\s*FLOAT\s*,\s*(\d+)\s*\)$/i, (m) => ({ dataType: { type: 'VECTOR', vectorDimension: Number(m[1]), dimension: Number(m[1]), elementType: 'FLOAT', nullable: true }, pg: 'real[]' })],
  [/^(VARCHAR|STRING|TEXT)(\s*\(\s*(\d+)\s*\))?$/i, (m) => ({ dataType: { type: 'TEXT', length: Number(m[3] ?? 16777216), byteLength: Number(m[3] ?? 16777216) * 4, nullable: true, fixed: false }, pg: m[3] ? `varchar(${m[3]})` : 'text' })],
  [/^(DECIMAL|NUMBER|NUMERIC)(\s*\(.*\))?$/i, () => ({ dataType: { type: 'FIXED', precision: 38, scale: 0, nullable: true }, pg: 'numeric' })],
  [/^(INTEGER|INT|BIGINT)$/i, () => ({ dataType: { type: 'FIXED', precision: 38, scale: 0, nullable: true }, pg: 'numeric' })],
  [/^(FLOAT|DOUBLE|REAL)$/i, () => ({ dataType: { type: 'REAL', nullable: true }, pg: 'double precision' })],
  [/^BOOLEAN$/i, () => ({ dataType: { type: 'BOOLEAN', nullable: true }, pg: 'boolean' })],
  [/^TIMESTAMP_(TZ|NTZ|LTZ)$/i, (m) => ({ dataType: { type: `TIMESTAMP_${m[1]!.toUpperCase()}`, precision: 0, scale: 9, nullable: true }, pg: m[1]!.toUpperCase() === 'NTZ' ? 'timestamp' : 'timestamptz' })],
  [/^(ARRAY|VARIANT|OBJECT)$/i, (m) => ({ dataType: { type: m[1]!.toUpperCase(), nullable: true }, pg: 'jsonb' })],
];

/** Splits "a, b(1, 2), c" at top-level commas. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

const ident = (s: string) => (s.startsWith('"') ? s.slice(1, -1) : s.toUpperCase());
const pgIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;

export async function startSnowflakeStandIn(opts: SnowflakeStandInOptions): Promise<SnowflakeStandIn> {
  const db = await PGlite.create();
  await db.exec(`
    CREATE FUNCTION sf_parse_json(t text) RETURNS jsonb LANGUAGE plpgsql AS $$
    BEGIN
      IF t IS NULL THEN RETURN NULL; END IF;
      RETURN t::jsonb;
    EXCEPTION WHEN others THEN
      RAISE EXCEPTION 'Error parsing JSON: %', left(t, 40) USING ERRCODE = '22000';
    END $$;
    CREATE FUNCTION sf_vector(j jsonb, dims int) RETURNS real[] LANGUAGE plpgsql AS $$
    BEGIN
      IF j IS NULL THEN RETURN NULL; END IF;
      IF jsonb_typeof(j) <> 'array' THEN RAISE EXCEPTION 'Cannot cast a value of type % to VECTOR(FLOAT, %)', upper(jsonb_typeof(j)), dims USING ERRCODE = '22000'; END IF;
      IF jsonb_array_length(j) <> dims THEN
        RAISE EXCEPTION 'Cannot cast array of length % to VECTOR(FLOAT, %): dimension mismatch', jsonb_array_length(j), dims USING ERRCODE = '22000';
      END IF;
      RETURN ARRAY(SELECT x::real FROM jsonb_array_elements_text(j) x);
    END $$;`);
  const catalog = new Map<string, CatalogColumn[]>();
  const requests: SnowflakeStandIn['requests'] = [];
  const sessions = new Map<string, { user: string; token: string; inTxn: boolean }>();
  const faults: { match: RegExp; status: number; left: number; retryAfter?: string }[] = [];

  // One transaction at a time over the single engine connection.
  let lockOwner: string | undefined;
  let waiters: (() => void)[] = [];
  const acquire = async (owner: string) => {
    while (lockOwner !== undefined && lockOwner !== owner) await new Promise<void>((r) => waiters.push(r));
    lockOwner = owner;
  };
  const release = () => {
    lockOwner = undefined;
    const w = waiters;
    waiters = [];
    for (const r of w) r();
  };

  async function ddl(sql: string): Promise<void> {
    const m = /^\s*CREATE\s+(?:OR\s+REPLACE\s+)?TABLE\s+([A-Za-z_][\w$]*|"[^"]+")\s*\(([\s\S]*)\)\s*;?\s*$/i.exec(sql);
    if (!m) throw new SnowflakeError('001003', `SQL compilation error:\nsyntax error line 1 at position 0 unexpected '${sql.slice(0, 20)}'.`, '42000');
    const table = ident(m[1]!);
    const cols: CatalogColumn[] = [];
    const pgCols: string[] = [];
    for (const def of splitTop(m[2]!)) {
      const dm = /^([A-Za-z_][\w$]*|"[^"]+")\s+(VECTOR\s*\([^)]*\)|[A-Za-z_]+(?:\s*\(\s*\d+(?:\s*,\s*\d+)?\s*\))?)(.*)$/i.exec(def);
      if (!dm) continue;
      const name = ident(dm[1]!);
      const spec = SNOWFLAKE_TYPES.map(([re, f]) => {
        const x = re.exec(dm[2]!.trim());
        return x ? f(x) : undefined;
      }).find(Boolean);
      if (!spec) throw new SnowflakeError('002040', `SQL compilation error:\nUnsupported data type '${dm[2]}'.`, '42601');
      const rest = dm[3]!.replace(/DEFAULT\s+UUID_STRING\(\)/i, 'DEFAULT gen_random_uuid()::text');
      cols.push({ name, dataType: spec.dataType, pgType: spec.pg });
      pgCols.push(`${pgIdent(name)} ${spec.pg} ${rest}`);
    }
    await db.exec(`CREATE TABLE ${pgIdent(table)} (${pgCols.join(', ')})`);
    catalog.set(table, cols);
  }

  const tableOf = (name: string) => {
    const t = ident(name.split('.').pop()!);
    const cols = catalog.get(t);
    if (!cols) throw new SnowflakeError('002003', `SQL compilation error:\nTable '${t}' does not exist or not authorized.`, '42S02');
    return { t, cols };
  };

  /** Snowflake SQL of the forms this destination sends → Postgres SQL with $n parameters. */
  function translate(sql: string): { pg: string; kind: 'select' | 'insert' | 'delete' | 'show' | 'txn'; table?: string } {
    const s = sql.trim().replace(/;\s*$/, '');
    let n = 0;
    const params = (x: string) => x.replace(/\?/g, () => `$${++n}::text`);
    const ins = /^INSERT\s+INTO\s+(\S+)\s*\(([^)]*)\)\s*SELECT\s+([\s\S]+?)\s+FROM\s+VALUES\s*\(([\s\S]*)\)$/i.exec(s);
    if (ins) {
      const { t, cols } = tableOf(ins[1]!);
      const targets = ins[2]!.split(',').map((c) => ident(c.trim()));
      const exprs = splitTop(ins[3]!);
      const pgExprs = exprs.map((e, i) => {
        const col = cols.find((c) => c.name === targets[i]);
        if (!col) throw new SnowflakeError('000904', `SQL compilation error: error line 1 at position 0\ninvalid identifier '${targets[i]}'`, '42000');
        const vec = /^PARSE_JSON\(\$(\d+)\)::VECTOR\(FLOAT,\s*(\d+)\)$/i.exec(e);
        if (vec) return `sf_vector(sf_parse_json(column${vec[1]}), ${vec[2]})`;
        const pj = /^PARSE_JSON\(\$(\d+)\)$/i.exec(e);
        if (pj) return col.pgType === 'jsonb' ? `sf_parse_json(column${pj[1]})` : `sf_parse_json(column${pj[1]})::text::${col.pgType}`;
        const plain = /^\$(\d+)$/.exec(e);
        if (plain) return `column${plain[1]}::${col.pgType}`;
        throw new SnowflakeError('001003', `SQL compilation error: unexpected '${e}'`, '42000');
      });
      return { pg: `INSERT INTO ${pgIdent(t)} (${targets.map(pgIdent).join(', ')}) SELECT ${pgExprs.join(', ')} FROM (VALUES (${params(ins[4]!)})) AS v`, kind: 'insert', table: t };
    }
    const del = /^DELETE\s+FROM\s+(\S+)\s+WHERE\s+([A-Za-z_][\w$]*)\s*=\s*\?$/i.exec(s);
    if (del) {
      const { t } = tableOf(del[1]!);
      return { pg: `DELETE FROM ${pgIdent(t)} WHERE ${pgIdent(ident(del[2]!))} = $1`, kind: 'delete', table: t };
    }
    if (/^SHOW\s+COLUMNS\s+IN\s+(TABLE\s+)?\S+$/i.test(s)) return { pg: '', kind: 'show', table: tableOf(s.split(/\s+/).pop()!).t };
    if (/^(BEGIN|COMMIT|ROLLBACK)(\s+TRANSACTION)?$/i.test(s)) return { pg: s.split(/\s+/)[0]!.toUpperCase(), kind: 'txn' };
    if (/^SELECT\s/i.test(s)) return { pg: selectSql(s), kind: 'select' };
    throw new SnowflakeError('001003', `SQL compilation error:\nsyntax error line 1 at position 0 unexpected '${s.split(/\s+/)[0]}'.`, '42000');
  }

  /**
   * A SELECT as Snowflake resolves it: unquoted names of catalog tables and columns upper-cased
   * (db.schema qualifiers dropped: one schema here), `?` as untyped parameters so that a comparison
   * takes the column's type (WHERE ID > ?). String literals are left alone.
   */
  function selectSql(sql: string): string {
    const tables = new Set(catalog.keys());
    const columns = new Set([...catalog.values()].flatMap((cols) => cols.map((c) => c.name)));
    let n = 0;
    return sql
      .split(/('(?:[^']|'')*')/)
      .map((part, i) =>
        i % 2 === 1
          ? part
          : part
              .replace(/\?/g, () => `$${++n}`)
              .replace(/(?<![$\w".])(?:[A-Za-z_][\w$]*\.){0,2}([A-Za-z_][\w$]*)(?![\w$(])/g, (m, last: string) => {
                const up = last.toUpperCase();
                if (m.includes('.') && tables.has(up)) return pgIdent(up);
                return !m.includes('.') && (tables.has(up) || columns.has(up)) ? pgIdent(up) : m;
              }),
      )
      .join('');
  }

  const text = (v: unknown) => (v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : String(v));

  async function runQuery(sessionId: string, body: any): Promise<Record<string, unknown>> {
    const session = sessions.get(sessionId)!;
    const sql: string = body.sqlText;
    const tr = translate(sql);
    const bindings: Record<string, { type: string; value: unknown }> = body.bindings ?? {};
    const positions = Object.keys(bindings).map(Number).sort((a, b) => a - b);
    const arrays = positions.length > 0 && Array.isArray(bindings[String(positions[0])]!.value);
    const rowsOfBinds: (string | null)[][] = arrays
      ? (bindings[String(positions[0])]!.value as unknown[]).map((_, r) => positions.map((p) => text((bindings[String(p)]!.value as unknown[])[r])))
      : [positions.map((p) => text(bindings[String(p)]!.value))];
    const base = { queryId: randomUUID(), parameters: [], version: 1, queryResultFormat: 'json', finalDatabaseName: opts.database.toUpperCase(), finalSchemaName: opts.schema.toUpperCase() };
    const user = opts.users[session.user]!;

    if (tr.kind === 'txn') {
      if (tr.pg === 'BEGIN' && !session.inTxn) {
        await acquire(sessionId);
        await db.exec('BEGIN');
        session.inTxn = true;
      } else if (tr.pg !== 'BEGIN' && session.inTxn) {
        await db.exec(tr.pg);
        session.inTxn = false;
        release();
      }
      return { ...base, rowtype: [{ name: 'status', type: 'text', nullable: true }], rowset: [['Statement executed successfully.']], total: 1, returned: 1, statementTypeId: 0x5000 };
    }
    if (tr.kind === 'show') {
      const cols = catalog.get(tr.table!)!;
      const names = ['table_name', 'schema_name', 'column_name', 'data_type', 'null?', 'default', 'kind', 'expression', 'comment', 'database_name', 'autoincrement'];
      return {
        ...base,
        rowtype: names.map((name) => ({ name, type: 'text', nullable: true })),
        rowset: cols.map((c) => [tr.table, opts.schema.toUpperCase(), c.name, JSON.stringify(c.dataType), 'true', '', 'COLUMN', '', '', opts.database.toUpperCase(), '']),
        total: cols.length,
        returned: cols.length,
        statementTypeId: 0x7000,
      };
    }
    if ((tr.kind === 'insert' || tr.kind === 'delete') && user.readOnly) {
      throw new SnowflakeError('003001', `SQL access control error:\nInsufficient privileges to operate on table '${tr.table}'`, '42501');
    }
    // One statement is atomic: a savepoint inside the session's transaction, or a transaction of its own.
    const own = !session.inTxn;
    if (own) {
      await acquire(sessionId);
      await db.exec('BEGIN');
    } else await db.exec('SAVEPOINT stmt');
    try {
      let affected = 0;
      let result: { rows: any[]; fields: { name: string; dataTypeID: number }[] } = { rows: [], fields: [] };
      for (const binds of rowsOfBinds) {
        const r = await db.query<any>(tr.pg, binds, { rowMode: 'array' });
        affected += r.affectedRows ?? 0;
        result = r as typeof result;
      }
      if (own) await db.exec('COMMIT');
      else await db.exec('RELEASE SAVEPOINT stmt');
      if (tr.kind === 'insert') return { ...base, rowtype: [{ name: 'number of rows inserted', type: 'fixed', scale: 0, precision: 19, nullable: false }], rowset: [[String(affected)]], total: 1, returned: 1, statementTypeId: 0x3100, stats: { numRowsInserted: affected } };
      if (tr.kind === 'delete') return { ...base, rowtype: [{ name: 'number of rows deleted', type: 'fixed', scale: 0, precision: 19, nullable: false }], rowset: [[String(affected)]], total: 1, returned: 1, statementTypeId: 0x3300, stats: { numRowsDeleted: affected } };
      const numeric = new Set([20, 21, 23, 700, 701, 1700]);
      return {
        ...base,
        rowtype: result.fields.map((f) =>
          numeric.has(f.dataTypeID)
            ? { name: f.name.toUpperCase(), type: 'fixed', scale: 0, precision: 38, nullable: true }
            : { name: f.name.toUpperCase(), type: f.dataTypeID === BOOL_OID ? 'boolean' : 'text', nullable: true },
        ),
        // Snowflake's JSON result format sends a BOOLEAN as "1" / "0".
        rowset: result.rows.map((row: unknown[]) => row.map((v) => (typeof v === 'boolean' ? (v ? '1' : '0') : text(v)))),
        total: result.rows.length,
        returned: result.rows.length,
        statementTypeId: 0x1000,
      };
    } catch (err) {
      if (own) await db.exec('ROLLBACK').catch(() => undefined);
      else await db.exec('ROLLBACK TO SAVEPOINT stmt').catch(() => undefined);
      if (err instanceof SnowflakeError) throw err;
      const e = err as { message: string; code?: string };
      throw new SnowflakeError('100038', e.message, e.code ?? '22000');
    } finally {
      if (own) release();
    }
  }

  async function handle(req: IncomingMessage, raw: Buffer): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
    const url = new URL(req.url ?? '/', 'https://stand-in');
    const plain = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
    const body = plain.length ? JSON.parse(plain.toString('utf8')) : undefined;
    const token = /Snowflake Token="([^"]+)"/.exec(String(req.headers.authorization ?? ''))?.[1];
    const sessionId = [...sessions.entries()].find(([, s]) => s.token === token)?.[0];
    requests.push({ path: url.pathname, body, session: sessionId });
    if (url.pathname === '/session/v1/login-request') {
      const d = body?.data ?? {};
      const user = opts.users[d.LOGIN_NAME];
      if (String(d.ACCOUNT_NAME ?? '').toUpperCase() !== opts.account.toUpperCase() || !user || user.password !== d.PASSWORD) {
        return { status: 200, body: { data: { nextAction: 'RETRY_LOGIN', authnMethod: 'USERNAME_PASSWORD' }, code: '390100', message: 'Incorrect username or password was specified.', success: false, headers: null } };
      }
      const database = url.searchParams.get('databaseName');
      if (database && database.toUpperCase() !== opts.database.toUpperCase()) {
        return { status: 200, body: { data: null, code: '390201', message: `The requested database does not exist or not authorized.`, success: false } };
      }
      const schema = url.searchParams.get('schemaName');
      if (schema && schema.toUpperCase() !== opts.schema.toUpperCase()) {
        return { status: 200, body: { data: null, code: '390201', message: `The requested schema does not exist or not authorized.`, success: false } };
      }
      const id = String(Math.floor(Math.random() * 1e12));
      const tok = randomUUID();
      sessions.set(id, { user: d.LOGIN_NAME, token: tok, inTxn: false });
      return {
        status: 200,
        body: {
          data: { token: tok, masterToken: randomUUID(), validityInSeconds: 3600, masterValidityInSeconds: 14400, sessionId: Number(id), parameters: [], sessionInfo: { databaseName: opts.database.toUpperCase(), schemaName: opts.schema.toUpperCase(), warehouseName: null, roleName: url.searchParams.get('roleName')?.toUpperCase() ?? 'PUBLIC' } },
          code: null,
          message: null,
          success: true,
        },
      };
    }
    if (!sessionId) return { status: 200, body: { data: null, code: '390104', message: 'User must login again to access the service.', success: false } };
    if (url.pathname === '/session' && url.searchParams.get('delete') === 'true') {
      const s = sessions.get(sessionId)!;
      if (s.inTxn) {
        await db.exec('ROLLBACK');
        release();
      }
      sessions.delete(sessionId);
      return { status: 200, body: { data: null, code: null, message: null, success: true } };
    }
    if (url.pathname === '/telemetry/send') return { status: 200, body: { data: 'Log Received', code: null, message: null, success: true } };
    if (url.pathname === '/queries/v1/query-request') {
      const fault = faults.find((f) => f.left > 0 && f.match.test(String(body?.sqlText ?? '')));
      if (fault) {
        fault.left--;
        return { status: fault.status, body: { message: 'Service Unavailable' }, headers: fault.retryAfter ? { 'retry-after': fault.retryAfter } : {} };
      }
      try {
        return { status: 200, body: { data: await runQuery(sessionId, body), code: null, message: null, success: true } };
      } catch (err) {
        if (!(err instanceof SnowflakeError)) throw err;
        return { status: 200, body: { data: { internalError: false, errorCode: err.code, age: 0, sqlState: err.sqlState, queryId: randomUUID(), line: -1, pos: -1, type: 'COMPILATION' }, code: err.code, message: err.message, success: false, headers: null } };
      }
    }
    return { status: 404, body: { message: `no route ${url.pathname}` } };
  }

  const sockets = new Set<Socket>();
  const server = createServer(opts.tls, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, Buffer.concat(chunks))
        .catch((err) => ({ status: 500, body: { message: `stand-in failure: ${(err as Error).message}` }, headers: {} }))
        .then((r) => {
          res.writeHead(r.status, { 'content-type': 'application/json', ...(r.headers ?? {}) });
          res.end(JSON.stringify(r.body));
        });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    host: '127.0.0.1',
    port,
    account: opts.account,
    db,
    requests,
    queries: () => requests.filter((r) => r.path === '/queries/v1/query-request').map((r) => String(r.body?.sqlText)),
    ddl: (sql) => ddl(sql),
    async rows(table) {
      const r = await db.query<Record<string, unknown>>(`SELECT * FROM ${pgIdent(ident(table))}`);
      return r.rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k.toLowerCase(), v])));
    },
    inject(match, status, times = 1, retryAfter) {
      faults.push({ match, status, left: times, retryAfter });
    },
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}
