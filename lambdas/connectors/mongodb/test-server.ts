// A local stand-in for a MongoDB server, for tests and benchmarks: a TCP server on 127.0.0.1 that
// speaks the wire protocol the official driver uses (test-wire.ts) and keeps what it receives in
// memory, so a test reads back exactly the documents the driver sent (ids, vectors, metadata) and
// the commands it sent them with (delete by record_id before insert, batch sizes).
// Standalone-server semantics: hello/isMaster (OP_MSG and legacy OP_QUERY), ping, buildInfo,
// SCRAM-SHA-256 authentication (saslStart/saslContinue and speculative authentication; users are
// known under any authSource), `read` / `readWrite` roles (Unauthorized, code 13), listDatabases,
// listCollections, create (with a `$jsonSchema` validator supporting `required`), drop, insert
// (unique _id: E11000; validation: code 121), delete, find/getMore/killCursors, count, aggregate
// ($match, $skip, $limit, $count, $group {_id, n: {$sum: 1}}), createIndexes, listIndexes,
// endSessions. Filters: equality on dotted paths (arrays match any element), $eq, $ne, $in,
// $exists, $gt, $and; find sorts on one field. Faults: the next matching command(s) answer an error document (throttling, ...).
// No compression, no TLS, no transactions. Not imported by any handler.
import { randomInt } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { Long, ObjectId, type Document } from 'bson';
import { encodeReply, parseRequest, readMessages, scramCredential, scramFinish, scramStart, type ScramConversation, type ScramCredential, type WireRequest } from './test-wire';

export interface MongoUser {
  password: string;
  /** `readWrite` (default) or `read`. */
  role?: 'read' | 'readWrite';
}

export interface SeenCommand {
  db: string;
  name: string;
  body: Document;
}

export interface MongoFault {
  /** Command name the fault hits (e.g. 'insert'); any command when absent. */
  command?: string;
  code: number;
  codeName?: string;
  errmsg: string;
  errorLabels?: string[];
  /** How many times (default 1). */
  times?: number;
}

interface Collection {
  docs: Document[];
  /** idKey of every stored _id (the unique _id index). */
  ids: Set<string>;
  indexes: Document[];
  required?: string[];
}

export interface MongoStandIn {
  host: string;
  port: number;
  /** mongodb://user:password@127.0.0.1:port/?authSource=admin (no credentials when user is absent). */
  uri(user?: string, password?: string): string;
  commands: SeenCommand[];
  createCollection(db: string, name: string, opts?: { required?: string[] }): void;
  hasCollection(db: string, name: string): boolean;
  documents(db: string, name: string): Document[];
  indexes(db: string, name: string): Document[];
  fail(fault: MongoFault): void;
  stop(): Promise<void>;
}

const WRITE_COMMANDS = new Set(['insert', 'delete', 'update', 'create', 'drop', 'createIndexes', 'dropDatabase']);
const NO_AUTH_COMMANDS = new Set(['hello', 'ismaster', 'ismaster', 'isMaster', 'saslStart', 'saslContinue', 'ping', 'buildInfo', 'buildinfo', 'endSessions']);

const err = (code: number, codeName: string, errmsg: string): Document => ({ ok: 0, errmsg, code, codeName });

function get(doc: Document, path: string): unknown {
  let cur: unknown = doc;
  for (const p of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Document)[p];
  }
  return cur;
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof ObjectId || b instanceof ObjectId) return a instanceof ObjectId && b instanceof ObjectId && a.equals(b);
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

const idKey = (id: unknown) => (id instanceof ObjectId ? `oid:${id.toHexString()}` : `v:${JSON.stringify(id)}`);

const eqOrContains = (v: unknown, q: unknown) => same(v, q) || (Array.isArray(v) && !Array.isArray(q) && v.some((x) => same(x, q)));

/** Order of two values of the same BSON type (ObjectIds by their bytes, as the server orders them). */
export function compareValues(a: unknown, b: unknown): number {
  const norm = (x: unknown) => (x instanceof ObjectId ? x.toHexString() : x instanceof Date ? x.getTime() : x);
  const x = norm(a) as string | number;
  const y = norm(b) as string | number;
  return x < y ? -1 : x > y ? 1 : 0;
}

export function matches(doc: Document, filter: Document = {}): boolean {
  return Object.entries(filter).every(([k, q]) => {
    if (k === '$and') return (q as Document[]).every((f) => matches(doc, f));
    const v = get(doc, k);
    const ops = q !== null && typeof q === 'object' && !(q instanceof ObjectId) && !Array.isArray(q) && Object.keys(q).some((o) => o.startsWith('$')) ? (q as Document) : undefined;
    if (!ops) return eqOrContains(v, q);
    return Object.entries(ops).every(([op, arg]) => {
      if (op === '$eq') return eqOrContains(v, arg);
      if (op === '$ne') return !eqOrContains(v, arg);
      if (op === '$in') return (arg as unknown[]).some((x) => eqOrContains(v, x));
      if (op === '$exists') return (v !== undefined) === Boolean(arg);
      if (op === '$gt') return v !== undefined && compareValues(v, arg) > 0;
      throw new Error(`unknown operator: ${op}`);
    });
  });
}

/** `recordCommands: false` keeps no command log (benchmarks: the log would hold every document twice). */
export async function startMongoStandIn(opts: { users?: Record<string, MongoUser>; recordCommands?: boolean } = {}): Promise<MongoStandIn> {
  const users = new Map(Object.entries(opts.users ?? {}).map(([name, u]) => [name, { ...u, cred: scramCredential(u.password) }]));
  const authRequired = users.size > 0;
  const dbs = new Map<string, Map<string, Collection>>();
  const commands: SeenCommand[] = [];
  const faults: (MongoFault & { left: number })[] = [];
  const cursors = new Map<bigint, { docs: Document[]; ns: string }>();
  const sockets = new Set<Socket>();
  let connectionIds = 0;

  const collection = (db: string, name: string, create: boolean): Collection | undefined => {
    let d = dbs.get(db);
    if (!d && create) dbs.set(db, (d = new Map()));
    let c = d?.get(name);
    if (!c && create && d) d.set(name, (c = { docs: [], ids: new Set(), indexes: [{ v: 2, key: { _id: 1 }, name: '_id_' }] }));
    return c;
  };

  const cursorReply = (ns: string, docs: Document[], batchSize: number, first: boolean): Document => {
    const batch = docs.slice(0, batchSize);
    let id = 0n;
    if (docs.length > batchSize) {
      id = BigInt(randomInt(1, 2 ** 47));
      cursors.set(id, { docs: docs.slice(batchSize), ns });
    }
    return { cursor: { id: Long.fromBigInt(id), ns, [first ? 'firstBatch' : 'nextBatch']: batch }, ok: 1 };
  };

  const helloReply = (req: WireRequest, conn: Conn): Document => {
    const c = req.command;
    const legacy = !('hello' in c);
    const reply: Document = {
      helloOk: true,
      [legacy ? 'ismaster' : 'isWritablePrimary']: true,
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000,
      localTime: new Date(),
      logicalSessionTimeoutMinutes: 30,
      connectionId: conn.id,
      minWireVersion: 0,
      maxWireVersion: 21,
      readOnly: false,
      ok: 1,
    };
    const mechsFor = typeof c.saslSupportedMechs === 'string' ? c.saslSupportedMechs.split('.').slice(1).join('.') : undefined;
    if (mechsFor && users.has(mechsFor)) reply.saslSupportedMechs = ['SCRAM-SHA-256'];
    const spec = c.speculativeAuthenticate as Document | undefined;
    if (spec?.saslStart && spec.mechanism === 'SCRAM-SHA-256') {
      const started = scramStart(spec.payload, (u) => users.get(u)?.cred);
      if (started) {
        conn.sasl = started.conversation;
        reply.speculativeAuthenticate = { conversationId: 1, done: false, payload: started.reply };
      }
    }
    return reply;
  };

  interface Conn {
    id: number;
    user?: string;
    sasl?: ScramConversation;
  }

  const handle = (req: WireRequest, conn: Conn): Document => {
    const c = req.command;
    const name = Object.keys(c)[0]!;
    const db = req.db;
    const target = typeof c[name] === 'string' ? (c[name] as string) : '';
    if (opts.recordCommands !== false) commands.push({ db, name, body: c });
    const fault = faults.find((f) => f.left > 0 && (!f.command || f.command === name));
    if (fault) {
      fault.left--;
      return { ...err(fault.code, fault.codeName ?? 'Error', fault.errmsg), ...(fault.errorLabels ? { errorLabels: fault.errorLabels } : {}) };
    }
    if (authRequired && !conn.user && !NO_AUTH_COMMANDS.has(name)) return err(13, 'Unauthorized', `Command ${name} requires authentication`);
    if (conn.user && WRITE_COMMANDS.has(name) && users.get(conn.user)!.role === 'read') {
      return err(13, 'Unauthorized', `not authorized on ${db} to execute command { ${name}: "${target}", $db: "${db}" }`);
    }
    switch (name) {
      case 'hello':
      case 'isMaster':
      case 'ismaster':
        return helloReply(req, conn);
      case 'ping':
      case 'endSessions':
      case 'killSessions':
        return { ok: 1 };
      case 'buildInfo':
      case 'buildinfo':
        return { version: '7.0.0-stand-in', versionArray: [7, 0, 0, 0], maxBsonObjectSize: 16 * 1024 * 1024, ok: 1 };
      case 'saslStart': {
        const started = c.mechanism === 'SCRAM-SHA-256' ? scramStart(c.payload, (u) => users.get(u)?.cred) : undefined;
        if (!started) return err(18, 'AuthenticationFailed', 'Authentication failed.');
        conn.sasl = started.conversation;
        return { conversationId: 1, done: false, payload: started.reply, ok: 1 };
      }
      case 'saslContinue': {
        const conv = conn.sasl;
        const cred: ScramCredential | undefined = conv ? users.get(conv.user)?.cred : undefined;
        const signature = conv && cred ? scramFinish(conv, c.payload, cred) : undefined;
        conn.sasl = undefined;
        if (!signature) return err(18, 'AuthenticationFailed', 'Authentication failed.');
        conn.user = conv!.user;
        return { conversationId: 1, done: true, payload: signature, ok: 1 };
      }
      case 'listDatabases': {
        const databases = [...dbs.entries()].filter(([, cs]) => cs.size).map(([n]) => ({ name: n, sizeOnDisk: 8192, empty: false }));
        return { databases, totalSize: 8192 * databases.length, ok: 1 };
      }
      case 'listCollections': {
        const names = [...(dbs.get(db)?.keys() ?? [])].map((n) => ({ name: n, type: 'collection', options: {}, info: { readOnly: false }, idIndex: { v: 2, key: { _id: 1 }, name: '_id_' } }));
        return cursorReply(`${db}.$cmd.listCollections`, names.filter((n) => matches(n, c.filter as Document)), Number((c.cursor as Document)?.batchSize ?? 101), true);
      }
      case 'create': {
        if (collection(db, target, false)) return err(48, 'NamespaceExists', `Collection ${db}.${target} already exists.`);
        const coll = collection(db, target, true)!;
        const required = ((c.validator as Document)?.$jsonSchema as Document)?.required;
        if (Array.isArray(required)) coll.required = required as string[];
        return { ok: 1 };
      }
      case 'drop': {
        const existed = dbs.get(db)?.delete(target);
        return existed ? { nIndexesWas: 1, ns: `${db}.${target}`, ok: 1 } : err(26, 'NamespaceNotFound', 'ns not found');
      }
      case 'insert': {
        const coll = collection(db, target, true)!;
        const docs = (c.documents as Document[]) ?? [];
        const writeErrors: Document[] = [];
        let n = 0;
        for (const [index, doc] of docs.entries()) {
          doc._id ??= new ObjectId();
          const missing = coll.required?.filter((f) => get(doc, f) === undefined);
          if (missing?.length) {
            writeErrors.push({ index, code: 121, errmsg: 'Document failed validation', errInfo: { failingDocumentId: doc._id, details: { operatorName: '$jsonSchema', schemaRulesNotSatisfied: [{ operatorName: 'required', specifiedAs: { required: coll.required }, missingProperties: missing }] } } });
          } else if (coll.ids.has(idKey(doc._id))) {
            writeErrors.push({ index, code: 11000, errmsg: `E11000 duplicate key error collection: ${db}.${target} index: _id_ dup key: { _id: ${JSON.stringify(String(doc._id))} }` });
          } else {
            coll.docs.push(doc);
            coll.ids.add(idKey(doc._id));
            n++;
            continue;
          }
          if (c.ordered !== false) break;
        }
        return { n, ...(writeErrors.length ? { writeErrors } : {}), ok: 1 };
      }
      case 'delete': {
        const coll = collection(db, target, false);
        let n = 0;
        for (const d of (c.deletes as Document[]) ?? []) {
          if (!coll) continue;
          const hit = coll.docs.filter((doc) => matches(doc, d.q as Document));
          const gone = new Set(d.limit === 1 ? hit.slice(0, 1) : hit);
          coll.docs = coll.docs.filter((doc) => !gone.has(doc));
          for (const doc of gone) coll.ids.delete(idKey(doc._id));
          n += gone.size;
        }
        return { n, ok: 1 };
      }
      case 'find': {
        const coll = collection(db, target, false);
        let docs = (coll?.docs ?? []).filter((d) => matches(d, c.filter as Document));
        const sort = Object.entries((c.sort ?? {}) as Document)[0];
        if (sort) docs = [...docs].sort((a, b) => compareValues(get(a, sort[0]), get(b, sort[0])) * (Number(sort[1]) < 0 ? -1 : 1));
        if (typeof c.skip === 'number') docs = docs.slice(c.skip);
        if (typeof c.limit === 'number' && c.limit > 0) docs = docs.slice(0, c.limit);
        return cursorReply(`${db}.${target}`, docs, Number(c.batchSize ?? 101), true);
      }
      case 'getMore': {
        const id = BigInt(String(c.getMore));
        const cur = cursors.get(id);
        if (!cur) return err(43, 'CursorNotFound', `cursor id ${id} not found`);
        cursors.delete(id);
        return cursorReply(cur.ns, cur.docs, Number(c.batchSize ?? cur.docs.length), false);
      }
      case 'killCursors': {
        const ids = (c.cursors as unknown[]).map((x) => BigInt(String(x)));
        for (const id of ids) cursors.delete(id);
        return { cursorsKilled: ids.map((id) => Long.fromBigInt(id)), cursorsNotFound: [], cursorsAlive: [], cursorsUnknown: [], ok: 1 };
      }
      case 'count': {
        const coll = collection(db, target, false);
        return { n: (coll?.docs ?? []).filter((d) => matches(d, c.query as Document)).length, ok: 1 };
      }
      case 'aggregate': {
        let docs = collection(db, target, false)?.docs ?? [];
        for (const stage of c.pipeline as Document[]) {
          const [op, arg] = Object.entries(stage)[0]!;
          if (op === '$match') docs = docs.filter((d) => matches(d, arg as Document));
          else if (op === '$skip') docs = docs.slice(Number(arg));
          else if (op === '$limit') docs = docs.slice(0, Number(arg));
          else if (op === '$count') docs = [{ [String(arg)]: docs.length }];
          else if (op === '$group') docs = docs.length ? [{ _id: (arg as Document)._id, n: docs.length }] : [];
          else return err(40324, 'Location40324', `Unrecognized pipeline stage name: '${op}'`);
        }
        return cursorReply(`${db}.${target}`, docs, Number((c.cursor as Document)?.batchSize ?? 101), true);
      }
      case 'createIndexes': {
        const created = !collection(db, target, false);
        const coll = collection(db, target, true)!;
        const before = coll.indexes.length;
        for (const spec of c.indexes as Document[]) if (!coll.indexes.some((i) => i.name === spec.name)) coll.indexes.push({ v: 2, ...spec });
        return { createdCollectionAutomatically: created, numIndexesBefore: before, numIndexesAfter: coll.indexes.length, ok: 1 };
      }
      case 'listIndexes': {
        const coll = collection(db, target, false);
        if (!coll) return err(26, 'NamespaceNotFound', `ns does not exist: ${db}.${target}`);
        return cursorReply(`${db}.${target}`, coll.indexes, 101, true);
      }
      default:
        return err(59, 'CommandNotFound', `no such command: '${name}'`);
    }
  };

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const conn: Conn = { id: ++connectionIds };
    // Chunks are joined only once a whole message is there (large inserts arrive in many chunks).
    let chunks: Buffer[] = [];
    let buffered = 0;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      buffered += chunk.length;
      if (buffered < 4) return;
      if (chunks[0]!.length < 4) chunks = [Buffer.concat(chunks)];
      if (buffered < chunks[0]!.readInt32LE(0)) return;
      try {
        const { messages, rest } = readMessages(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
        chunks = rest.length ? [rest] : [];
        buffered = rest.length;
        for (const m of messages) {
          const req = parseRequest(m);
          let reply: Document;
          try {
            reply = handle(req, conn);
          } catch (e) {
            reply = err(2, 'BadValue', (e as Error).message);
          }
          if (!req.moreToCome) socket.write(encodeReply(req, reply));
        }
      } catch {
        socket.destroy();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const host = '127.0.0.1';
  return {
    host,
    port,
    uri: (user, password) => (user ? `mongodb://${encodeURIComponent(user)}:${encodeURIComponent(password ?? '')}@${host}:${port}/?authSource=admin` : `mongodb://${host}:${port}/`),
    commands,
    createCollection: (db, name, o = {}) => {
      const coll = collection(db, name, true)!;
      if (o.required) coll.required = o.required;
    },
    hasCollection: (db, name) => Boolean(collection(db, name, false)),
    documents: (db, name) => collection(db, name, false)?.docs ?? [],
    indexes: (db, name) => collection(db, name, false)?.indexes ?? [],
    fail: (fault) => void faults.push({ ...fault, left: fault.times ?? 1 }),
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
