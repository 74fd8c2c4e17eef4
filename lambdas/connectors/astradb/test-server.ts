// A local stand-in for the Astra DB Data API (JSON commands over HTTP, `Token` header) as the
// official client uses it: per keyspace findCollections / createCollection, per collection insertMany
// (unordered, per-document responses), deleteMany (20 per call with moreData, as the Data API pages
// deletes), countDocuments. It keeps what it receives, with `$vector` decoded from `{$binary}` (big-endian
// float32) or arrays, so tests read back exactly what the client sent, and refuses what the Data API
// refuses (vector dimension, strings over 8000 bytes, >100 documents, duplicate _id, unknown
// collection or keyspace, read-only tokens). HTTPS only, as the client requires for a token: the
// connector trusts it through CONNECTOR_CA_FILE = caFile (standInTls()). Tests and benches only.
import { randomUUID } from 'node:crypto';
import { standInTls, startStandIn, type Reply, type SeenRequest, type StandInServer } from '../records/stand-in';

export interface StoredDocument {
  _id: string;
  $vector?: number[];
  /** How the vector arrived: binary ({$binary}) or a JSON array. */
  vectorEncoding?: 'binary' | 'array';
  [field: string]: unknown;
}

interface Coll {
  dimension?: number;
  metric?: string;
  docs: Map<string, StoredDocument>;
}

export interface AstraStandIn extends StandInServer {
  /** The PEM file of the stand-in's certificate, for CONNECTOR_CA_FILE. */
  caFile: string;
  token: string;
  readOnlyToken: string;
  createCollection(name: string, dimension?: number, keyspace?: string): void;
  collection(name: string, keyspace?: string): { dimension?: number; metric?: string } | undefined;
  documents(name: string, keyspace?: string): StoredDocument[];
}

const MAX_STRING_BYTES = 8000;
const DELETE_PAGE = 20;

const error = (errorCode: string, message: string) => ({ family: 'REQUEST', scope: 'DOCUMENT', errorCode, id: randomUUID(), title: message, message });
const errors = (errorCode: string, message: string): Reply => ({ status: 200, body: { errors: [error(errorCode, message)] } });

function decodeVector(v: unknown): { values?: number[]; encoding?: 'binary' | 'array'; problem?: string } {
  if (v === undefined || v === null) return {};
  if (Array.isArray(v)) return v.every((x) => typeof x === 'number') ? { values: v, encoding: 'array' } : { problem: '$vector must be an array of numbers' };
  const b64 = (v as { $binary?: unknown }).$binary;
  if (typeof b64 !== 'string') return { problem: 'Unsupported $vector value' };
  const buf = Buffer.from(b64, 'base64');
  if (buf.length % 4) return { problem: 'Binary $vector length is not a multiple of 4' };
  return { values: Array.from({ length: buf.length / 4 }, (_, i) => buf.readFloatBE(i * 4)), encoding: 'binary' };
}

function longString(v: unknown, path = ''): string | undefined {
  if (typeof v === 'string') return Buffer.byteLength(v) > MAX_STRING_BYTES ? path : undefined;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = longString(v[i], `${path}[${i}]`);
      if (p !== undefined) return p;
    }
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === '$vector') continue;
      const p = longString(x, path ? `${path}.${k}` : k);
      if (p !== undefined) return p;
    }
  }
  return undefined;
}

function matches(doc: StoredDocument, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([k, cond]) => {
    const v = doc[k];
    if (cond && typeof cond === 'object' && '$eq' in cond) return v === (cond as { $eq: unknown }).$eq;
    if (cond && typeof cond === 'object' && '$in' in cond) return ((cond as { $in: unknown[] }).$in ?? []).includes(v);
    return v === cond;
  });
}

export async function startAstraStandIn(opts: { token?: string; keyspaces?: string[] } = {}): Promise<AstraStandIn> {
  const token = opts.token ?? 'AstraCS:test-token';
  const readOnlyToken = `${token}:read-only`;
  const keyspaces = new Map<string, Map<string, Coll>>((opts.keyspaces ?? ['default_keyspace']).map((k) => [k, new Map()]));

  function keyspaceCommand(ks: Map<string, Coll>, name: string, cmd: string, body: Record<string, any>, readOnly: boolean): Reply {
    if (cmd === 'findCollections') {
      const explain = body.options?.explain === true;
      const collections = [...ks.entries()].map(([n, c]) => (explain ? { name: n, options: c.dimension ? { vector: { dimension: c.dimension, metric: c.metric } } : {} } : n));
      return { status: 200, body: { status: { collections } } };
    }
    if (cmd === 'createCollection') {
      if (readOnly) return errors('UNAUTHORIZED', 'Role unauthorized for operation: createCollection');
      const n = String(body.name ?? '');
      if (!/^\w{1,48}$/.test(n)) return errors('INVALID_ARGUMENT', `Invalid collection name: '${n}'`);
      const v = body.options?.vector as { dimension?: number; metric?: string } | undefined;
      const existing = ks.get(n);
      if (existing) {
        if (existing.dimension !== v?.dimension) return errors('EXISTING_COLLECTION_DIFFERENT_SETTINGS', `Collection already exists with different settings: '${n}'`);
        return { status: 200, body: { status: { ok: 1 } } };
      }
      ks.set(n, { dimension: v?.dimension, metric: v?.dimension ? (v.metric ?? 'cosine') : undefined, docs: new Map() });
      return { status: 200, body: { status: { ok: 1 } } };
    }
    return errors('UNKNOWN_COMMAND', `No "${cmd}" command found as "KeyspaceCommand" (keyspace ${name})`);
  }

  function collectionCommand(coll: Coll, cmd: string, body: Record<string, any>, readOnly: boolean): Reply {
    if (readOnly && ['insertMany', 'insertOne', 'deleteMany', 'deleteOne'].includes(cmd)) return errors('UNAUTHORIZED', `Role unauthorized for operation: ${cmd}`);
    switch (cmd) {
      case 'insertMany': {
        const docs = (body.documents ?? []) as Record<string, unknown>[];
        if (docs.length > 100) return errors('COMMAND_FIELD_VALUE_TOO_LONG', `Request invalid: field 'documents' size (${docs.length}) exceeds maximum allowed (100)`);
        const ordered = body.options?.ordered === true;
        const documentResponses: Record<string, unknown>[] = [];
        const errs: ReturnType<typeof error>[] = [];
        for (const raw of docs) {
          const _id = typeof raw._id === 'string' ? raw._id : randomUUID();
          const fail = (code: string, message: string) => {
            errs.push(error(code, message));
            documentResponses.push({ _id, status: 'ERROR', errorsIdx: errs.length - 1 });
          };
          const vec = decodeVector(raw.$vector);
          const tooLong = longString(raw);
          if (vec.problem) fail('SHRED_BAD_VECTOR_VALUE', vec.problem);
          else if (vec.values && coll.dimension === undefined) fail('VECTOR_SEARCH_NOT_ENABLED', 'Vector search is not enabled for the collection');
          else if (vec.values && vec.values.length !== coll.dimension) fail('VECTOR_SIZE_MISMATCH', `Length of vector parameter different from declared '$vector' dimension: expected ${coll.dimension}, got ${vec.values.length}`);
          else if (tooLong !== undefined) fail('SHRED_DOC_LIMIT_VIOLATION', `Document size limitation violated: indexed String value length exceeds maximum allowed (${MAX_STRING_BYTES}) at '${tooLong}'`);
          else if (coll.docs.has(_id)) fail('DOCUMENT_ALREADY_EXISTS', `Failed to insert document with _id '${_id}': Document already exists with the given _id`);
          else {
            const stored: StoredDocument = { ...(raw as object), _id } as StoredDocument;
            if (vec.values) {
              stored.$vector = vec.values;
              stored.vectorEncoding = vec.encoding;
            }
            coll.docs.set(_id, stored);
            documentResponses.push({ _id, status: 'OK' });
          }
          if (ordered && errs.length) break;
        }
        return { status: 200, body: { status: { documentResponses }, ...(errs.length ? { errors: errs } : {}) } };
      }
      case 'deleteMany': {
        const filter = (body.filter ?? {}) as Record<string, unknown>;
        const hits = [...coll.docs.values()].filter((d) => matches(d, filter));
        const page = hits.slice(0, DELETE_PAGE);
        for (const d of page) coll.docs.delete(d._id);
        return { status: 200, body: { status: { deletedCount: page.length, ...(hits.length > DELETE_PAGE ? { moreData: true } : {}) } } };
      }
      case 'countDocuments': {
        const filter = (body.filter ?? {}) as Record<string, unknown>;
        return { status: 200, body: { status: { count: [...coll.docs.values()].filter((d) => matches(d, filter)).length } } };
      }
      default:
        return errors('UNKNOWN_COMMAND', `No "${cmd}" command found as "CollectionCommand"`);
    }
  }

  const tls = standInTls();
  const server = await startStandIn((req: SeenRequest): Reply => {
    const t = req.headers.token;
    if (t !== token && t !== readOnlyToken) {
      return { status: 401, body: { errors: [error('UNAUTHENTICATED_REQUEST', 'Role unauthorized for operation: Missing or invalid token, expecting one in the Token header.')] } };
    }
    const m = /^\/api\/json\/v1\/([^/]+)(?:\/([^/]+))?\/?$/.exec(req.path);
    if (req.method !== 'POST' || !m) return { status: 404, body: { errors: [error('NOT_FOUND', `No route ${req.method} ${req.path}`)] } };
    const body = (req.body ?? {}) as Record<string, Record<string, any>>;
    const [cmd] = Object.keys(body);
    if (!cmd) return errors('COMMAND_UNKNOWN', 'Request invalid: no command');
    const ksName = decodeURIComponent(m[1]!);
    const ks = keyspaces.get(ksName);
    if (!ks) return errors('KEYSPACE_DOES_NOT_EXIST', `Unknown keyspace '${ksName}', you must create it first`);
    const readOnly = t === readOnlyToken;
    if (!m[2]) return keyspaceCommand(ks, ksName, cmd, body[cmd] ?? {}, readOnly);
    const collName = decodeURIComponent(m[2]);
    const coll = ks.get(collName);
    if (!coll) return errors('COLLECTION_NOT_EXIST', `Collection does not exist, collection name: ${collName}`);
    return collectionCommand(coll, cmd, body[cmd] ?? {}, readOnly);
  }, { tls });

  const ksOf = (keyspace = 'default_keyspace') => {
    let ks = keyspaces.get(keyspace);
    if (!ks) keyspaces.set(keyspace, (ks = new Map()));
    return ks;
  };
  return {
    ...server,
    caFile: tls.certFile,
    token,
    readOnlyToken,
    createCollection(name, dimension, keyspace) {
      ksOf(keyspace).set(name, { dimension, metric: dimension ? 'cosine' : undefined, docs: new Map() });
    },
    collection: (name, keyspace) => {
      const c = ksOf(keyspace).get(name);
      return c && { dimension: c.dimension, metric: c.metric };
    },
    documents: (name, keyspace) => [...(ksOf(keyspace).get(name)?.docs.values() ?? [])],
  };
}
