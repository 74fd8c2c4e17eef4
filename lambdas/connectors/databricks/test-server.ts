// Test-only: a Databricks workspace stand-in speaking the REST API the volumes destination uses, as
// the Databricks SDK sends it: OAuth M2M tokens (POST /oidc/v1/token, client credentials in Basic
// auth), SCIM Me, Files API directory metadata (HEAD /api/2.0/fs/directories/Volumes/...), uploads
// (PUT /api/2.0/fs/files/Volumes/...?overwrite=true) and, for the source, directory listings
// (GET /api/2.0/fs/directories/..., paged by page_token, `listPageSize` entries a page) and downloads
// (GET /api/2.0/fs/files/...), with Databricks' error bodies. It keeps every uploaded file (parsed
// JSON, and its bytes, size and modification time) by its volume path. HTTPS only, as the client
// requires (every call carries a secret): the connector trusts it through CONNECTOR_CA_FILE = caFile
// (standInTls()). Imported only by tests and benches.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { standInTls, startStandIn, type Fault, type SeenRequest } from '../records/stand-in';
import { startWarehouse, type Warehouse } from './warehouse-stand-in';

export interface DatabricksStandIn {
  /** https://127.0.0.1:<port> */
  url: string;
  /** The PEM file of the stand-in's certificate, for CONNECTOR_CA_FILE. */
  caFile: string;
  /** Uploaded files by decoded path (/Volumes/c/s/v/...): their parsed JSON content. */
  files: Map<string, unknown>;
  /** Puts a file as an upload would (the source's tests seed volumes with it). */
  put(path: string, data: Uint8Array | string): void;
  requests: SeenRequest[];
  /** The SQL warehouse at /sql/1.0/warehouses/<warehouse.id> (when asked for). */
  warehouse?: Warehouse;
  fail(fault: Fault): void;
  stop(): Promise<void>;
}

export async function startDatabricksStandIn(opts: {
  clients: Record<string, string>;
  volumes: string[];
  /** Personal access tokens accepted as Bearer tokens (token -> user name). */
  tokens?: Record<string, string>;
  /** A SQL warehouse: its id and the Unity Catalog catalogs with their databases. */
  warehouse?: { id: string; catalogs: Record<string, string[]> };
  /** Entries per directory listing page (the Files API's default is 1000). */
  listPageSize?: number;
}): Promise<DatabricksStandIn> {
  const files = new Map<string, unknown>();
  const meta = new Map<string, { size: number; modified: number }>();
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const store = (path: string, raw: Buffer) => {
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      body = undefined;
    }
    files.set(path, body);
    writeFileSync(onDisk(path), raw);
    clock = Math.max(clock + 1000, Date.now());
    meta.set(path, { size: raw.length, modified: clock });
  };
  const issued = new Map<string, string>(Object.entries(opts.tokens ?? {}));
  // Uploaded bytes on disk too, so the warehouse's engine reads them as json.`/Volumes/...` sources.
  const dir = mkdtempSync(join(tmpdir(), 'wps-dbx-'));
  const onDisk = (path: string) => join(dir, `${createHash('sha256').update(path).digest('hex')}.json`);
  const warehouse = opts.warehouse && (await startWarehouse({ catalogs: opts.warehouse.catalogs, fileFor: (p) => (files.has(p) ? onDisk(p) : undefined) }));
  const volumes = new Set(opts.volumes.map((v) => `/Volumes/${v.split('.').join('/')}`));
  const volumeOf = (path: string) => path.split('/').slice(0, 5).join('/');
  const tls = standInTls();
  const server = await startStandIn((req) => {
    if (req.method === 'POST' && req.path === '/oidc/v1/token') {
      const [id, secret] = Buffer.from(String(req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8').split(':');
      if (!id || opts.clients[id] !== secret) return { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } };
      const token = `dapi-${randomUUID()}`;
      issued.set(token, id);
      return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: 'all-apis' } };
    }
    const who = issued.get(String(req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!who) return { status: 401, body: { error_code: '401', message: 'Credential was not sent or was of an unsupported type for this API.' } };
    if (warehouse && req.method === 'POST' && req.path === `/sql/1.0/warehouses/${opts.warehouse!.id}`) {
      return warehouse.handle(req.raw).then((body) => ({ status: 200, body }));
    }
    if (req.method === 'GET' && req.path === '/api/2.0/preview/scim/v2/Me') {
      return { status: 200, body: { userName: who, displayName: `sp-${who}`, active: true, schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'] } };
    }
    const dir = /^\/api\/2\.0\/fs\/directories(\/Volumes\/.+)$/.exec(req.path);
    if (dir && req.method === 'HEAD') return { status: volumes.has(volumeOf(decodeURIComponent(dir[1]!))) ? 200 : 404 };
    if (dir && req.method === 'GET') {
      const path = dir[1]!.split('/').map(decodeURIComponent).join('/').replace(/\/$/, '');
      if (!volumes.has(volumeOf(path))) return { status: 404, body: { error_code: 'NOT_FOUND', message: `The directory being accessed is not found.` } };
      // Direct children: files, and the first segment of deeper paths as directories.
      const entries = new Map<string, { path: string; is_directory: boolean; file_size?: number; last_modified?: number; name: string }>();
      for (const [p, m] of [...meta].sort(([a], [b]) => (a < b ? -1 : 1))) {
        if (!p.startsWith(`${path}/`)) continue;
        const [name, ...rest] = p.slice(path.length + 1).split('/');
        const full = `${path}/${name}`;
        if (rest.length) entries.set(full, { path: `${full}/`, is_directory: true, name: name! });
        else entries.set(full, { path: full, is_directory: false, file_size: m.size, last_modified: m.modified, name: name! });
      }
      const all = [...entries.values()];
      if (!all.length && ![...volumes].includes(path) && ![...meta.keys()].some((p) => p.startsWith(`${path}/`))) {
        return { status: 404, body: { error_code: 'NOT_FOUND', message: `The directory being accessed is not found.` } };
      }
      const size = Math.min(Number(req.query.get('page_size') ?? 1000), opts.listPageSize ?? 1000);
      const start = Number(req.query.get('page_token') ?? 0);
      const page = all.slice(start, start + size);
      return { status: 200, body: { contents: page, ...(start + size < all.length ? { next_page_token: String(start + size) } : {}) } };
    }
    const file = /^\/api\/2\.0\/fs\/files(\/Volumes\/.+)$/.exec(req.path);
    if (file && req.method === 'PUT') {
      const path = file[1]!.split('/').map(decodeURIComponent).join('/');
      if (!volumes.has(volumeOf(path))) return { status: 404, body: { error_code: 'NOT_FOUND', message: `Volume '${volumeOf(path).slice(9).split('/').join('.')}' does not exist.` } };
      if (files.has(path) && req.query.get('overwrite') !== 'true') return { status: 409, body: { error_code: 'ALREADY_EXISTS', message: `The file being created already exists.` } };
      store(path, req.raw);
      return { status: 204 };
    }
    if (file && req.method === 'GET') {
      const path = file[1]!.split('/').map(decodeURIComponent).join('/');
      const m = meta.get(path);
      if (!m) return { status: 404, body: { error_code: 'NOT_FOUND', message: 'The file being accessed is not found.' } };
      return { status: 200, body: readFileSync(onDisk(path)), headers: { 'content-type': 'application/octet-stream', 'last-modified': new Date(m.modified).toUTCString() } };
    }
    if (file && req.method === 'DELETE') {
      const path = file[1]!.split('/').map(decodeURIComponent).join('/');
      if (!files.delete(path)) return { status: 404, body: { error_code: 'NOT_FOUND', message: 'The file being accessed is not found.' } };
      meta.delete(path);
      unlinkSync(onDisk(path));
      return { status: 204 };
    }
    return { status: 404, body: { error_code: 'ENDPOINT_NOT_FOUND', message: `No API found for '${req.method} ${req.path}'` } };
  }, { tls });
  return {
    url: server.url,
    caFile: tls.certFile,
    files,
    requests: server.requests,
    warehouse,
    put: (path, data) => store(path, Buffer.from(data)),
    fail: (f) => server.fail(f),
    stop: async () => {
      await server.stop();
      warehouse?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
