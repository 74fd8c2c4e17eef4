// A local stand-in for Teradata's Query Service REST API (GET /systems, POST /systems/{name}/queries
// with {query, params, batch, format, includeColumns}, basic auth), for tests and benchmarks; never
// imported by a handler. It answers in the documented shapes (results[{resultSet, columns, data,
// rowCount}] / update counts; errors {"error": "<code>", "message"} with HTTP 420 for database errors,
// 401 without credentials) and keeps tables in memory. It is no SQL engine: it executes exactly the
// statement shapes the connector sends (whole-statement patterns, identifiers matched as Teradata
// does, case-insensitively); anything else is a 3706 syntax error, so a changed statement fails the
// tests instead of passing unexecuted. Types are checked as the database would for what the connector
// writes: NOT NULL (3604), VARCHAR/CHAR length (3996), numbers (3535), VECTOR32 text and JSON.
// Read-only users are refused writes (3523), missing tables are 3807; fail() injects 429/5xx/420
// answers before handling (records/stand-in.ts). With `tls`, an https listener (the Query Service's
// usual scheme) terminates TLS in front of the same service.
import { connect } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { startStandIn, type Fault, type Reply, type SeenRequest } from '../records/stand-in';

export interface TeradataStandInOptions {
  users?: Record<string, { password: string; readOnly?: boolean }>;
  /** What GET /systems lists (default one system "local" on 127.0.0.1). */
  systems?: { name: string; host: string }[];
  /** Largest rowLimit honoured (a larger or absent one is cut to it, as a service's configured maximum). */
  maxRows?: number;
  /** Also listen with TLS (the Query Service's https) with this certificate, in front of the same service. */
  tls?: { key: string; cert: string };
}

interface Column {
  name: string;
  type: string;
  length?: number;
  notNull: boolean;
}

interface Table {
  db: string;
  name: string;
  columns: Column[];
  rows: unknown[][];
}

export interface TeradataStandIn {
  /** http://127.0.0.1:<port>: a `host` given as a URL is used as the Query Service's base. */
  url: string;
  port: number;
  /** https://127.0.0.1:<tls port> when started with `tls`, and that port. */
  httpsUrl?: string;
  tlsPort?: number;
  requests: SeenRequest[];
  /** The query requests received, in order (query text and parameter sets). */
  statements(): { query: string; params?: unknown[][]; batch?: boolean; format?: unknown; user: string }[];
  fail(fault: Fault): void;
  /** Creates a table from column definitions as in CREATE TABLE (`"id" INTEGER NOT NULL, "name" VARCHAR(20)`). */
  createTable(db: string, name: string, columns: string): void;
  dropTable(db: string, name: string): void;
  /** The rows of a table as objects keyed by column name (read-back); undefined when absent. */
  rows(db: string, name: string): Record<string, unknown>[] | undefined;
  columns(db: string, name: string): string[] | undefined;
  insert(db: string, name: string, row: Record<string, unknown>): void;
  update(db: string, name: string, idColumn: string, id: unknown, values: Record<string, unknown>): void;
  stop(): Promise<void>;
}

class DbError extends Error {
  constructor(
    readonly code: number,
    msg: string,
    readonly status = 420,
  ) {
    super(msg);
  }
}

const NAME = '"([^"]+)"';
const TABLE = `(?:${NAME}\\.)?${NAME}`;
const SHAPES = {
  probe: new RegExp(`^SELECT TOP 1 \\* FROM ${TABLE}$`),
  delete: new RegExp(`^DELETE FROM ${TABLE} WHERE ${NAME} = \\?$`),
  insert: new RegExp(`^INSERT INTO ${TABLE} \\(("[^"]+"(?:, "[^"]+")*)\\) VALUES \\((\\?(?:, \\?)*)\\)$`),
  create: new RegExp(`^CREATE MULTISET TABLE ${TABLE} \\((.*)\\) PRIMARY INDEX \\(${NAME}\\)$`),
  list: new RegExp(`^SELECT TOP (\\d+) (\\*|"[^"]+"(?:, "[^"]+")*) FROM ${TABLE}(?: WHERE ${NAME} > (\\?))? ORDER BY ${NAME}$`),
  read: new RegExp(`^SELECT (\\*|"[^"]+"(?:, "[^"]+")*) FROM ${TABLE} WHERE ${NAME} = \\?$`),
};

/** Column definitions of a CREATE TABLE, split at top-level commas. */
function parseColumns(defs: string): Column[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of defs) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) parts.push(cur.trim());
  return parts.map((p) => {
    const m = /^"([^"]+)"\s+([A-Z0-9]+)(?:\((\d+)(?:,\s*\d+)?\))?(.*)$/i.exec(p);
    if (!m) throw new DbError(3706, `Syntax error: expected a column definition near '${p.slice(0, 40)}'.`);
    return { name: m[1]!, type: m[2]!.toUpperCase(), ...(m[3] ? { length: Number(m[3]) } : {}), notNull: /NOT NULL/i.test(m[4]!) };
  });
}

const NUMERIC = new Set(['BYTEINT', 'SMALLINT', 'INTEGER', 'INT', 'BIGINT', 'DECIMAL', 'NUMBER', 'FLOAT', 'REAL']);

function coerce(col: Column, v: unknown): unknown {
  if (v === null || v === undefined) {
    if (col.notNull) throw new DbError(3604, `Cannot place a null value in a NOT NULL field.`);
    return null;
  }
  if (NUMERIC.has(col.type)) {
    const n = typeof v === 'number' ? v : Number(v);
    if (typeof v === 'boolean' || !Number.isFinite(n)) throw new DbError(3535, 'A character string failed conversion to a numeric value.');
    return n;
  }
  const s = typeof v === 'string' ? v : String(v);
  if ((col.type === 'VARCHAR' || col.type === 'CHAR') && col.length !== undefined && s.length > col.length) throw new DbError(3996, 'Right truncation of string data.');
  if (col.type === 'VECTOR32' && !/^-?[\d.e+-]+(,-?[\d.e+-]+)*$/i.test(s)) throw new DbError(3754, `Precision loss during expression evaluation: '${s.slice(0, 20)}' is not a VECTOR32 value.`);
  if (col.type === 'JSON') {
    try {
      JSON.parse(s);
    } catch {
      throw new DbError(7548, 'Syntax error in JSON string: invalid JSON text.');
    }
  }
  return s;
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export async function startTeradataStandIn(opts: TeradataStandInOptions = {}): Promise<TeradataStandIn> {
  const users = opts.users ?? { dbc: { password: 'teradata-secret' } };
  const tables = new Map<string, Table>();
  const key = (db: string, name: string) => `${db.toLowerCase()}.${name.toLowerCase()}`;
  const log: { query: string; params?: unknown[][]; batch?: boolean; format?: unknown; user: string }[] = [];
  const systems = opts.systems;

  function tableOf(db: string, name: string): Table {
    const t = tables.get(key(db, name));
    if (!t) throw new DbError(3807, `Object '${db}.${name}' does not exist.`);
    return t;
  }
  const colIdx = (t: Table, name: string) => {
    const i = t.columns.findIndex((c) => c.name.toLowerCase() === name.toLowerCase());
    if (i < 0) throw new DbError(5628, `Column ${name} not found in ${t.db}.${t.name}.`);
    return i;
  };
  const mayWrite = (user: { readOnly?: boolean }, verb: string, t: { db: string; name: string }) => {
    if (user.readOnly) throw new DbError(3523, `The user does not have ${verb} access to ${t.db}.${t.name}.`);
  };
  const selected = (t: Table, list: string) => (list === '*' ? t.columns.map((_, i) => i) : list.split(', ').map((q) => colIdx(t, q.slice(1, -1))));
  const resultSet = (t: Table, idx: number[], rows: unknown[][]) => ({
    resultSet: true,
    columns: idx.map((i) => ({ name: t.columns[i]!.name, type: t.columns[i]!.type })),
    data: rows.map((r) => idx.map((i) => r[i] ?? null)),
    rowCount: rows.length,
    rowLimitExceeded: false,
  });

  function run(query: string, params: unknown[][] | undefined, userName: string): unknown[] {
    const user = users[userName]!;
    const dbOf = (db: string | undefined) => db ?? userName;
    const one = (n: number) => {
      if (params?.length !== 1 || !Array.isArray(params[0]) || params[0].length !== n) {
        throw new DbError(3939, 'There is a mismatch between the number of parameters specified and the number of parameters required.');
      }
      return params[0];
    };
    let m: RegExpExecArray | null;
    if ((m = SHAPES.probe.exec(query))) {
      const t = tableOf(dbOf(m[1]), m[2]!);
      return [resultSet(t, selected(t, '*'), t.rows.slice(0, 1))];
    }
    if ((m = SHAPES.delete.exec(query))) {
      const t = tableOf(dbOf(m[1]), m[2]!);
      mayWrite(user, 'DELETE', t);
      const i = colIdx(t, m[3]!);
      const [v] = one(1);
      const before = t.rows.length;
      t.rows = t.rows.filter((r) => r[i] !== v);
      return [{ resultSet: false, count: before - t.rows.length }];
    }
    if ((m = SHAPES.insert.exec(query))) {
      const t = tableOf(dbOf(m[1]), m[2]!);
      mayWrite(user, 'INSERT', t);
      const cols = m[3]!.split(', ').map((q) => colIdx(t, q.slice(1, -1)));
      const markers = m[4]!.split(', ').length;
      if (markers !== cols.length) throw new DbError(3812, 'The positional assignment list has too few values.');
      const sets = params ?? [];
      if (!sets.length || sets.some((s) => !Array.isArray(s) || s.length !== markers)) {
        throw new DbError(3939, 'There is a mismatch between the number of parameters specified and the number of parameters required.');
      }
      // the request is one transaction: a refused row leaves none of the batch
      const staged = sets.map((s) => {
        const row: unknown[] = t.columns.map(() => null);
        cols.forEach((ci, k) => (row[ci] = s[k]));
        return t.columns.map((c, ci) => coerce(c, row[ci]));
      });
      t.rows.push(...staged);
      return staged.map(() => ({ resultSet: false, count: 1 }));
    }
    if ((m = SHAPES.create.exec(query))) {
      const db = dbOf(m[1]);
      if (user.readOnly) throw new DbError(3524, `The user does not have CREATE TABLE access to database ${db}.`);
      if (tables.has(key(db, m[2]!))) throw new DbError(3803, `Table '${db}.${m[2]}' already exists.`);
      const columns = parseColumns(m[3]!);
      tables.set(key(db, m[2]!), { db, name: m[2]!, columns, rows: [] });
      colIdx(tables.get(key(db, m[2]!))!, m[4]!);
      return [{ resultSet: false, count: 0 }];
    }
    if ((m = SHAPES.list.exec(query))) {
      const t = tableOf(dbOf(m[3]), m[4]!);
      const idx = selected(t, m[2]!);
      const order = colIdx(t, m[7]!);
      let rows = [...t.rows];
      if (m[6]) {
        const where = colIdx(t, m[5]!);
        const [after] = one(1);
        rows = rows.filter((r) => compare(r[where], after) > 0);
      }
      rows.sort((a, b) => compare(a[order], b[order]));
      return [resultSet(t, idx, rows.slice(0, Number(m[1])))];
    }
    if ((m = SHAPES.read.exec(query))) {
      const t = tableOf(dbOf(m[2]), m[3]!);
      const idx = selected(t, m[1]!);
      const where = colIdx(t, m[4]!);
      const [v] = one(1);
      return [resultSet(t, idx, t.rows.filter((r) => compare(r[where], v) === 0 && typeof r[where] === typeof v))];
    }
    throw new DbError(3706, `Syntax error: the stand-in does not know this statement: ${query.slice(0, 80)}`);
  }

  function handle(req: SeenRequest): Reply {
    if (req.method === 'GET' && req.path === '/systems') {
      const list = systems ?? [{ name: 'local', host: '127.0.0.1' }];
      return { status: 200, body: list.map((s) => ({ name: s.name, host: s.host, port: 1025, systemType: 'TERADATA', status: 'available' })) };
    }
    const m = /^\/systems\/([^/]+)\/queries$/.exec(req.path);
    if (!m || req.method !== 'POST') return { status: 404, body: { message: `No resource at ${req.method} ${req.path}` } };
    const auth = /^Basic (.+)$/.exec(String(req.headers.authorization ?? ''));
    if (!auth) return { status: 401, body: { message: 'Full authentication is required to access this resource' } };
    const decoded = Buffer.from(auth[1]!, 'base64').toString('utf8');
    const sep = decoded.indexOf(':');
    const userName = decoded.slice(0, sep);
    const user = users[userName];
    if (!user || user.password !== decoded.slice(sep + 1)) return { status: 420, body: { error: '8017', message: 'The UserId, Password or Account is invalid.' } };
    const name = decodeURIComponent(m[1]!);
    if (!(systems ?? [{ name: 'local' }]).some((s) => s.name === name)) return { status: 404, body: { message: `System '${name}' not found.` } };
    const body = req.body as { query?: unknown; params?: unknown; batch?: unknown; format?: unknown } | undefined;
    if (typeof body?.query !== 'string') return { status: 400, body: { message: 'query is required' } };
    const params = Array.isArray(body.params) ? (body.params as unknown[][]) : undefined;
    log.push({ query: body.query, ...(params ? { params } : {}), ...(body.batch !== undefined ? { batch: body.batch === true } : {}), format: body.format, user: userName });
    try {
      const limit = Math.min(typeof (body as { rowLimit?: unknown }).rowLimit === 'number' ? ((body as { rowLimit: number }).rowLimit) : Infinity, opts.maxRows ?? Infinity);
      const results = run(body.query, params, userName).map((r) => {
        const rs = r as { resultSet: boolean; data?: unknown[][] };
        if (!rs.resultSet || rs.data!.length <= limit) return r;
        return { ...rs, data: rs.data!.slice(0, limit), rowCount: limit, rowLimitExceeded: true };
      });
      const asObjects = String(body.format ?? 'OBJECT').toUpperCase() === 'OBJECT';
      const shaped = results.map((r) => {
        const rs = r as { resultSet: boolean; columns?: { name: string }[]; data?: unknown[][] };
        if (!rs.resultSet || !asObjects) return r;
        return { ...rs, data: rs.data!.map((row) => Object.fromEntries(rs.columns!.map((c, i) => [c.name, row[i]]))) };
      });
      return { status: 200, body: { queueDuration: 0, queryDuration: 1, results: shaped } };
    } catch (err) {
      if (err instanceof DbError) return { status: err.status, body: { error: String(err.code), message: err.message } };
      throw err;
    }
  }

  const server = await startStandIn(handle);
  // TLS terminator in front of the plain listener: the connector's https path, verified as usual
  let tlsServer: TlsServer | undefined;
  const tlsSockets = new Set<{ destroy(): void }>();
  if (opts.tls) {
    tlsServer = createTlsServer({ key: opts.tls.key, cert: opts.tls.cert }, (socket) => {
      const upstream = connect(server.port, '127.0.0.1');
      tlsSockets.add(socket);
      socket.on('close', () => tlsSockets.delete(socket));
      socket.pipe(upstream).pipe(socket);
      const close = () => {
        socket.destroy();
        upstream.destroy();
      };
      socket.on('error', close);
      upstream.on('error', close);
    });
    tlsServer.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => tlsServer!.listen(0, '127.0.0.1', resolve));
  }
  const tlsPort = tlsServer ? (tlsServer.address() as { port: number }).port : undefined;
  return {
    url: server.url,
    port: server.port,
    ...(tlsPort ? { httpsUrl: `https://127.0.0.1:${tlsPort}`, tlsPort } : {}),
    requests: server.requests,
    statements: () => log,
    fail: (f) => server.fail(f),
    createTable(db, name, columns) {
      tables.set(key(db, name), { db, name, columns: parseColumns(columns), rows: [] });
    },
    dropTable(db, name) {
      tables.delete(key(db, name));
    },
    rows(db, name) {
      const t = tables.get(key(db, name));
      return t?.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c.name, r[i]])));
    },
    columns(db, name) {
      return tables.get(key(db, name))?.columns.map((c) => c.name);
    },
    insert(db, name, row) {
      const t = tableOf(db, name);
      const byLower = new Map(Object.entries(row).map(([k, v]) => [k.toLowerCase(), v]));
      t.rows.push(t.columns.map((c) => coerce(c, byLower.get(c.name.toLowerCase()))));
    },
    update(db, name, idColumn, id, values) {
      const t = tableOf(db, name);
      const i = colIdx(t, idColumn);
      for (const r of t.rows) {
        if (r[i] !== id) continue;
        for (const [k, v] of Object.entries(values)) r[colIdx(t, k)] = coerce(t.columns[colIdx(t, k)]!, v);
      }
    },
    async stop() {
      if (tlsServer) {
        for (const sock of tlsSockets) sock.destroy();
        await new Promise<void>((resolve) => tlsServer!.close(() => resolve()));
      }
      await server.stop();
    },
  };
}
