// A local Weaviate stand-in for tests and benchmarks: it speaks what weaviate-client v3 really sends
// — REST (/v1/meta, /v1/schema, readiness) over HTTP/1.1 and gRPC (grpc.health.v1.Health/Check,
// weaviate.v1.Weaviate/BatchObjects and BatchDelete) over HTTP/2 — on ONE port, like a gateway in
// front of a cluster: the first bytes of a connection tell an HTTP/2 preface (gRPC) from HTTP/1.1.
// The gRPC messages are decoded with the protobuf codecs the client package ships (the server's
// proto files compiled by Weaviate). It keeps what it receives (objects with uuid, properties and
// vector) so tests read back exactly what the client sent, and it implements the semantics the
// writer relies on: API-key auth, auto-schema (properties added on insert, type conflicts refused),
// vector length fixed by the first vector of a collection, upsert by uuid, delete by a property filter
// capped at QUERY_MAXIMUM_RESULTS per call, dry runs. TLS by default (the API key goes over TLS only):
// the front port terminates TLS (ALPN h2 or http/1.1) with standInTls(), trusted by the connector
// through CONNECTOR_CA_FILE = caFile; `plain: true` serves clear text (keyless clusters). Not imported
// by any handler.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect as netConnect, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { standInTls } from '../records/stand-in';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createServer as createGrpcServer, ServerError, Status, type CallContext } from 'nice-grpc';

const require = createRequire(import.meta.url);
// The generated codecs are not in the package's "exports": reach them by path from its entry point.
const protoDir = join(dirname(require.resolve('weaviate-client')), 'proto');
const { WeaviateDefinition } = require(join(protoDir, 'v1/weaviate.js'));
const { HealthDefinition, HealthCheckResponse_ServingStatus } = require(join(protoDir, 'google/health/v1/health.js'));

export interface StoredObject {
  uuid: string;
  collection: string;
  properties: Record<string, unknown>;
  vector?: number[];
}

interface CollectionState {
  schema: Record<string, any>;
  objects: Map<string, StoredObject>;
  dims?: number;
}

export interface WeaviateTestServer {
  /** https://127.0.0.1:<port> (http:// with `plain`) */
  url: string;
  /** The PEM file of the stand-in's certificate, for CONNECTOR_CA_FILE. */
  caFile: string;
  port: number;
  apiKey: string;
  version: string;
  /** Objects of a collection as received, in insertion order of their uuids. */
  objects(collection: string): StoredObject[];
  schema(collection: string): Record<string, any> | undefined;
  /** Every request: 'rest GET /v1/schema', 'grpc BatchObjects', ... */
  calls: string[];
  /** The next `times` requests of the protocol are refused as throttled (REST 429 with Retry-After). */
  throttle(protocol: 'rest' | 'grpc', times: number, retryAfterSeconds?: number): void;
  /** QUERY_MAXIMUM_RESULTS: objects one delete call removes at most (default 10,000). */
  maxDeleteResults: number;
  stop(): Promise<void>;
}

const PROPERTY_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,230}$/;
const CLASS_NAME = /^[A-Z][_0-9A-Za-z]{0,254}$/;

export async function startWeaviateTestServer(opts: { apiKey?: string; version?: string; plain?: boolean } = {}): Promise<WeaviateTestServer> {
  const apiKey = opts.apiKey ?? 'test-weaviate-key';
  const version = opts.version ?? '1.32.5';
  const collections = new Map<string, CollectionState>();
  const calls: string[] = [];
  const throttled = { rest: 0, grpc: 0, retryAfter: 1 };

  const state: WeaviateTestServer = {
    url: '',
    caFile: '',
    port: 0,
    apiKey,
    version,
    objects: (name) => [...(collections.get(name)?.objects.values() ?? [])],
    schema: (name) => collections.get(name)?.schema,
    calls,
    throttle(protocol, times, retryAfterSeconds = 1) {
      throttled[protocol] = times;
      throttled.retryAfter = retryAfterSeconds;
    },
    maxDeleteResults: 10_000,
    stop: async () => undefined,
  };

  function createCollection(def: Record<string, any>): CollectionState {
    const name = String(def.class ?? '');
    const formatted = name ? name[0]!.toUpperCase() + name.slice(1) : name;
    if (!CLASS_NAME.test(formatted)) throw httpError(422, `'${name}' is not a valid class name`);
    if (collections.has(formatted)) throw httpError(422, `class name "${formatted}" already exists`);
    // Filled in as Weaviate 1.32 answers GET /v1/schema/{class} for a class created with defaults.
    const schema = {
      ...def,
      class: formatted,
      properties: (def.properties ?? []).map((p: any) => ({ indexFilterable: true, indexSearchable: p.dataType?.[0] === 'text', indexRangeFilters: false, ...(p.dataType?.[0] === 'text' ? { tokenization: 'word' } : {}), ...p })),
      vectorizer: def.vectorizer ?? 'none',
      moduleConfig: def.moduleConfig ?? {},
      vectorIndexType: def.vectorIndexType ?? 'hnsw',
      vectorIndexConfig: {
        skip: false, cleanupIntervalSeconds: 300, maxConnections: 32, efConstruction: 128, ef: -1, dynamicEfMin: 100, dynamicEfMax: 500,
        dynamicEfFactor: 8, vectorCacheMaxObjects: 1e12, flatSearchCutoff: 40000, distance: 'cosine', filterStrategy: 'sweeping',
        pq: { enabled: false, bitCompression: false, segments: 0, centroids: 256, trainingLimit: 100000, encoder: { type: 'kmeans', distribution: 'log-normal' } },
        bq: { enabled: false }, sq: { enabled: false, trainingLimit: 100000, rescoreLimit: 20 }, rq: { enabled: false, bits: 8, rescoreLimit: 20 },
        multivector: { enabled: false, aggregation: 'maxSim', muvera: { enabled: false, ksim: 4, dprojections: 16, repetitions: 10 } },
        ...(def.vectorIndexConfig ?? {}),
      },
      invertedIndexConfig: {
        bm25: { b: 0.75, k1: 1.2 }, cleanupIntervalSeconds: 60, stopwords: { preset: 'en', additions: null, removals: null }, usingBlockMaxWAND: true,
        ...(def.invertedIndexConfig ?? {}),
      },
      multiTenancyConfig: { enabled: false, autoTenantCreation: false, autoTenantActivation: false },
      replicationConfig: { factor: 1, asyncEnabled: false, deletionStrategy: 'NoAutomatedResolution' },
      shardingConfig: {
        virtualPerPhysical: 128, desiredCount: 1, actualCount: 1, desiredVirtualCount: 128, actualVirtualCount: 128, key: '_id', strategy: 'hash', function: 'murmur3',
      },
    };
    const created = { schema, objects: new Map<string, StoredObject>() };
    collections.set(formatted, created);
    return created;
  }

  // ---- REST ----
  const http = createHttpServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    calls.push(`rest ${req.method} ${url.pathname}`);
    try {
      if (url.pathname === '/v1/.well-known/ready' || url.pathname === '/v1/.well-known/live') return send(res, 200);
      if (url.pathname === '/v1/.well-known/openid-configuration') return send(res, 404);
      if (throttled.rest > 0) {
        throttled.rest--;
        res.setHeader('retry-after', String(throttled.retryAfter));
        return send(res, 429, { error: [{ message: 'rate limit exceeded, retry later' }] });
      }
      authorizeRest(req.headers.authorization);
      if (req.method === 'GET' && url.pathname === '/v1/meta') {
        return send(res, 200, { hostname: 'http://[::]:8080', version, modules: {}, grpcMaxMessageSize: 104858000 });
      }
      if (req.method === 'GET' && url.pathname === '/v1/schema') return send(res, 200, { classes: [...collections.values()].map((c) => c.schema) });
      const one = /^\/v1\/schema\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && one) {
        const c = collections.get(decodeURIComponent(one[1]!));
        return c ? send(res, 200, c.schema) : send(res, 404);
      }
      if (req.method === 'POST' && url.pathname === '/v1/schema') {
        const body = JSON.parse((await readBody(req)) || '{}');
        return send(res, 200, createCollection(body).schema);
      }
      return send(res, 404, { error: [{ message: `no route for ${req.method} ${url.pathname}` }] });
    } catch (err) {
      const e = err as { status?: number; message: string };
      return send(res, e.status ?? 500, e.status === 401 ? { code: 401, message: e.message } : { error: [{ message: e.message }] });
    }
  });

  function authorizeRest(header: string | undefined): void {
    if (!header) throw httpError(401, 'anonymous access not enabled, please provide an auth scheme such as OIDC');
    if (header !== `Bearer ${apiKey}`) throw httpError(401, 'unauthorized: invalid api key');
  }

  // ---- gRPC ----
  function authorizeGrpc(ctx: CallContext): void {
    const auth = ctx.metadata.get('authorization');
    if (!auth) throw new ServerError(Status.UNAUTHENTICATED, 'anonymous access not enabled, please provide an auth scheme such as OIDC');
    if (auth !== `Bearer ${apiKey}`) throw new ServerError(Status.UNAUTHENTICATED, 'unauthorized: invalid api key');
  }

  function throttleGrpc(): void {
    if (throttled.grpc > 0) {
      throttled.grpc--;
      throw new ServerError(Status.RESOURCE_EXHAUSTED, 'rate limit exceeded, retry later');
    }
  }

  const weaviateImpl: Record<string, unknown> = {};
  for (const key of Object.keys(WeaviateDefinition.methods)) {
    weaviateImpl[key] = async () => {
      throw new ServerError(Status.UNIMPLEMENTED, `${key} is not implemented by the stand-in`);
    };
  }
  weaviateImpl.batchObjects = async (req: any, ctx: CallContext) => {
    calls.push('grpc BatchObjects');
    authorizeGrpc(ctx);
    throttleGrpc();
    const start = Date.now();
    const errors: { index: number; error: string }[] = [];
    req.objects.forEach((o: any, index: number) => {
      try {
        const c = collections.get(o.collection) ?? createCollection({ class: o.collection }); // auto-schema
        const properties = decodeProperties(o.properties);
        const vector = decodeVector(o);
        if (vector) {
          if (c.dims !== undefined && vector.length !== c.dims) {
            throw new Error(`new node has a vector with length ${vector.length}. Existing nodes have vectors with length ${c.dims}`);
          }
          c.dims ??= vector.length;
        }
        extendSchema(c.schema, properties);
        c.objects.delete(o.uuid);
        c.objects.set(o.uuid, { uuid: o.uuid, collection: c.schema.class, properties, ...(vector ? { vector } : {}) });
      } catch (err) {
        errors.push({ index, error: (err as Error).message });
      }
    });
    return { took: (Date.now() - start) / 1000, errors };
  };
  weaviateImpl.batchDelete = async (req: any, ctx: CallContext) => {
    calls.push('grpc BatchDelete');
    authorizeGrpc(ctx);
    throttleGrpc();
    const c = collections.get(req.collection);
    if (!c) throw new ServerError(Status.NOT_FOUND, `could not find class ${req.collection} in schema`);
    const matching = [...c.objects.values()].filter((o) => matches(c.schema, o.properties, req.filters));
    const batch = matching.slice(0, state.maxDeleteResults);
    if (!req.dryRun) for (const o of batch) c.objects.delete(o.uuid);
    const objects = req.verbose ? batch.map((o) => ({ uuid: Buffer.from(o.uuid.replace(/-/g, ''), 'hex'), successful: true })) : [];
    return { took: 0, failed: 0, matches: batch.length, successful: req.dryRun ? 0 : batch.length, objects };
  };

  const grpc = createGrpcServer();
  grpc.add(WeaviateDefinition, weaviateImpl as never);
  grpc.add(HealthDefinition, {
    check: async () => ({ status: HealthCheckResponse_ServingStatus.SERVING }),
    watch: async function* () {
      yield { status: HealthCheckResponse_ServingStatus.SERVING };
    },
  } as never);
  const grpcPort = await grpc.listen('127.0.0.1:0');

  // ---- one port for both: an HTTP/2 preface goes to gRPC, anything else to the REST server ----
  const sockets = new Set<Socket>();
  const tls = standInTls();
  state.caFile = tls.certFile;
  const onSocket = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', (first) => {
      socket.pause();
      socket.unshift(first);
      if (first.subarray(0, 3).toString('latin1') === 'PRI') {
        const upstream = netConnect(grpcPort, '127.0.0.1');
        sockets.add(upstream);
        upstream.on('close', () => sockets.delete(upstream));
        upstream.on('error', () => socket.destroy());
        socket.on('error', () => upstream.destroy());
        socket.pipe(upstream).pipe(socket);
        socket.resume();
      } else {
        http.emit('connection', socket);
        socket.resume();
      }
    });
  };
  const front: NetServer = opts.plain ? createNetServer(onSocket) : createTlsServer({ key: tls.key, cert: tls.cert, ALPNProtocols: ['h2', 'http/1.1'] }, onSocket);
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  const port = (front.address() as { port: number }).port;
  state.port = port;
  state.url = `${opts.plain ? 'http' : 'https'}://127.0.0.1:${port}`;
  state.stop = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => front.close(() => r()));
    http.closeAllConnections();
    await grpc.forceShutdown();
  };
  return state;
}

function httpError(status: number, message: string): Error {
  return Object.assign(new Error(message), { status });
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** BatchObject.Properties / ObjectPropertiesValue → plain JSON, as Weaviate stores it. */
function decodeProperties(p: any): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(p?.nonRefProperties ?? {}) };
  if (!p) return out;
  for (const a of p.textArrayProperties ?? []) out[a.propName] = a.values;
  for (const a of p.intArrayProperties ?? []) out[a.propName] = a.values.map(Number);
  for (const a of p.booleanArrayProperties ?? []) out[a.propName] = a.values;
  for (const a of p.numberArrayProperties ?? []) {
    const bytes: Uint8Array = a.valuesBytes ?? new Uint8Array();
    out[a.propName] = bytes.length ? Array.from(new Float64Array(new Uint8Array(bytes).buffer)) : a.values;
  }
  for (const o of p.objectProperties ?? []) out[o.propName] = decodeProperties(o.value);
  for (const o of p.objectArrayProperties ?? []) out[o.propName] = o.values.map(decodeProperties);
  for (const name of p.emptyListProps ?? []) out[name] = [];
  for (const name of Object.keys(out)) {
    if (!PROPERTY_NAME.test(name)) throw new Error(`'${name}' is not a valid property name. Property names in Weaviate are restricted to valid GraphQL names, which must be “/[_A-Za-z][_0-9A-Za-z]{0,230}/”.`);
  }
  return out;
}

function decodeVector(o: any): number[] | undefined {
  const bytes: Uint8Array | undefined = o.vectorBytes?.length ? o.vectorBytes : o.vectors?.[0]?.vectorBytes;
  if (bytes?.length) return Array.from(new Float32Array(new Uint8Array(bytes).buffer));
  return o.vector?.length ? o.vector : undefined;
}

/** Weaviate's data type of a JSON value (auto-schema). */
function dataTypeOf(v: unknown): string {
  if (Array.isArray(v)) {
    if (!v.length) return 'text[]';
    const inner = dataTypeOf(v[0]);
    return inner === 'object' ? 'object[]' : `${inner}[]`;
  }
  if (typeof v === 'string') return 'text';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return 'number';
  if (v && typeof v === 'object') return 'object';
  return 'text';
}

const COMPATIBLE: Record<string, string[]> = { number: ['number', 'int'], 'number[]': ['number[]', 'int[]'], text: ['text', 'date', 'uuid'], 'text[]': ['text[]', 'date[]', 'uuid[]'] };

/** Adds unknown properties (auto-schema) and refuses values whose type conflicts with the schema. */
function extendSchema(schema: Record<string, any>, properties: Record<string, unknown>, path = ''): void {
  const props: any[] = (schema.properties ??= []);
  for (const [name, value] of Object.entries(properties)) {
    if (value === null || value === undefined) continue;
    const type = dataTypeOf(value);
    const existing = props.find((p) => p.name === name);
    if (!existing) {
      const prop: Record<string, unknown> = { name, dataType: [type] };
      if (type === 'object' || type === 'object[]') {
        const nested = { properties: [] as unknown[] };
        for (const v of type === 'object' ? [value] : (value as unknown[])) extendSchema(nested, v as Record<string, unknown>, `${path}${name}.`);
        prop.nestedProperties = nested.properties;
      }
      props.push(prop);
      continue;
    }
    const declared = String(existing.dataType?.[0]);
    if (declared !== type && !(COMPATIBLE[type] ?? []).includes(declared)) {
      throw new Error(`invalid ${declared} property '${path}${name}' on class '${schema.class ?? ''}': not a ${declared}, but ${type}`);
    }
    if (type === 'object' || type === 'object[]') {
      const nested = { class: schema.class, properties: (existing.nestedProperties ??= []) };
      for (const v of type === 'object' ? [value] : (value as unknown[])) extendSchema(nested, v as Record<string, unknown>, `${path}${name}.`);
    }
  }
}

/** A where filter of the gRPC API on top-level properties: equal/not-equal/like, and/or/not. */
function matches(schema: Record<string, any>, props: Record<string, unknown>, f: any): boolean {
  if (!f) return true;
  const OP = { EQUAL: 1, NOT_EQUAL: 2, AND: 7, OR: 8, LIKE: 10, NOT: 15 };
  if (f.operator === OP.AND) return f.filters.every((x: any) => matches(schema, props, x));
  if (f.operator === OP.OR) return f.filters.some((x: any) => matches(schema, props, x));
  if (f.operator === OP.NOT) return !matches(schema, props, f.filters[0]);
  const name: string = f.target?.property ?? f.on?.[0];
  if (!schema.properties?.some((p: any) => p.name === name)) {
    throw new ServerError(Status.INVALID_ARGUMENT, `no such prop with name '${name}' found in class '${schema.class}' in the schema. Check your schema files for which properties in this class are available`);
  }
  const want = f.valueText ?? f.valueInt ?? f.valueNumber ?? f.valueBoolean;
  const have = props[name];
  if (f.operator === OP.EQUAL) return have === want;
  if (f.operator === OP.NOT_EQUAL) return have !== want;
  if (f.operator === OP.LIKE) return typeof have === 'string' && new RegExp(`^${String(want).replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(have);
  throw new ServerError(Status.UNIMPLEMENTED, `filter operator ${f.operator} is not implemented by the stand-in`);
}
