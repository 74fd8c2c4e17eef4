// Test-only stand-ins for IBM watsonx.data, imported only by tests and benches: one HTTP server that
// answers IBM IAM's token exchange (POST /identity/token, form grant_type=urn:ibm:params:oauth:
// grant-type:apikey + apikey; IAM's error body for an unknown key) and the Iceberg REST catalog under
// /mds/iceberg (GET /v1/config?warehouse=, HEAD/GET namespaces and tables, POST table commits). The
// catalog keeps each table's metadata JSON on disk (a new metadata file per commit, as REST catalogs
// write them), checks the bearer token, and enforces the commit requirements (assert-table-uuid,
// assert-ref-snapshot-id) so a stale commit gets 409 CommitFailedException. Data files and manifests
// live in the project's local S3 emulator (s3rver). readIcebergTable follows the metadata chain
// from the catalog (metadata → manifest list → manifests → Parquet) with an Avro reader and hyparquet;
// the Avro files are decoded with the writer schema each file embeds in its header, never with the
// writer's own types (avro.ts), so a read-back checks what the file says, independent of the writer.
// HTTPS (the API key and the bearer token go over TLS only): standInTls(), trusted by the connector
// through CONNECTOR_CA_FILE = caFile (test/support/stand-in-ca.ts trustStandIns).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { parquetReadObjects } from 'hyparquet';
import avro from 'avsc';
import { startS3, S3RVER_CREDENTIALS } from '../../../local/emulators/s3';
import type { ManifestEntry, ManifestFile } from './avro';
import { standInTls } from '../records/stand-in';
import { parseJsonLongs, stringifyJsonLongs, type IcebergField, type TableMetadata } from './catalog';
import { closeServer, listenLocal } from '../rest-test-server';

export const S3_CREDENTIALS = S3RVER_CREDENTIALS;
export const IAM_API_KEY = 'ibm-iam-test-api-key-0123456789';

interface Table {
  metadata: TableMetadata;
  location: string;
  version: number;
}

export interface WatsonxStandIn {
  /** https://127.0.0.1:<port> (the catalog under /mds/iceberg, IAM at /identity/token). */
  endpoint: string;
  /** The PEM file of the stand-in's certificate, for CONNECTOR_CA_FILE. */
  caFile: string;
  s3Endpoint: string;
  catalog: string;
  tables: Map<string, Table>;
  namespaces: Set<string>;
  /** Every catalog request: method, path, parsed body. */
  requests: { method: string; path: string; body: any }[];
  createTable(namespace: string, name: string, fields: IcebergField[], opts?: { formatVersion?: number; partitioned?: boolean }): TableMetadata;
  /** The next `times` requests whose `METHOD /path` matches get this answer instead. */
  inject(match: RegExp, answer: { status: number; headers?: Record<string, string>; body?: unknown }, times?: number): void;
  /** Runs once before the next commit is applied (e.g. another writer's commit, to make this one stale). */
  beforeNextCommit(fn: () => Promise<void> | void): void;
  /** Every IAM token issued so far stops being accepted (401), as after a revocation. */
  revokeTokens(): void;
  stop(): Promise<void>;
}

/** The platform's documented table layout for watsonx.data (a subset: what a typical user creates). */
export function platformFields(): IcebergField[] {
  const s = (id: number, name: string, required = false): IcebergField => ({ id, name, required, type: 'string' });
  return [
    s(1, 'id', true),
    s(2, 'record_id'),
    s(3, 'element_id'),
    s(4, 'text'),
    s(5, 'type'),
    { id: 6, name: 'embeddings', required: false, type: { type: 'list', 'element-id': 100, element: 'float', 'element-required': false } },
    s(7, 'filename'),
    s(8, 'filetype'),
    { id: 9, name: 'languages', required: false, type: { type: 'list', 'element-id': 101, element: 'string', 'element-required': false } },
    s(10, 'page_number'),
    { id: 11, name: 'date_modified', required: false, type: 'double' },
    s(12, 'url'),
    s(13, 'record_locator'),
    { id: 14, name: 'is_continuation', required: false, type: 'boolean' },
  ];
}

const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers });
  res.end(body !== undefined ? stringifyJsonLongs(body) : undefined);
};
const icebergError = (res: ServerResponse, status: number, type: string, message: string) => send(res, status, { error: { message, type, code: status } });

export async function startWatsonxStandIn(opts: { buckets?: string[]; catalog?: string } = {}): Promise<WatsonxStandIn> {
  const catalog = opts.catalog ?? 'iceberg_data';
  const bucket = opts.buckets?.[0] ?? 'watsonx-lake';
  const dir = mkdtempSync(join(tmpdir(), 'wps-watsonx-'));
  const s3 = await startS3({ dataDir: join(dir, 's3'), buckets: opts.buckets ?? [bucket] });
  const tables = new Map<string, Table>();
  const namespaces = new Set<string>();
  const requests: WatsonxStandIn['requests'] = [];
  const injections: { match: RegExp; answer: { status: number; headers?: Record<string, string>; body?: unknown }; times: number }[] = [];
  const hooks: (() => Promise<void> | void)[] = [];
  const issued = new Set<string>();

  const persist = (key: string, t: Table) => {
    const file = join(dir, 'catalog', key, 'metadata', `${String(t.version).padStart(5, '0')}-${randomUUID()}.metadata.json`);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, stringifyJsonLongs(t.metadata));
    t.location = file;
  };

  const commit = (res: ServerResponse, key: string, body: any) => {
    const t = tables.get(key);
    if (!t) return icebergError(res, 404, 'NoSuchTableException', `Table does not exist: ${key}`);
    const meta = t.metadata;
    const mainId = meta.refs?.main?.['snapshot-id'];
    for (const r of body.requirements ?? []) {
      if (r.type === 'assert-table-uuid' && r.uuid !== meta['table-uuid']) return icebergError(res, 409, 'CommitFailedException', `Requirement failed: UUID does not match: expected ${meta['table-uuid']} != ${r.uuid}`);
      if (r.type === 'assert-ref-snapshot-id') {
        const want = r['snapshot-id'] === null || r['snapshot-id'] === undefined ? undefined : BigInt(r['snapshot-id']);
        const have = mainId === undefined ? undefined : BigInt(mainId);
        if (want !== have) return icebergError(res, 409, 'CommitFailedException', `Requirement failed: branch ${r.ref} has changed: expected id ${want ?? 'null'} != ${have ?? 'null'}`);
      }
    }
    const next: TableMetadata = structuredClone(meta);
    for (const u of body.updates ?? []) {
      if (u.action === 'add-snapshot') {
        const seq = BigInt(u.snapshot['sequence-number']);
        if (seq <= BigInt(next['last-sequence-number'] ?? 0)) return icebergError(res, 400, 'BadRequestException', `Cannot add snapshot with sequence number ${seq} older than last sequence number ${next['last-sequence-number']}`);
        next.snapshots = [...(next.snapshots ?? []), u.snapshot];
        next['last-sequence-number'] = seq;
      } else if (u.action === 'set-snapshot-ref') {
        if (!next.snapshots?.some((s) => BigInt(s['snapshot-id']) === BigInt(u['snapshot-id']))) return icebergError(res, 400, 'BadRequestException', `Cannot set ${u['ref-name']} to unknown snapshot: ${u['snapshot-id']}`);
        next.refs = { ...(next.refs ?? {}), [u['ref-name']]: { 'snapshot-id': u['snapshot-id'], type: u.type } };
        if (u['ref-name'] === 'main') next['current-snapshot-id'] = u['snapshot-id'];
      } else return icebergError(res, 400, 'BadRequestException', `Unsupported update: ${u.action}`);
    }
    (next as unknown as Record<string, unknown>)['last-updated-ms'] = Date.now();
    t.metadata = next;
    t.version += 1;
    persist(key, t);
    send(res, 200, { 'metadata-location': t.location, metadata: t.metadata });
  };

  const tls = standInTls();
  const server = createServer({ key: tls.key, cert: tls.cert }, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://x');
      const method = req.method ?? 'GET';
      if (method === 'POST' && url.pathname === '/identity/token') {
        const form = new URLSearchParams(raw);
        if (form.get('grant_type') !== 'urn:ibm:params:oauth:grant-type:apikey') return send(res, 400, { errorCode: 'BXNIM0109E', errorMessage: 'Property missing or empty: grant_type' });
        if (form.get('apikey') !== IAM_API_KEY) return send(res, 400, { errorCode: 'BXNIM0415E', errorMessage: 'Provided API key could not be found.' });
        const token = `iam-${randomUUID()}`;
        issued.add(token);
        return send(res, 200, { access_token: token, refresh_token: 'not_supported', token_type: 'Bearer', expires_in: 3600, expiration: Math.floor(Date.now() / 1000) + 3600 });
      }
      const body = raw && req.headers['content-type']?.includes('json') ? parseJsonLongs(raw) : undefined;
      requests.push({ method, path: url.pathname + url.search, body });
      const inj = injections.find((i) => i.times > 0 && i.match.test(`${method} ${url.pathname}`));
      if (inj) {
        inj.times -= 1;
        return send(res, inj.answer.status, inj.answer.body, inj.answer.headers);
      }
      if (!url.pathname.startsWith('/mds/iceberg/v1/')) return icebergError(res, 404, 'NotFoundException', `No route for ${method} ${url.pathname}`);
      const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
      if (!auth || !issued.has(auth[1]!)) return icebergError(res, 401, 'NotAuthorizedException', 'Not authorized: the bearer token is missing or not valid');
      const path = url.pathname.slice('/mds/iceberg/v1'.length);
      if (path === '/config') {
        if (url.searchParams.get('warehouse') !== catalog) return icebergError(res, 404, 'NotFoundException', `Catalog ${url.searchParams.get('warehouse')} not found`);
        return send(res, 200, { defaults: {}, overrides: { prefix: catalog } });
      }
      const m = /^\/([^/]+)\/namespaces\/([^/]+)(?:\/tables\/([^/]+))?$/.exec(path);
      if (!m || decodeURIComponent(m[1]!) !== catalog) return icebergError(res, 404, 'NotFoundException', `No route for ${method} ${url.pathname}`);
      const ns = decodeURIComponent(m[2]!).split('\u001f').join('.');
      if (!namespaces.has(ns)) return method === 'HEAD' ? send(res, 404) : icebergError(res, 404, 'NoSuchNamespaceException', `Namespace does not exist: ${ns}`);
      if (!m[3]) return method === 'HEAD' ? send(res, 204) : send(res, 200, { namespace: ns.split('.'), properties: {} });
      const key = `${ns}.${decodeURIComponent(m[3])}`;
      const t = tables.get(key);
      if (method === 'POST') {
        const hook = hooks.shift();
        if (hook) await hook();
        return commit(res, key, body);
      }
      if (!t) return method === 'HEAD' ? send(res, 404) : icebergError(res, 404, 'NoSuchTableException', `Table does not exist: ${key}`);
      if (method === 'HEAD') return send(res, 204);
      return send(res, 200, { 'metadata-location': t.location, metadata: t.metadata, config: {} });
    });
  });
  const port = await listenLocal(server);
  const previous = process.env.IBM_IAM_TOKEN_URL;
  process.env.IBM_IAM_TOKEN_URL = `https://127.0.0.1:${port}/identity/token`;

  return {
    endpoint: `https://127.0.0.1:${port}`,
    caFile: tls.certFile,
    s3Endpoint: s3.endpoint,
    catalog,
    tables,
    namespaces,
    requests,
    createTable(namespace, name, fields, o = {}) {
      namespaces.add(namespace);
      const metadata = {
        'format-version': o.formatVersion ?? 2,
        'table-uuid': randomUUID(),
        location: `s3://${bucket}/warehouse/${namespace}/${name}`,
        'last-sequence-number': 0,
        'last-updated-ms': Date.now(),
        'last-column-id': Math.max(...fields.flatMap((f) => [f.id, typeof f.type === 'object' ? Number(f.type['element-id'] ?? 0) : 0])),
        'current-schema-id': 0,
        schemas: [{ type: 'struct', 'schema-id': 0, fields }],
        'default-spec-id': 0,
        'partition-specs': [{ 'spec-id': 0, fields: o.partitioned ? [{ name: 'record_id', transform: 'identity', 'source-id': 2, 'field-id': 1000 }] : [] }],
        'last-partition-id': o.partitioned ? 1000 : 999,
        'default-sort-order-id': 0,
        'sort-orders': [{ 'order-id': 0, fields: [] }],
        properties: {},
        'current-snapshot-id': -1,
        refs: {},
        snapshots: [],
        'snapshot-log': [],
        'metadata-log': [],
      } as unknown as TableMetadata;
      const t: Table = { metadata, location: '', version: 0 };
      tables.set(`${namespace}.${name}`, t);
      persist(`${namespace}.${name}`, t);
      return metadata;
    },
    inject(match, answer, times = 1) {
      injections.push({ match, answer, times });
    },
    beforeNextCommit(fn) {
      hooks.push(fn);
    },
    revokeTokens() {
      issued.clear();
    },
    async stop() {
      if (previous === undefined) delete process.env.IBM_IAM_TOKEN_URL;
      else process.env.IBM_IAM_TOKEN_URL = previous;
      await closeServer(server);
      await s3.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface IcebergReadBack {
  metadata: TableMetadata;
  snapshotId?: bigint;
  manifestList: ManifestFile[];
  /** Live entries (status EXISTING or ADDED) of the current snapshot. */
  entries: ManifestEntry[];
  rows: Record<string, any>[];
}

/**
 * Avro longs as BigInt: snapshot ids use all 63 bits, which a JS number would round. (As avro.ts has
 * it, on purpose: the reader shares none of the writer's code.)
 */
const readerLong = avro.types.LongType.__with({
  fromBuffer: (buf: Buffer) => buf.readBigInt64LE(),
  toBuffer: (n: bigint) => {
    const buf = Buffer.alloc(8);
    buf.writeBigInt64LE(BigInt(n));
    return buf;
  },
  fromJSON: (n: unknown) => BigInt(n as string),
  toJSON: (n: bigint) => Number(n),
  isValid: (n: unknown) => typeof n === 'bigint',
  compare: (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1),
});

/** The records of an Avro object container file, decoded with the schema its header carries. */
async function readAvroFile<T>(bytes: Uint8Array): Promise<T[]> {
  const decoder = new avro.streams.BlockDecoder({
    parseHook: (schema: avro.Schema) => avro.Type.forSchema(schema, { registry: { long: readerLong } } as unknown as Parameters<typeof avro.Type.forSchema>[1]),
  });
  const records: T[] = [];
  await new Promise<void>((resolve, reject) => {
    decoder.on('data', (r: T) => records.push(r));
    decoder.on('end', () => resolve());
    decoder.on('error', reject);
    Readable.from([Buffer.from(bytes)]).pipe(decoder);
  });
  return records;
}

/** The table as an Iceberg reader sees it: the catalog's current metadata file, then Avro and Parquet from S3. */
export async function readIcebergTable(standIn: WatsonxStandIn, namespace: string, table: string): Promise<IcebergReadBack> {
  const s3 = new S3Client({ endpoint: standIn.s3Endpoint, forcePathStyle: true, region: 'us-east-1', credentials: S3RVER_CREDENTIALS });
  const get = async (uri: string) => {
    const m = /^s3:\/\/([^/]+)\/(.*)$/.exec(uri)!;
    return (await s3.send(new GetObjectCommand({ Bucket: m[1], Key: m[2] }))).Body!.transformToByteArray();
  };
  try {
    // The metadata file the catalog wrote for its current version, as a reader would open it.
    const metadata = parseJsonLongs(readFileSync(standIn.tables.get(`${namespace}.${table}`)!.location, 'utf8')) as TableMetadata;
    const id = metadata.refs?.main?.['snapshot-id'];
    if (id === undefined) return { metadata, manifestList: [], entries: [], rows: [] };
    const snap = metadata.snapshots!.find((s) => BigInt(s['snapshot-id']) === BigInt(id))!;
    const manifestList = (await readAvroFile<ManifestFile>(await get(snap['manifest-list'])));
    const entries: ManifestEntry[] = [];
    for (const m of manifestList) entries.push(...(await readAvroFile<ManifestEntry>(await get(m.manifest_path))).filter((e) => e.status !== 2));
    const rows: Record<string, any>[] = [];
    for (const e of entries) {
      const bytes = await get(e.data_file.file_path);
      rows.push(...((await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer })) as Record<string, any>[]));
    }
    return { metadata, snapshotId: BigInt(id), manifestList, entries, rows };
  } finally {
    s3.destroy();
  }
}
