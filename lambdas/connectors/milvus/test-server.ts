// A local Milvus stand-in for tests and benchmarks: a gRPC server (@grpc/grpc-js) of
// milvus.proto.milvus.MilvusService built from the proto definitions the official SDK ships
// (dist/milvus/proto-json/milvus.js, the definitions its own gRPC client is built from), answering the calls @zilliz/milvus2-sdk-node makes for a destination:
// Connect, DescribeCollection, GetLoadState, Insert (columnar FieldData, decoded back into rows) and Delete (a
// boolean expression `field == "value"` / `field in [...]`). It keeps what it receives, so tests read
// back exactly the rows the SDK sent, and implements the semantics the writer relies on: auth by
// token or user:password (authorization metadata), databases, collections with a schema (auto-id
// primary key, FloatVector dim, VarChar max_length, dynamic field, load state: a delete by a
// non-primary-key filter needs a loaded collection), Milvus' error statuses and texts,
// and a rate-limit hook. TLS by default (credentials go over TLS only): standInTls(), trusted by the
// connector through CONNECTOR_CA_FILE = caFile; `plain: true` serves clear text (keyless servers).
// Not imported by any handler.
import { createRequire } from 'node:module';
import { standInTls } from '../records/stand-in';
import { dirname, join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';

const require = createRequire(import.meta.url);
const protoJson = require(join(dirname(require.resolve('@zilliz/milvus2-sdk-node')), 'proto-json/milvus.js')).default;

export interface MilvusField {
  name: string;
  data_type: 'Int64' | 'VarChar' | 'FloatVector' | 'JSON' | 'Bool' | 'Double' | 'Float' | 'Int32';
  is_primary_key?: boolean;
  autoID?: boolean;
  dim?: number;
  max_length?: number;
}

export interface MilvusCollectionSpec {
  fields: MilvusField[];
  enable_dynamic_field?: boolean;
  /** Loaded into memory (default true): Milvus answers deletes by a filter expression only then. */
  loaded?: boolean;
}

interface Collection {
  id: number;
  spec: MilvusCollectionSpec;
  rows: Record<string, unknown>[];
  nextId: number;
}

export interface MilvusTestServer {
  /** https://127.0.0.1:<port> (http:// with `plain`) */
  uri: string;
  /** The PEM file of the stand-in's certificate, for CONNECTOR_CA_FILE. */
  caFile: string;
  port: number;
  /** What the authorization metadata must carry: the token, or user:password. */
  token: string;
  createDatabase(name: string): void;
  createCollection(name: string, spec: MilvusCollectionSpec, db?: string): void;
  /** The rows of a collection as inserted (dynamic-field keys merged in), auto ids included. */
  rows(name: string, db?: string): Record<string, unknown>[];
  /** Loads or releases a collection. */
  load(name: string, loaded: boolean, db?: string): void;
  /** Every RPC by name, in order. */
  calls: string[];
  /** The next `times` calls of the method answer Milvus' rate-limit status (retriable). */
  throttle(method: 'Insert' | 'Delete', times: number): void;
  stop(): Promise<void>;
}

const OK = { error_code: 'Success', code: 0, reason: '', retriable: false, detail: '', extra_info: {} };
const failure = (code: number, reason: string, error_code = 'UnexpectedError', retriable = false) => ({ error_code, code, reason, retriable, detail: reason, extra_info: {} });

/** The platform's documented schema: auto-id primary key, record_id, 384-dim embeddings, dynamic field. */
export function platformSchema(dim = 384, dynamic = true): MilvusCollectionSpec {
  return {
    enable_dynamic_field: dynamic,
    fields: [
      { name: 'id', data_type: 'Int64', is_primary_key: true, autoID: true },
      { name: 'record_id', data_type: 'VarChar', max_length: 64 },
      { name: 'embeddings', data_type: 'FloatVector', dim },
    ],
  };
}

export async function startMilvusTestServer(opts: { token?: string; plain?: boolean } = {}): Promise<MilvusTestServer> {
  const token = opts.token ?? 'root:Milvus';
  const dbs = new Map<string, Map<string, Collection>>([['default', new Map()]]);
  const calls: string[] = [];
  const throttled = { Insert: 0, Delete: 0 };
  let collectionIds = 1000;

  const pkg = grpc.loadPackageDefinition(fromJSON(protoJson, { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true })) as any;
  const service = pkg.milvus.proto.milvus.MilvusService.service as grpc.ServiceDefinition;

  type Call = grpc.ServerUnaryCall<any, any>;
  type Done = grpc.sendUnaryData<any>;

  /** Auth and database of a call; answers the call itself when it must fail. */
  function context(call: Call, done: Done): Map<string, Collection> | undefined {
    const auth = String(call.metadata.get('authorization')[0] ?? '');
    const decoded = auth ? Buffer.from(auth, 'base64').toString('utf8') : '';
    if (decoded !== token) {
      done({ code: grpc.status.UNAUTHENTICATED, details: 'auth check failure, please check username, password or API key is correct' });
      return undefined;
    }
    const dbName = String(call.request.db_name || call.metadata.get('dbname')[0] || 'default');
    const db = dbs.get(dbName);
    if (!db) {
      done(null, { status: failure(800, `database not found[database=${dbName}]`) });
      return undefined;
    }
    return db;
  }

  function collectionOf(db: Map<string, Collection>, call: Call, done: Done, reply: (status: object) => object): Collection | undefined {
    const c = db.get(call.request.collection_name);
    if (!c) {
      const dbName = String(call.request.db_name || call.metadata.get('dbname')[0] || 'default');
      done(null, reply(failure(100, `can't find collection[database=${dbName}][collection=${call.request.collection_name}]`)));
    }
    return c;
  }

  const impl: grpc.UntypedServiceImplementation = {
    Connect(call: Call, done: Done) {
      calls.push('Connect');
      if (!context(call, done)) return;
      done(null, { status: OK, server_info: { build_tags: 'v2.5.4', build_time: '', git_commit: '', go_version: '', deploy_mode: 'STANDALONE', reserved: {} }, identifier: 1 });
    },
    DescribeCollection(call: Call, done: Done) {
      calls.push('DescribeCollection');
      const db = context(call, done);
      if (!db) return;
      const c = collectionOf(db, call, done, (status) => ({ status }));
      if (!c) return;
      done(null, {
        status: OK,
        schema: {
          name: call.request.collection_name,
          description: '',
          autoID: false,
          enable_dynamic_field: Boolean(c.spec.enable_dynamic_field),
          fields: c.spec.fields.map((f, i) => ({
            fieldID: 100 + i,
            name: f.name,
            is_primary_key: Boolean(f.is_primary_key),
            description: '',
            data_type: f.data_type,
            type_params: [...(f.dim ? [{ key: 'dim', value: String(f.dim) }] : []), ...(f.max_length ? [{ key: 'max_length', value: String(f.max_length) }] : [])],
            index_params: [],
            autoID: Boolean(f.autoID),
          })),
        },
        collectionID: c.id,
        collection_name: call.request.collection_name,
        shards_num: 1,
        consistency_level: 'Bounded',
        properties: [],
        db_name: String(call.request.db_name || call.metadata.get('dbname')[0] || 'default'),
        num_partitions: 1,
        created_timestamp: 1,
        update_timestamp: 1,
      });
    },
    Insert(call: Call, done: Done) {
      calls.push('Insert');
      const db = context(call, done);
      if (!db) return;
      const c = collectionOf(db, call, done, (status) => ({ status }));
      if (!c) return;
      if (throttled.Insert > 0) {
        throttled.Insert--;
        done(null, { status: failure(8, 'rate limit exceeded[rate=0.5]', 'RateLimit', true) });
        return;
      }
      try {
        const rows = decodeRows(call.request, c.spec);
        const ids: number[] = [];
        for (const row of rows) {
          const pk = c.spec.fields.find((f) => f.is_primary_key)!;
          if (pk.autoID) row[pk.name] = c.nextId++;
          ids.push(Number(row[pk.name]));
          c.rows.push(row);
        }
        done(null, { status: OK, IDs: { int_id: { data: ids } }, succ_index: rows.map((_, i) => i), err_index: [], insert_cnt: rows.length, timestamp: Date.now() });
      } catch (err) {
        done(null, { status: failure(1100, (err as Error).message, 'IllegalArgument') });
      }
    },
    GetLoadState(call: Call, done: Done) {
      calls.push('GetLoadState');
      const db = context(call, done);
      if (!db) return;
      const c = collectionOf(db, call, done, (status) => ({ status }));
      if (!c) return;
      done(null, { status: OK, state: c.spec.loaded === false ? 'LoadStateNotLoad' : 'LoadStateLoaded' });
    },
    Delete(call: Call, done: Done) {
      calls.push('Delete');
      const db = context(call, done);
      if (!db) return;
      const c = collectionOf(db, call, done, (status) => ({ status }));
      if (!c) return;
      const pk = c.spec.fields.find((f) => f.is_primary_key)?.name;
      if (c.spec.loaded === false && !new RegExp(`^\\s*${pk}\\s*(==|in)`).test(String(call.request.expr))) {
        // A filter on other fields is evaluated by a query, which needs the collection in memory.
        done(null, { status: failure(101, `collection not loaded[collection=${c.id}]`) });
        return;
      }
      if (throttled.Delete > 0) {
        throttled.Delete--;
        done(null, { status: failure(8, 'rate limit exceeded[rate=0.5]', 'RateLimit', true) });
        return;
      }
      try {
        const match = compileExpr(String(call.request.expr), c.spec);
        const before = c.rows.length;
        c.rows = c.rows.filter((r) => !match(r));
        done(null, { status: OK, IDs: { int_id: { data: [] } }, delete_cnt: before - c.rows.length, timestamp: Date.now() });
      } catch (err) {
        done(null, { status: failure(1100, (err as Error).message, 'IllegalArgument') });
      }
    },
  };

  const server = new grpc.Server();
  server.addService(service, impl);
  const tls = standInTls();
  const credentials = opts.plain
    ? grpc.ServerCredentials.createInsecure()
    : grpc.ServerCredentials.createSsl(null, [{ private_key: Buffer.from(tls.key), cert_chain: Buffer.from(tls.cert) }]);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (err, p) => (err ? reject(err) : resolve(p))),
  );

  return {
    uri: `${opts.plain ? 'http' : 'https'}://127.0.0.1:${port}`,
    caFile: tls.certFile,
    port,
    token,
    calls,
    createDatabase: (name) => void (dbs.has(name) || dbs.set(name, new Map())),
    createCollection(name, spec, db = 'default') {
      const d = dbs.get(db);
      if (!d) throw new Error(`database not found[database=${db}]`);
      d.set(name, { id: collectionIds++, spec, rows: [], nextId: 1 });
    },
    rows: (name, db = 'default') => [...(dbs.get(db)?.get(name)?.rows ?? [])],
    load: (name, loaded, db = 'default') => {
      const c = dbs.get(db)?.get(name);
      if (c) c.spec.loaded = loaded;
    },
    throttle: (method, times) => void (throttled[method] = times),
    stop: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}

/** Columnar FieldData of an InsertRequest → one object per row, as Milvus would store it. */
function decodeRows(req: any, spec: MilvusCollectionSpec): Record<string, unknown>[] {
  const n = Number(req.num_rows);
  const rows: Record<string, unknown>[] = Array.from({ length: n }, () => ({}));
  const passed = new Set<string>();
  for (const fd of req.fields_data ?? []) {
    const name: string = fd.field_name;
    passed.add(name);
    const schemaField = spec.fields.find((f) => f.name === name);
    if (fd.is_dynamic) {
      if (!spec.enable_dynamic_field) throw new Error(`the dynamic field is not enabled in collection, but dynamic field data is passed`);
      const docs: Buffer[] = fd.scalars?.json_data?.data ?? [];
      docs.forEach((b, i) => Object.assign(rows[i]!, JSON.parse(Buffer.from(b).toString('utf8'))));
      continue;
    }
    if (!schemaField) throw new Error(`fieldSchema(${name}) is not found in collection schema`);
    if (fd.field === 'vectors') {
      const data: number[] = fd.vectors.float_vector?.data ?? [];
      const dim = n ? data.length / n : 0;
      if (dim !== schemaField.dim) throw new Error(`the dim (${dim}) of field data(${name}) is not equal to schema dim (${schemaField.dim})`);
      for (let i = 0; i < n; i++) rows[i]![name] = data.slice(i * dim, (i + 1) * dim);
      continue;
    }
    const scalars = fd.scalars ?? {};
    const column = scalars[scalars.data]?.data ?? [];
    if (column.length !== n) throw new Error(`the num_rows (${column.length}) of field (${name}) is not equal to passed num_rows (${n})`);
    column.forEach((v: unknown, i: number) => {
      const value = scalars.data === 'json_data' ? JSON.parse(Buffer.from(v as Buffer).toString('utf8')) : v;
      if (schemaField.data_type === 'VarChar' && schemaField.max_length && String(value).length > schemaField.max_length) {
        throw new Error(`the length (${String(value).length}) of ${i}th VarChar ${name} exceeds max length (${schemaField.max_length})`);
      }
      rows[i]![name] = value;
    });
  }
  for (const f of spec.fields) {
    if (!f.autoID && !passed.has(f.name)) throw new Error(`fieldSchema(${f.name}) has no corresponding fieldData pass in`);
  }
  return rows;
}

/** `field == "v"`, `field == 3`, `field in ["a", "b"]`; other expressions are refused like a plan error. */
function compileExpr(expr: string, spec: MilvusCollectionSpec): (row: Record<string, unknown>) => boolean {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(==|in)\s*(.+?)\s*$/.exec(expr);
  if (!m) throw new Error(`failed to create expr plan, expr = ${expr}: the stand-in understands only "field == value" and "field in [...]"`);
  const [, field, op, literal] = m as unknown as [string, string, string, string];
  if (!spec.fields.some((f) => f.name === field) && !spec.enable_dynamic_field) {
    throw new Error(`failed to create expr plan, expr = ${expr}: field ${field} not exist`);
  }
  const value = JSON.parse(literal);
  if (op === 'in') {
    if (!Array.isArray(value)) throw new Error(`failed to create expr plan, expr = ${expr}: "in" needs a list`);
    return (row) => value.includes(row[field]);
  }
  return (row) => row[field] === value;
}
