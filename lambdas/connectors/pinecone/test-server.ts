// A local stand-in for Pinecone that speaks the REST API the official client uses (API version
// header X-Pinecone-Api-Version, Api-Key auth): the control plane (GET/POST /indexes, GET
// /indexes/{name}) and each index's data plane under /data/{name} (vectors/upsert, vectors/list,
// vectors/delete, vectors/fetch, describe_index_stats). It keeps what it receives, so tests read back
// exactly the vectors the client sent, and enforces the limits the real service does (dimension,
// flat metadata of 40 KB, 1000 vectors / 2 MB per upsert, list only on serverless). Tests and benches only.
import { startStandIn, type Reply, type SeenRequest, type StandInServer } from '../records/stand-in';

export interface StoredVector {
  id: string;
  values: number[];
  metadata?: Record<string, unknown>;
}

interface StandInIndex {
  name: string;
  dimension: number;
  metric: string;
  kind: 'serverless' | 'pod';
  /** Describes left before the index reports ready. */
  initializing: number;
  namespaces: Map<string, Map<string, StoredVector>>;
}

export interface PineconeStandIn extends StandInServer {
  apiKey: string;
  /** Index host base (what describe_index returns as `host`). */
  hostOf(name: string): string;
  createIndex(name: string, dimension: number, kind?: 'serverless' | 'pod'): void;
  hasIndex(name: string): boolean;
  /** Indexes created from now on report `Initializing` for this many describes. */
  createIndexesInitializing(describes: number): void;
  /** The next `count` describes of `name` are held until all have arrived, then answered (forces writers to race). */
  gatherDescribes(name: string, count: number): void;
  dimensionOf(name: string): number | undefined;
  vectors(index: string, namespace: string): StoredVector[];
}

const err = (status: number, message: string): Reply => ({ status, body: { code: status === 400 ? 3 : status === 404 ? 5 : 16, message, details: [] } });
const controlErr = (status: number, code: string, message: string): Reply => ({ status, body: { error: { code, message }, status } });

function flatMetadataProblem(md: Record<string, unknown>): string | undefined {
  for (const [k, v] of Object.entries(md)) {
    const ok = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
    if (!ok) return `Metadata value must be a string, number, boolean or list of strings, got '${JSON.stringify(v)}' for field '${k}'`;
  }
  return undefined;
}

function matches(md: Record<string, unknown> | undefined, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([k, cond]) => {
    const v = md?.[k];
    if (cond && typeof cond === 'object' && '$eq' in cond) return v === (cond as { $eq: unknown }).$eq;
    if (cond && typeof cond === 'object' && '$in' in cond) return ((cond as { $in: unknown[] }).$in ?? []).includes(v);
    return v === cond;
  });
}

export async function startPineconeStandIn(opts: { apiKey?: string; readyAfterDescribes?: number } = {}): Promise<PineconeStandIn> {
  const apiKey = opts.apiKey ?? 'pc-test-key';
  const indexes = new Map<string, StandInIndex>();
  let base = '';
  let initializing = opts.readyAfterDescribes ?? 0;

  const model = (ix: StandInIndex) => ({
    name: ix.name,
    dimension: ix.dimension,
    metric: ix.metric,
    host: `${base}/data/${ix.name}`,
    deletion_protection: 'disabled',
    vector_type: 'dense',
    spec: ix.kind === 'serverless' ? { serverless: { cloud: 'aws', region: 'us-east-1' } } : { pod: { environment: 'us-east1-gcp', pod_type: 'p1.x1', pods: 1, replicas: 1, shards: 1 } },
    status: ix.initializing > 0 ? { ready: false, state: 'Initializing' } : { ready: true, state: 'Ready' },
  });
  const ns = (ix: StandInIndex, name: unknown) => {
    const key = typeof name === 'string' ? name : '';
    let m = ix.namespaces.get(key);
    if (!m) ix.namespaces.set(key, (m = new Map()));
    return m;
  };

  function control(req: SeenRequest): Reply {
    const m = /^\/indexes(?:\/([^/]+))?$/.exec(req.path);
    if (!m) return controlErr(404, 'NOT_FOUND', `no route ${req.method} ${req.path}`);
    const name = m[1] ? decodeURIComponent(m[1]) : undefined;
    if (req.method === 'GET' && !name) return { status: 200, body: { indexes: [...indexes.values()].map(model) } };
    if (req.method === 'GET' && name) {
      const ix = indexes.get(name);
      if (!ix) return controlErr(404, 'NOT_FOUND', `Resource ${name} not found`);
      const out = model(ix);
      if (ix.initializing > 0) ix.initializing--;
      return { status: 200, body: out };
    }
    if (req.method === 'POST' && !name) {
      const b = (req.body ?? {}) as { name?: string; dimension?: number; metric?: string; spec?: Record<string, unknown> };
      if (!b.name || !/^[a-z0-9-]{1,45}$/.test(b.name)) return controlErr(400, 'INVALID_ARGUMENT', 'Name must consist of lower case alphanumeric characters or \'-\', and be 1-45 characters');
      if (indexes.has(b.name)) return controlErr(409, 'ALREADY_EXISTS', `Resource ${b.name} already exists`);
      if (!Number.isInteger(b.dimension) || b.dimension! < 1 || b.dimension! > 20000) return controlErr(400, 'INVALID_ARGUMENT', 'Dimension must be between 1 and 20000');
      const kind = b.spec?.pod ? 'pod' : 'serverless';
      const ix: StandInIndex = { name: b.name, dimension: b.dimension!, metric: b.metric ?? 'cosine', kind, initializing, namespaces: new Map() };
      indexes.set(b.name, ix);
      return { status: 201, body: model(ix) };
    }
    return controlErr(405, 'METHOD_NOT_ALLOWED', `${req.method} not allowed`);
  }

  function data(ix: StandInIndex, op: string, req: SeenRequest): Reply {
    const body = (req.body ?? {}) as Record<string, any>;
    switch (`${req.method} ${op}`) {
      case 'POST /vectors/upsert': {
        const vectors = (body.vectors ?? []) as StoredVector[];
        if (req.bytes > 2 * 1024 * 1024) return err(400, `Request size ${req.bytes} bytes exceeds the maximum supported size of 2MB`);
        if (vectors.length > 1000) return err(400, `Batch size ${vectors.length} exceeds the maximum of 1000 vectors per upsert`);
        for (const v of vectors) {
          if (!Array.isArray(v.values) || v.values.length !== ix.dimension) return err(400, `Vector dimension ${v.values?.length ?? 0} does not match the dimension of the index ${ix.dimension}`);
          const md = v.metadata ?? {};
          const problem = flatMetadataProblem(md);
          if (problem) return err(400, problem);
          const size = Buffer.byteLength(JSON.stringify(md));
          if (size > 40_960) return err(400, `Metadata size is ${size} bytes, which exceeds the limit of 40960 bytes per vector`);
        }
        const m = ns(ix, body.namespace);
        for (const v of vectors) m.set(v.id, { id: v.id, values: v.values, ...(v.metadata ? { metadata: v.metadata } : {}) });
        return { status: 200, body: { upsertedCount: vectors.length } };
      }
      case 'GET /vectors/list': {
        if (ix.kind !== 'serverless') return err(400, 'List operation is only supported for serverless indexes');
        const prefix = req.query.get('prefix') ?? '';
        const limit = Number(req.query.get('limit') ?? 100);
        // The token is a cursor (the last id returned), so deletes between pages skip nothing.
        const after = Buffer.from(req.query.get('paginationToken') ?? '', 'base64').toString();
        const ids = [...ns(ix, req.query.get('namespace') ?? '').keys()].filter((id) => id.startsWith(prefix) && id > after).sort();
        const page = ids.slice(0, limit);
        const next = ids.length > limit ? Buffer.from(page[page.length - 1]!).toString('base64') : undefined;
        return { status: 200, body: { vectors: page.map((id) => ({ id })), ...(next ? { pagination: { next } } : {}), namespace: req.query.get('namespace') ?? '', usage: { readUnits: 1 } } };
      }
      case 'POST /vectors/delete': {
        const m = ns(ix, body.namespace);
        if (body.deleteAll) m.clear();
        else if (Array.isArray(body.ids)) for (const id of body.ids) m.delete(id);
        else if (body.filter && typeof body.filter === 'object') {
          for (const [id, v] of m) if (matches(v.metadata, body.filter)) m.delete(id);
        } else return err(400, 'Delete request must specify ids, filter or deleteAll');
        return { status: 200, body: {} };
      }
      case 'GET /vectors/fetch': {
        const m = ns(ix, req.query.get('namespace') ?? '');
        const out: Record<string, StoredVector> = {};
        for (const id of req.query.getAll('ids')) if (m.has(id)) out[id] = m.get(id)!;
        return { status: 200, body: { vectors: out, namespace: req.query.get('namespace') ?? '', usage: { readUnits: 1 } } };
      }
      case 'POST /describe_index_stats': {
        const namespaces: Record<string, { vectorCount: number }> = {};
        let total = 0;
        for (const [k, m] of ix.namespaces) {
          namespaces[k] = { vectorCount: m.size };
          total += m.size;
        }
        return { status: 200, body: { namespaces, dimension: ix.dimension, indexFullness: 0, totalVectorCount: total, metric: ix.metric, vectorType: 'dense' } };
      }
      default:
        return err(404, `no route ${req.method} ${op}`);
    }
  }

  const gathers = new Map<string, { count: number; waiting: (() => void)[] }>();
  const server = await startStandIn(async (req) => {
    if (req.headers['api-key'] !== apiKey) return { status: 401, body: { error: { code: 'UNAUTHENTICATED', message: 'Invalid API Key' }, status: 401 } };
    const d = /^\/data\/([^/]+)(\/.*)$/.exec(req.path);
    const described = !d && req.method === 'GET' ? /^\/indexes\/([^/]+)$/.exec(req.path)?.[1] : undefined;
    const gather = described ? gathers.get(decodeURIComponent(described)) : undefined;
    if (gather) {
      await new Promise<void>((release) => {
        gather.waiting.push(release);
        if (gather.waiting.length === gather.count) {
          gathers.delete(decodeURIComponent(described!));
          for (const r of gather.waiting) r();
        }
      });
    }
    if (!d) return control(req);
    const ix = indexes.get(decodeURIComponent(d[1]!));
    if (!ix) return err(404, `Index ${d[1]} not found`);
    return data(ix, d[2]!, req);
  });
  base = server.url;

  return {
    ...server,
    apiKey,
    hostOf: (name) => `${base}/data/${name}`,
    createIndex(name, dimension, kind = 'serverless') {
      indexes.set(name, { name, dimension, metric: 'cosine', kind, initializing: 0, namespaces: new Map() });
    },
    hasIndex: (name) => indexes.has(name),
    createIndexesInitializing(describes) {
      initializing = describes;
    },
    gatherDescribes(name, count) {
      gathers.set(name, { count, waiting: [] });
    },
    dimensionOf: (name) => indexes.get(name)?.dimension,
    vectors: (index, namespace) => [...(indexes.get(index)?.namespaces.get(namespace)?.values() ?? [])],
  };
}
