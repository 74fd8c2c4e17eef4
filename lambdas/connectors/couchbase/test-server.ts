// A local stand-in for Couchbase Server's Query service REST API (POST /query/service, JSON body,
// basic auth), for tests and benchmarks; never imported by a handler. It answers in the service's
// shape ({requestID, signature, results, status, errors[{code,msg}], metrics}) and keeps documents per
// keyspace in memory with a CAS per mutation. It executes exactly the statement shapes the connector
// sends (matched by whole-statement patterns); any other statement is a 3000 syntax error, so a
// changed statement fails the tests instead of passing unexecuted. Users may be read-only (DML and
// CREATE INDEX refused with 13014), documents above maxDocumentBytes are refused (12009), a server
// without sequential scans (before 7.6) needs an index for scanning statements (4000), and
// fail() injects 429/503 answers before handling (records/stand-in.ts). HTTPS by default
// (couchbases://: the client sends the password over TLS only) with the stand-ins' certificate
// (standInTls, trusted through CONNECTOR_CA_FILE); `tls: false` serves clear text (couchbase://).
import { randomUUID } from 'node:crypto';
import { standInTls, startStandIn, type Fault, type Reply, type SeenRequest } from '../records/stand-in';

export interface CouchbaseStandInOptions {
  users?: Record<string, { password: string; readOnly?: boolean }>;
  /** Largest document value accepted (Couchbase: 20 MiB). */
  maxDocumentBytes?: number;
  /**
   * false: a server before 7.6 (no sequential scans), where a statement that must scan the keyspace
   * needs an index (the primary index, or one on record_id for the delete), else error 4000.
   */
  sequentialScans?: boolean;
  /** The certificate served (default: standInTls()); false: clear text (couchbase://), for configs without a password. */
  tls?: { key: string; cert: string } | false;
}

interface StoredDoc {
  value: Record<string, unknown>;
  cas: bigint;
}

export interface CouchbaseStandIn {
  url: string;
  port: number;
  /** couchbases://127.0.0.1:<port> (couchbase:// with `tls: false`; a non-KV port is taken as the Query service's by the client). */
  connectionString: string;
  requests: SeenRequest[];
  /** Statements received, in order, with their parameters. */
  statements(): { statement: string; body: Record<string, unknown> }[];
  fail(fault: Fault): void;
  createKeyspace(bucket: string, scope?: string, collection?: string): void;
  /** CREATE PRIMARY INDEX on the keyspace. */
  createPrimaryIndex(bucket: string, scope?: string, collection?: string): void;
  /** The documents of a keyspace by key (read-back). */
  documents(bucket: string, scope?: string, collection?: string): Map<string, Record<string, unknown>>;
  /** Stores (or replaces) a document with a new CAS, as a KV write would. */
  put(bucket: string, id: string, value: Record<string, unknown>, scope?: string, collection?: string): void;
  casOf(bucket: string, id: string, scope?: string, collection?: string): string | undefined;
  /** Index definitions created on a keyspace: name → key. */
  indexes(bucket: string, scope?: string, collection?: string): Record<string, string>;
  stop(): Promise<void>;
}

const KS = '`([^`]+)`\\.`([^`]+)`\\.`([^`]+)`';
const SHAPES = {
  delete: new RegExp(`^DELETE FROM ${KS} WHERE record_id = \\$record_id$`),
  upsert: new RegExp(`^UPSERT INTO ${KS} \\(KEY, VALUE\\) VALUES (\\(\\$\\d+, \\$\\d+\\)(?:, \\(\\$\\d+, \\$\\d+\\))*)$`),
  createIndex: new RegExp(`^CREATE INDEX IF NOT EXISTS \`([^\`]+)\` ON ${KS}\\(\`([^\`]+)\`\\)$`),
  list: new RegExp(
    `^SELECT META\\(d\\)\\.id AS id, TOSTRING\\(META\\(d\\)\\.cas\\) AS cas, ENCODED_SIZE\\(d\\) AS size, d\\.\`([^\`]+)\` AS record_id FROM ${KS} AS d WHERE META\\(d\\)\\.id > \\$after ORDER BY META\\(d\\)\\.id LIMIT \\$limit$`,
  ),
  read: new RegExp(`^SELECT d AS doc, TOSTRING\\(META\\(d\\)\\.cas\\) AS cas FROM ${KS} AS d USE KEYS \\$id$`),
};

class QueryFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    msg: string,
  ) {
    super(msg);
  }
}

export async function startCouchbaseStandIn(opts: CouchbaseStandInOptions = {}): Promise<CouchbaseStandIn> {
  const users = opts.users ?? { app: { password: 'couchbase-secret' } };
  const maxBytes = opts.maxDocumentBytes ?? 20 * 1024 * 1024;
  const keyspaces = new Map<string, { docs: Map<string, StoredDoc>; indexes: Record<string, string>; primary: boolean }>();
  const scans = opts.sequentialScans ?? true;
  let clock = BigInt(Date.now()) * 1_000_000n;
  const nextCas = () => (clock += 1n);
  const ksKey = (b: string, s = '_default', c = '_default') => `${b}.${s}.${c}`;

  function keyspaceOf(b: string, s: string, c: string) {
    const ks = keyspaces.get(ksKey(b, s, c));
    if (ks) return ks;
    const bucketKnown = [...keyspaces.keys()].some((k) => k.startsWith(`${b}.`));
    throw new QueryFailure(500, 12003, `Keyspace not found in CB datastore: default:${b}.${s}.${c}${bucketKnown ? '' : ` - cause: No bucket named ${b}`}`);
  }

  /** Error 4000 of a server without sequential scans when no index can serve the statement. */
  function needsIndex(ks: { indexes: Record<string, string>; primary: boolean }, b: string, s: string, c: string, key?: string) {
    if (scans || ks.primary || (key && Object.values(ks.indexes).includes(key))) return;
    const name = `\`default\`:\`${b}\`.\`${s}\`.\`${c}\``;
    throw new QueryFailure(404, 4000, `No index available on keyspace ${name} that matches your query. Use CREATE PRIMARY INDEX ON ${name} to create a primary index, or check that your expected index is online.`);
  }

  function mayWrite(user: { readOnly?: boolean }, verb: string, role: string, b: string, s: string, c: string) {
    if (!user.readOnly) return;
    const name = `default:\`${b}\`.\`${s}\`.\`${c}\``;
    throw new QueryFailure(401, 13014, `User does not have credentials to run ${verb} queries on ${name}. Add role ${role} on ${name} to allow the statement to run.`);
  }

  function execute(statement: string, body: Record<string, unknown>, user: { readOnly?: boolean }): { results: unknown[]; mutationCount?: number } {
    let m: RegExpExecArray | null;
    if ((m = SHAPES.delete.exec(statement))) {
      const ks = keyspaceOf(m[1]!, m[2]!, m[3]!);
      mayWrite(user, 'DELETE', 'query_delete', m[1]!, m[2]!, m[3]!);
      needsIndex(ks, m[1]!, m[2]!, m[3]!, 'record_id');
      const rid = body.$record_id;
      if (typeof rid !== 'string') throw new QueryFailure(500, 5010, 'Error evaluating filter - cause: No value for named parameter $record_id.');
      let n = 0;
      for (const [k, d] of ks.docs) {
        if (d.value.record_id === rid) {
          ks.docs.delete(k);
          n++;
        }
      }
      return { results: [], mutationCount: n };
    }
    if ((m = SHAPES.upsert.exec(statement))) {
      const ks = keyspaceOf(m[1]!, m[2]!, m[3]!);
      mayWrite(user, 'UPSERT', 'query_insert and query_update', m[1]!, m[2]!, m[3]!);
      const placeholders = [...m[4]!.matchAll(/\$(\d+)/g)].map((x) => Number(x[1]));
      if (!placeholders.every((p, i) => p === i + 1)) throw new QueryFailure(400, 3000, 'syntax error - positional parameters out of order');
      const args = body.args;
      if (!Array.isArray(args) || args.length !== placeholders.length) {
        throw new QueryFailure(500, 5010, `Error evaluating VALUES - cause: No value for positional parameter $${Array.isArray(args) ? args.length + 1 : 1}.`);
      }
      const pairs: [string, Record<string, unknown>][] = [];
      for (let i = 0; i < args.length; i += 2) {
        const [key, value] = [args[i], args[i + 1]];
        if (typeof key !== 'string' || !key) throw new QueryFailure(500, 5070, `Cannot UPSERT non-string key ${JSON.stringify(key)} of type ${typeof key}.`);
        if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new QueryFailure(500, 5070, `Cannot UPSERT non-object value for key ${key}.`);
        if (Buffer.byteLength(JSON.stringify(value)) > maxBytes) {
          throw new QueryFailure(500, 12009, `DML Error, possible causes include concurrent modification. Failed to perform UPSERT on key ${key} - cause: Value Too Large`);
        }
        pairs.push([key, value as Record<string, unknown>]);
      }
      for (const [key, value] of pairs) ks.docs.set(key, { value: structuredClone(value), cas: nextCas() });
      return { results: [], mutationCount: pairs.length };
    }
    if ((m = SHAPES.createIndex.exec(statement))) {
      const ks = keyspaceOf(m[2]!, m[3]!, m[4]!);
      mayWrite(user, 'CREATE INDEX', 'query_manage_index', m[2]!, m[3]!, m[4]!);
      ks.indexes[m[1]!] ??= m[5]!;
      return { results: [] };
    }
    if ((m = SHAPES.list.exec(statement))) {
      const field = m[1]!;
      const ks = keyspaceOf(m[2]!, m[3]!, m[4]!);
      needsIndex(ks, m[2]!, m[3]!, m[4]!);
      const after = body.$after;
      const limit = body.$limit;
      if (typeof after !== 'string') throw new QueryFailure(500, 5010, 'Error evaluating filter - cause: No value for named parameter $after.');
      if (!(Number.isInteger(limit) && (limit as number) >= 0)) throw new QueryFailure(500, 5030, `Invalid LIMIT value ${JSON.stringify(limit)}`);
      const ids = [...ks.docs.keys()].filter((k) => k > after).sort().slice(0, limit as number);
      return {
        results: ids.map((id) => {
          const d = ks.docs.get(id)!;
          const row: Record<string, unknown> = { id, cas: String(d.cas), size: Buffer.byteLength(JSON.stringify(d.value)) };
          if (d.value[field] !== undefined) row.record_id = d.value[field]; // MISSING fields are left out of a row
          return row;
        }),
      };
    }
    if ((m = SHAPES.read.exec(statement))) {
      const ks = keyspaceOf(m[1]!, m[2]!, m[3]!);
      const id = body.$id;
      if (typeof id !== 'string') throw new QueryFailure(500, 5010, 'No value for named parameter $id.');
      const d = ks.docs.get(id);
      return { results: d ? [{ doc: structuredClone(d.value), cas: String(d.cas) }] : [] };
    }
    throw new QueryFailure(400, 3000, `syntax error - the stand-in does not execute this statement: ${statement.slice(0, 200)}`);
  }

  const answer = (status: number, payload: Record<string, unknown>): Reply => ({
    status,
    body: { requestID: randomUUID(), ...payload, metrics: { elapsedTime: '1ms', executionTime: '1ms', ...(payload.metrics as object) } },
  });

  const tls = opts.tls === false ? undefined : (opts.tls ?? standInTls());
  const server = await startStandIn((req) => {
    if (req.path !== '/query/service') return { status: 404, body: '404 page not found\n' };
    if (req.method !== 'POST') return answer(405, { errors: [{ code: 1010, msg: `Unsupported http method: ${req.method}` }], status: 'fatal' });
    const auth = /^Basic (.+)$/.exec(String(req.headers.authorization ?? ''));
    const [name, ...rest] = auth ? Buffer.from(auth[1]!, 'base64').toString('utf8').split(':') : [];
    const user = name !== undefined ? users[name] : undefined;
    if (!user || user.password !== rest.join(':')) {
      return answer(401, { errors: [{ code: 10000, msg: 'Authentication Failure' }], status: 'fatal', metrics: { resultCount: 0, resultSize: 0, errorCount: 1 } });
    }
    const body = req.body as Record<string, unknown> | undefined;
    if (!body || typeof body.statement !== 'string') {
      return answer(400, { errors: [{ code: 1050, msg: 'No statement or prepared value' }], status: 'fatal' });
    }
    try {
      const r = execute(body.statement, body, user);
      const size = Buffer.byteLength(JSON.stringify(r.results));
      return answer(200, {
        signature: { '*': '*' },
        results: r.results,
        status: 'success',
        metrics: { resultCount: r.results.length, resultSize: size, ...(r.mutationCount ? { mutationCount: r.mutationCount } : {}) },
      });
    } catch (err) {
      if (!(err instanceof QueryFailure)) throw err;
      return answer(err.status, { errors: [{ code: err.code, msg: err.message }], status: 'fatal', metrics: { resultCount: 0, resultSize: 0, errorCount: 1 } });
    }
  }, { tls });

  const ks = (b: string, s?: string, c?: string) => {
    const k = keyspaces.get(ksKey(b, s, c));
    if (!k) throw new Error(`no keyspace ${ksKey(b, s, c)}`);
    return k;
  };
  return {
    url: server.url,
    port: server.port,
    connectionString: `${tls ? 'couchbases' : 'couchbase'}://127.0.0.1:${server.port}`,
    requests: server.requests,
    statements: () =>
      server.requests
        .filter((r) => r.path === '/query/service' && typeof (r.body as { statement?: unknown })?.statement === 'string')
        .map((r) => ({ statement: (r.body as { statement: string }).statement, body: r.body as Record<string, unknown> })),
    fail: (fault) => server.fail(fault),
    createKeyspace(b, s, c) {
      if (!keyspaces.has(ksKey(b, s, c))) keyspaces.set(ksKey(b, s, c), { docs: new Map(), indexes: {}, primary: false });
    },
    createPrimaryIndex(b, s, c) {
      ks(b, s, c).primary = true;
    },
    documents: (b, s, c) => new Map([...ks(b, s, c).docs].map(([k, d]) => [k, d.value])),
    put(b, id, value, s, c) {
      ks(b, s, c).docs.set(id, { value: structuredClone(value), cas: nextCas() });
    },
    casOf: (b, id, s, c) => {
      const d = ks(b, s, c).docs.get(id);
      return d ? String(d.cas) : undefined;
    },
    indexes: (b, s, c) => ({ ...ks(b, s, c).indexes }),
    async stop() {
      await server.stop();
    },
  };
}
