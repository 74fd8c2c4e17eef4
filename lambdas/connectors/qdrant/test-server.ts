// A local stand-in for Qdrant that speaks the REST API the official client uses (`api-key` header):
// collections (list, exists, info, create, payload index) and points (upsert, delete by filter or ids,
// count, scroll). It keeps what it receives, so tests read back exactly the points the client sent,
// and refuses what Qdrant refuses (vector size, point id format, existing collection, read-only keys).
// HTTPS only, as the client requires with an API key: trusted through CONNECTOR_CA_FILE = caFile
// (standInTls()). Tests and benches only.
import { standInTls, startStandIn, type Reply, type SeenRequest, type StandInServer } from '../records/stand-in';

export interface StoredPoint {
  id: string | number;
  vector: number[];
  payload: Record<string, unknown>;
}

interface Collection {
  size: number;
  distance: string;
  points: Map<string, StoredPoint>;
  payloadIndexes: Record<string, string>;
}

export interface QdrantStandIn extends StandInServer {
  /** The PEM file of the stand-in's certificate, for CONNECTOR_CA_FILE (HTTPS: the key goes over TLS only). */
  caFile: string;
  apiKey: string;
  /** A key that may read but not write (403 on writes). */
  readOnlyKey: string;
  createCollection(name: string, size: number, distance?: string): void;
  hasCollection(name: string): boolean;
  collection(name: string): { size: number; distance: string; payloadIndexes: Record<string, string> } | undefined;
  points(name: string): StoredPoint[];
}

const ok = (result: unknown, status = 200): Reply => ({ status, body: { result, status: 'ok', time: 0.0001 } });
const fail = (status: number, error: string): Reply => ({ status, body: { status: { error }, time: 0.0001 } });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Condition {
  key?: string;
  match?: { value?: unknown; any?: unknown[] };
}

function matches(p: StoredPoint, filter: { must?: Condition[]; should?: Condition[] } | undefined): boolean {
  if (!filter) return true;
  const one = (c: Condition) => {
    const v = c.key ? p.payload[c.key] : undefined;
    if (c.match && 'value' in c.match) return v === c.match.value;
    if (c.match?.any) return c.match.any.includes(v);
    return false;
  };
  if (filter.must && !filter.must.every(one)) return false;
  if (filter.should && filter.should.length && !filter.should.some(one)) return false;
  return true;
}

export async function startQdrantStandIn(opts: { apiKey?: string } = {}): Promise<QdrantStandIn> {
  const apiKey = opts.apiKey ?? 'qd-test-key';
  const readOnlyKey = `${apiKey}-read-only`;
  const collections = new Map<string, Collection>();
  let operation = 0;

  const tls = standInTls();
  const server = await startStandIn((req: SeenRequest): Reply => {
    const key = req.headers['api-key'];
    if (key !== apiKey && key !== readOnlyKey) return { status: 401, body: 'Invalid API key or JWT' };
    if (req.method === 'GET' && req.path === '/') return { status: 200, body: { title: 'qdrant - vector search engine', version: '1.15.1' } };
    if (req.method === 'GET' && req.path === '/collections') return ok({ collections: [...collections.keys()].map((name) => ({ name })) });
    const m = /^\/collections\/([^/]+)(\/.*)?$/.exec(req.path);
    if (!m) return fail(404, `Not found: ${req.path}`);
    const name = decodeURIComponent(m[1]!);
    const op = `${req.method} ${m[2] ?? ''}`;
    const writes = req.method !== 'GET' && !['POST /points/count', 'POST /points/scroll'].includes(op);
    if (writes && key === readOnlyKey) return { status: 403, body: 'Forbidden: Write access denied' };
    const col = collections.get(name);
    if (op === 'GET /exists') return ok({ exists: Boolean(col) });
    if (op === 'PUT ') {
      if (col) return fail(409, `Wrong input: Collection \`${name}\` already exists!`);
      const v = (req.body as { vectors?: { size?: number; distance?: string } })?.vectors;
      if (!v || !Number.isInteger(v.size) || v.size! < 1) return fail(400, 'Wrong input: vectors.size must be a positive integer');
      collections.set(name, { size: v.size!, distance: v.distance ?? 'Cosine', points: new Map(), payloadIndexes: {} });
      return ok(true);
    }
    if (!col) return fail(404, `Not found: Collection \`${name}\` doesn't exist!`);
    const body = (req.body ?? {}) as Record<string, any>;
    const done = () => ok({ operation_id: ++operation, status: req.query.get('wait') === 'true' ? 'completed' : 'acknowledged' });
    switch (op) {
      case 'GET ':
        return ok({
          status: 'green',
          optimizer_status: 'ok',
          indexed_vectors_count: 0,
          points_count: col.points.size,
          segments_count: 1,
          config: { params: { vectors: { size: col.size, distance: col.distance }, shard_number: 1, replication_factor: 1, write_consistency_factor: 1, on_disk_payload: true } },
          payload_schema: Object.fromEntries(Object.entries(col.payloadIndexes).map(([k, t]) => [k, { data_type: t, points: col.points.size }])),
        });
      case 'PUT /index':
        col.payloadIndexes[String(body.field_name)] = String(body.field_schema);
        return done();
      case 'PUT /points': {
        const points = (body.points ?? []) as StoredPoint[];
        for (const p of points) {
          if (!(typeof p.id === 'number' || (typeof p.id === 'string' && UUID.test(p.id)))) return fail(400, `Format error in JSON body: value ${p.id} is not a valid point ID, valid values are either an unsigned integer or a UUID`);
          if (!Array.isArray(p.vector) || p.vector.length !== col.size) return fail(400, `Wrong input: Vector dimension error: expected dim: ${col.size}, got ${Array.isArray(p.vector) ? p.vector.length : 0}`);
        }
        for (const p of points) col.points.set(String(p.id), { id: p.id, vector: p.vector, payload: p.payload ?? {} });
        return done();
      }
      case 'POST /points/delete': {
        if (Array.isArray(body.points)) {
          for (const id of body.points) col.points.delete(String(id));
        } else if (body.filter) {
          for (const [id, p] of col.points) if (matches(p, body.filter)) col.points.delete(id);
        } else {
          return fail(400, 'Wrong input: points selector expected');
        }
        return done();
      }
      case 'POST /points/count':
        return ok({ count: [...col.points.values()].filter((p) => matches(p, body.filter)).length });
      case 'POST /points/scroll': {
        const all = [...col.points.values()].filter((p) => matches(p, body.filter)).sort((a, b) => String(a.id).localeCompare(String(b.id)));
        const start = body.offset ? all.findIndex((p) => String(p.id) === String(body.offset)) : 0;
        const limit = Number(body.limit ?? 10);
        const page = all.slice(Math.max(0, start), Math.max(0, start) + limit);
        const next = all[Math.max(0, start) + limit];
        return ok({
          points: page.map((p) => ({ id: p.id, payload: body.with_payload === false ? undefined : p.payload, vector: body.with_vector ? p.vector : undefined })),
          next_page_offset: next ? next.id : null,
        });
      }
      default:
        return fail(404, `Not found: ${req.method} ${req.path}`);
    }
  }, { tls });

  return {
    ...server,
    caFile: tls.certFile,
    apiKey,
    readOnlyKey,
    createCollection(name, size, distance = 'Cosine') {
      collections.set(name, { size, distance, points: new Map(), payloadIndexes: {} });
    },
    hasCollection: (name) => collections.has(name),
    collection: (name) => {
      const c = collections.get(name);
      return c && { size: c.size, distance: c.distance, payloadIndexes: { ...c.payloadIndexes } };
    },
    points: (name) => [...(collections.get(name)?.points.values() ?? [])],
  };
}
