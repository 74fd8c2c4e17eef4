// A local stand-in for a Neo4j server, for tests and benchmarks: a TCP server on 127.0.0.1 that speaks
// Bolt 5.4 as the official driver does (handshake with version negotiation, PackStream v1, chunked
// messages; HELLO, LOGON with basic auth, LOGOFF, ROUTE, BEGIN, RUN, PULL, DISCARD, COMMIT,
// ROLLBACK, RESET, TELEMETRY, GOODBYE; FAILURE then IGNORED until RESET) and keeps every statement
// the driver runs with its parameters, database, user and transaction.
//
// It does NOT execute Cypher. It recognises the few statement shapes the neo4j writer sends and
// applies them to an in-memory graph, so tests read back what the driver sent as a graph: the
// delete of a document's graph (`MATCH (d:`Document` {id: $record_id}) ...`), node merges
// (`UNWIND $nodes AS node MERGE (n:`Label` {id: node.id}) SET n += node.properties ...`, vector
// into `embedding`), relationship merges (`UNWIND $edges AS edge MATCH (u:`A` ...) MATCH (v:`B` ...)
// MERGE (u)-[:`R`]->(v)`), `CREATE CONSTRAINT`, `CREATE VECTOR INDEX` (name, dimensions) and
// `SHOW INDEXES ... WHERE name = $name`, and the check's probe (`CREATE (n:`Document` {id: $probe})
// DELETE n`, no lasting effect). Writes apply at COMMIT (auto-commit: at PULL); a ROLLBACK or a
// failure drops them. Anything else is recorded and fails with Neo.ClientError.Statement.SyntaxError,
// so a wrong statement fails here as it would on a server, never passes as a success. Users have
// a role: `admin` writes, `reader` gets Neo.ClientError.Security.Forbidden on a write statement.
// Unknown databases answer Neo.ClientError.Database.DatabaseNotFound. TLS by default (bolt+s /
// neo4j+s: the client sends a password over TLS only), with the stand-ins' certificate (standInTls,
// trusted through CONNECTOR_CA_FILE); `tls: false` serves clear text (users without a password).
// Not imported by any handler.
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { standInTls } from '../records/stand-in';
import { Dechunker, frame } from './test-packstream';

export interface Neo4jUser {
  password: string;
  role?: 'admin' | 'reader';
}

export interface SeenStatement {
  query: string;
  params: Record<string, any>;
  db: string;
  user: string;
  /** Transaction number (explicit transactions), or undefined for an auto-commit statement. */
  tx?: number;
  /** Whether it was committed (false: rolled back or failed; undefined: still open). */
  committed?: boolean;
}

export interface Neo4jFault {
  /** Statements the fault hits (default: any). */
  match?: RegExp;
  code: string;
  message: string;
  times?: number;
}

export interface GraphNode {
  label: string;
  id: string;
  properties: Record<string, any>;
  embedding?: number[];
}

export interface GraphEdge {
  type: string;
  from: string;
  to: string;
}

export interface Neo4jStandIn {
  host: string;
  port: number;
  /** The uri with `scheme` (default bolt+s, or bolt for a `tls: false` stand-in). */
  uri(scheme?: string): string;
  /** The PEM file of the certificate, for CONNECTOR_CA_FILE (undefined with `tls: false`). */
  caFile?: string;
  statements: SeenStatement[];
  /** Nodes by label (all when absent), as the recognised writes left them. */
  nodes(label?: string): GraphNode[];
  edges(type?: string): GraphEdge[];
  indexes: Map<string, { label: string; property: string; dimensions: number; similarity: string }>;
  constraints: Set<string>;
  fail(fault: Neo4jFault): void;
  connections(): number;
  stop(): Promise<void>;
}

const SUCCESS = 0x70;
const RECORD = 0x71;
const IGNORED = 0x7e;
const FAILURE = 0x7f;
const WRITE = /\b(CREATE|MERGE|DELETE|SET|REMOVE)\b/i;
const NODE_KEY = (label: string, id: string) => `${label}\u0000${id}`;

type Op = (g: Graph) => void;

class Graph {
  nodes = new Map<string, GraphNode>();
  edges = new Map<string, GraphEdge>();
  indexes: Neo4jStandIn['indexes'] = new Map();
  constraints = new Set<string>();

  deleteDocument(recordId: string): number {
    const doc = NODE_KEY('Document', recordId);
    if (!this.nodes.has(doc)) return 0;
    const parts = new Set<string>();
    for (const e of this.edges.values()) {
      const other = e.from === doc ? e.to : e.to === doc ? e.from : undefined;
      if (other && /^(Chunk|UnstructuredElement)\u0000/.test(other)) parts.add(other);
    }
    for (const k of [...parts, doc]) this.nodes.delete(k);
    for (const [key, e] of this.edges) if (parts.has(e.from) || parts.has(e.to) || e.from === doc || e.to === doc) this.edges.delete(key);
    return parts.size;
  }
}

/** What a recognised statement does to the graph, and the records it answers; undefined for any other statement. */
function interpret(query: string, params: Record<string, any>, graph: Graph): { ops: Op[]; fields: string[]; records: unknown[][] } | undefined {
  const none = { ops: [] as Op[], fields: [] as string[], records: [] as unknown[][] };
  if (/^\s*CREATE \(n:`Document` \{id: \$probe\}\) DELETE n\s*$/.test(query)) return none;
  if (/^\s*MATCH \(d:`Document` \{id: \$record_id\}\)/.test(query)) {
    const recordId = String(params.record_id);
    return { ops: [(g) => void g.deleteDocument(recordId)], fields: ['deleted'], records: [] };
  }
  const nodeQ = /UNWIND \$nodes AS node\s+MERGE \(n:`([^`]+)` \{id: node\.id\}\)\s+SET n \+= node\.properties/.exec(query);
  if (nodeQ) {
    const label = nodeQ[1]!;
    const items = (params.nodes ?? []) as { id: string; properties: Record<string, any>; vector?: number[] | null }[];
    return {
      ...none,
      ops: [
        (g) => {
          for (const n of items) {
            const key = NODE_KEY(label, n.id);
            const node = g.nodes.get(key) ?? { label, id: n.id, properties: { id: n.id } };
            for (const [k, v] of Object.entries(n.properties ?? {})) if (v === null) delete node.properties[k];
            else node.properties[k] = v;
            if (n.vector) node.embedding = n.vector;
            g.nodes.set(key, node);
          }
        },
      ],
    };
  }
  const edgeQ = /UNWIND \$edges AS edge\s+MATCH \(u:`([^`]+)` \{id: edge\.source\}\)\s+MATCH \(v:`([^`]+)` \{id: edge\.destination\}\)\s+MERGE \(u\)-\[:`((?:[^`]|``)+)`\]->\(v\)/.exec(query);
  if (edgeQ) {
    const [, from, to, rel] = edgeQ as unknown as [string, string, string, string];
    const type = rel.replace(/``/g, '`');
    const items = (params.edges ?? []) as { source: string; destination: string }[];
    return {
      ...none,
      ops: [
        (g) => {
          for (const e of items) {
            const a = NODE_KEY(from, e.source);
            const b = NODE_KEY(to, e.destination);
            if (g.nodes.has(a) && g.nodes.has(b)) g.edges.set(`${a}|${type}|${b}`, { type, from: a, to: b });
          }
        },
      ],
    };
  }
  const idx = /CREATE VECTOR INDEX `?(\w+)`? IF NOT EXISTS\s+FOR \(n:`?(\w+)`?\) ON n\.(\w+)[\s\S]*`vector\.similarity_function`: '(\w+)'[\s\S]*`vector\.dimensions`: (\d+)/.exec(query);
  if (idx) {
    const [, name, label, property, similarity, dims] = idx as unknown as string[];
    return { ...none, ops: [(g) => void (g.indexes.has(name!) || g.indexes.set(name!, { label: label!, property: property!, similarity: similarity!, dimensions: Number(dims) }))] };
  }
  const cons = /CREATE CONSTRAINT `?(\w+)`? IF NOT EXISTS/.exec(query);
  if (cons) return { ...none, ops: [(g) => void g.constraints.add(cons[1]!)] };
  if (/^\s*SHOW INDEXES YIELD name, type, options WHERE name = \$name/.test(query)) {
    const found = graph.indexes.get(String(params.name));
    const options = found && { indexProvider: 'vector-2.0', indexConfig: { 'vector.dimensions': found.dimensions, 'vector.similarity_function': found.similarity.toUpperCase() } };
    return { ...none, fields: ['type', 'options'], records: found ? [['VECTOR', options]] : [] };
  }
  return undefined;
}

/** `recordParams: false` keeps statements without their parameters (benchmarks: vectors not kept twice). */
export async function startNeo4jStandIn(opts: { users: Record<string, Neo4jUser>; databases?: string[]; agent?: string; recordParams?: boolean; tls?: boolean }): Promise<Neo4jStandIn> {
  const databases = new Set(opts.databases ?? ['neo4j', 'system']);
  const agent = opts.agent ?? 'Neo4j/5.26.0';
  const graph = new Graph();
  const statements: SeenStatement[] = [];
  const faults: (Neo4jFault & { left: number })[] = [];
  const sockets = new Set<Socket>();
  let txCounter = 0;
  let connCounter = 0;
  let port = 0;

  const serve = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const id = ++connCounter;
    let shaken = false;
    let head = Buffer.alloc(0);
    const dechunker = new Dechunker();
    let user: string | undefined;
    let failed = false;
    let tx: { n: number; db: string; ops: Op[]; seen: SeenStatement[] } | undefined;
    let result: { fields: string[]; records: unknown[][]; db: string; autoCommit?: { ops: Op[]; seen: SeenStatement } } | undefined;

    const send = (sig: number, fields: unknown[]) => socket.write(frame(sig, fields));
    const fail = (code: string, message: string) => {
      failed = true;
      result = undefined;
      if (tx) for (const s of tx.seen) s.committed = false;
      tx = undefined;
      send(FAILURE, [{ code, message }]);
    };
    const dbProblem = (db: string) => (databases.has(db) ? undefined : `Database does not exist. Database name: '${db}'.`);

    const onMessage = (sig: number, fields: any[]) => {
      if (failed && sig !== 0x0f && sig !== 0x02) return send(IGNORED, []);
      switch (sig) {
        case 0x01: // HELLO
          return send(SUCCESS, [{ server: agent, connection_id: `bolt-${id}`, hints: {} }]);
        case 0x6a: {
          // LOGON
          const auth = fields[0] ?? {};
          const u = opts.users[auth.principal];
          if (auth.scheme !== 'basic' || !u || u.password !== auth.credentials) {
            return fail('Neo.ClientError.Security.Unauthorized', 'The client is unauthorized due to authentication failure.');
          }
          user = auth.principal;
          return send(SUCCESS, [{}]);
        }
        case 0x6b: // LOGOFF
          user = undefined;
          return send(SUCCESS, [{}]);
        case 0x0f: // RESET
          failed = false;
          if (tx) for (const s of tx.seen) s.committed = false;
          tx = undefined;
          result = undefined;
          return send(SUCCESS, [{}]);
        case 0x02: // GOODBYE
          return void socket.end();
        case 0x54: // TELEMETRY
          return send(SUCCESS, [{}]);
        case 0x66: {
          // ROUTE: this server is every member
          const db = fields[2]?.db ?? 'neo4j';
          if (!user) return fail('Neo.ClientError.Security.Unauthorized', 'not authenticated');
          const problem = dbProblem(db);
          if (problem) return fail('Neo.ClientError.Database.DatabaseNotFound', problem);
          const addresses = [`127.0.0.1:${port}`];
          return send(SUCCESS, [{ rt: { ttl: 300, db, servers: ['WRITE', 'READ', 'ROUTE'].map((role) => ({ addresses, role })) } }]);
        }
        case 0x11: {
          // BEGIN
          if (!user) return fail('Neo.ClientError.Security.Unauthorized', 'not authenticated');
          const db = fields[0]?.db ?? 'neo4j';
          const problem = dbProblem(db);
          if (problem) return fail('Neo.ClientError.Database.DatabaseNotFound', problem);
          tx = { n: ++txCounter, db, ops: [], seen: [] };
          return send(SUCCESS, [{}]);
        }
        case 0x10: {
          // RUN
          if (!user) return fail('Neo.ClientError.Security.Unauthorized', 'not authenticated');
          const [query, params = {}, extra = {}] = fields as [string, Record<string, any>, Record<string, any>];
          const db = tx?.db ?? extra.db ?? 'neo4j';
          const seen: SeenStatement = { query, params: opts.recordParams === false ? {} : params, db, user, tx: tx?.n };
          statements.push(seen);
          tx?.seen.push(seen);
          const problem = dbProblem(db);
          if (problem) return fail('Neo.ClientError.Database.DatabaseNotFound', problem);
          const fault = faults.find((f) => f.left > 0 && (!f.match || f.match.test(query)));
          if (fault) {
            fault.left--;
            seen.committed = false;
            return fail(fault.code, fault.message);
          }
          if (opts.users[user]?.role === 'reader' && WRITE.test(query)) {
            seen.committed = false;
            const label = /\(\w*:`?(\w+)`?/.exec(query)?.[1] ?? 'node';
            return fail('Neo.ClientError.Security.Forbidden', `Create node with labels '${label}' on database '${db}' is not allowed for user '${user}' with roles [PUBLIC, reader].`);
          }
          const r = interpret(query, params, graph);
          if (!r) {
            seen.committed = false;
            return fail('Neo.ClientError.Statement.SyntaxError', `the stand-in does not know this statement: ${query.slice(0, 200)}`);
          }
          if (tx) {
            tx.ops.push(...r.ops);
            result = { fields: r.fields, records: r.records, db };
          } else result = { fields: r.fields, records: r.records, db, autoCommit: { ops: r.ops, seen } };
          // The delete answers how many parts it removed, from the graph as this transaction sees it.
          if (r.fields[0] === 'deleted') {
            const copy = Object.assign(new Graph(), { nodes: new Map(graph.nodes), edges: new Map(graph.edges) });
            for (const op of tx?.ops.slice(0, -1) ?? []) op(copy);
            result.records = [[copy.deleteDocument(String(params.record_id))]];
          }
          return send(SUCCESS, [{ fields: r.fields, t_first: 0, ...(tx ? { qid: 0 } : {}) }]);
        }
        case 0x3f: // PULL
        case 0x2f: {
          // DISCARD
          const r = result;
          result = undefined;
          if (r && sig === 0x3f) for (const rec of r.records) send(RECORD, [rec]);
          if (r?.autoCommit) {
            for (const op of r.autoCommit.ops) op(graph);
            r.autoCommit.seen.committed = true;
          }
          return send(SUCCESS, [{ has_more: false, t_last: 0, type: 'rw', db: r?.db ?? 'neo4j', ...(r?.autoCommit ? { bookmark: `bm:${statements.length}` } : {}) }]);
        }
        case 0x12: {
          // COMMIT
          if (!tx) return fail('Neo.ClientError.Request.Invalid', 'no open transaction');
          for (const op of tx.ops) op(graph);
          for (const s of tx.seen) s.committed = true;
          tx = undefined;
          return send(SUCCESS, [{ bookmark: `bm:${statements.length}` }]);
        }
        case 0x13: // ROLLBACK
          if (tx) for (const s of tx.seen) s.committed = false;
          tx = undefined;
          return send(SUCCESS, [{}]);
        default:
          return fail('Neo.ClientError.Request.Invalid', `message 0x${sig.toString(16)} is not supported by this stand-in`);
      }
    };

    socket.on('data', (data: Buffer) => {
      let rest = data;
      if (!shaken) {
        head = Buffer.concat([head, data]);
        if (head.length < 20) return;
        shaken = true;
        rest = head.subarray(20);
        if (head.readUInt32BE(0) !== 0x6060b017) return void socket.destroy();
        // Offers are [range, minor, major] from the high bytes down; answer 5.4 when a 5.x range covers it.
        const offers = [4, 8, 12, 16].map((o) => ({ range: head[o + 1]!, minor: head[o + 2]!, major: head[o + 3]! }));
        const ok = offers.some((v) => v.major === 5 && v.minor >= 4 && v.minor - v.range <= 4);
        socket.write(Buffer.from(ok ? [0, 0, 4, 5] : [0, 0, 0, 0]));
        if (!ok) return void socket.end();
      }
      try {
        for (const m of dechunker.push(rest)) onMessage(m.signature, m.fields);
      } catch (err) {
        socket.destroy(err as Error);
      }
    });
  };

  const tls = opts.tls === false ? undefined : standInTls();
  const server: Server = tls ? createTlsServer({ key: tls.key, cert: tls.cert }, serve) : createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  return {
    host: '127.0.0.1',
    port,
    uri: (scheme = tls ? 'bolt+s' : 'bolt') => `${scheme}://127.0.0.1:${port}`,
    caFile: tls?.certFile,
    statements,
    nodes: (label) => [...graph.nodes.values()].filter((n) => !label || n.label === label),
    edges: (type) => [...graph.edges.values()].filter((e) => !type || e.type === type),
    indexes: graph.indexes,
    constraints: graph.constraints,
    fail: (fault) => void faults.push({ ...fault, left: fault.times ?? 1 }),
    connections: () => sockets.size,
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
