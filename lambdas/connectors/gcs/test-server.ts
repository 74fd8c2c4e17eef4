// A local stand-in for the Google Cloud Storage JSON API, as @google-cloud/storage uses it (tests and
// benchmarks only; no handler imports it): multipart uploads (POST /upload/storage/v1/b/<b>/o
// ?uploadType=multipart, a multipart/related body of JSON metadata + media), resumable sessions (POST
// ...?uploadType=resumable answers a Location; PUT chunks with Content-Range, 308 until the last),
// bucket metadata (GET /storage/v1/b/<b>), object list and get (GET .../o, .../o/<name>[?alt=media]);
// the list pages as GCS does (maxResults capped by the stand-in's pageSize, nextPageToken, prefix,
// delimiter folding names into `prefixes`), and media carries x-goog-hash for the client's validation.
// Every call must carry a bearer token that is a JWT signed (RS256) by a service account key the
// test made: the stand-in checks the signature with the key's public half, the key id, the issuer,
// the expiry and the devstorage scope, so a wrong key is a 401 as Google answers it. Objects carry
// md5Hash and crc32c computed as Google does, since the client validates them after an upload.
import { createHash, createPublicKey, generateKeyPairSync, randomUUID, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { CRC32C } from '@google-cloud/storage';
import { closeServer, faultBook, listenLocal, writeJsonReply, type StandInFault } from '../rest-test-server';

export interface StoredObject {
  bucket: string;
  name: string;
  data: Buffer;
  contentType: string;
  generation: number;
  /** 'multipart', 'resumable' or 'seeded' (put by the test). */
  uploadType: string;
  created: Date;
}

export interface SeenCall {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The service account that signed the call, when the token verified. */
  caller?: string;
  status: number;
}

export type GcsFault = StandInFault;

export interface GcsStandIn {
  /** The API endpoint (GCS_API_ENDPOINT / apiEndpoint). */
  url: string;
  port: number;
  calls: SeenCall[];
  createBucket(name: string): void;
  objects(bucket: string): StoredObject[];
  object(bucket: string, name: string): StoredObject | undefined;
  fail(fault: GcsFault): void;
  /** Stores an object as an upload would (a new generation), for source tests. */
  put(bucket: string, name: string, data: Buffer | string, contentType?: string): StoredObject;
  remove(bucket: string, name: string): void;
  stop(): Promise<void>;
}

export interface TestServiceAccount {
  email: string;
  /** The JSON key as a tenant pastes it into service_account_key. */
  keyJson: string;
  publicKey: KeyObject;
  keyId: string;
}

/** A fresh service account key (RSA 2048), as the Cloud console's JSON key download has it. */
export function makeServiceAccount(email = 'writer@test-project.iam.gserviceaccount.com'): TestServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyId = randomUUID().replace(/-/g, '');
  const keyJson = JSON.stringify({
    type: 'service_account',
    project_id: 'test-project',
    private_key_id: keyId,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: email,
    client_id: '100000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
  });
  return { email, keyJson, publicKey: createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })), keyId };
}

function gcsError(status: number, message: string, reason: string) {
  return { error: { code: status, message, errors: [{ message, domain: 'global', reason }] } };
}

function b64url(s: string): Buffer {
  return Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** The signing service account's email, or a reason the token is refused. */
function verifyBearer(header: string | undefined, accounts: TestServiceAccount[]): { email?: string; problem?: string } {
  const m = /^Bearer (.+)$/.exec(header ?? '');
  if (!m) return { problem: 'Anonymous caller does not have storage.objects.create access.' };
  const parts = m[1]!.split('.');
  if (parts.length !== 3) return { problem: 'Invalid Credentials' };
  let head: { alg?: string; kid?: string };
  let claims: { iss?: string; sub?: string; scope?: string; exp?: number };
  try {
    head = JSON.parse(b64url(parts[0]!).toString('utf8'));
    claims = JSON.parse(b64url(parts[1]!).toString('utf8'));
  } catch {
    return { problem: 'Invalid Credentials' };
  }
  const sa = accounts.find((a) => a.email === claims.iss && a.keyId === head.kid);
  if (head.alg !== 'RS256' || !sa) return { problem: 'Invalid Credentials' };
  if (!verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), sa.publicKey, b64url(parts[2]!))) return { problem: 'Invalid Credentials' };
  if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) return { problem: 'Invalid Credentials' };
  if (!String(claims.scope ?? '').split(' ').some((s) => s.startsWith('https://www.googleapis.com/auth/devstorage') || s === 'https://www.googleapis.com/auth/cloud-platform')) {
    return { problem: 'Request had insufficient authentication scopes.' };
  }
  return { email: sa.email };
}

/** Splits a multipart/related body into its parts' bodies. */
function multipartParts(body: Buffer, contentType: string): Buffer[] {
  const b = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!b) return [];
  const delim = Buffer.from(`--${b}`);
  const parts: Buffer[] = [];
  let at = body.indexOf(delim);
  while (at >= 0) {
    const start = at + delim.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delim, start);
    if (next < 0) break;
    const part = body.subarray(start, next);
    const sep = part.indexOf('\r\n\r\n');
    // The part body ends before the CRLF that precedes the next delimiter.
    parts.push(sep < 0 ? Buffer.alloc(0) : part.subarray(sep + 4, part.length - 2));
    at = next;
  }
  return parts;
}

export async function startGcsStandIn(opts: { accounts: TestServiceAccount[]; buckets?: string[]; pageSize?: number }): Promise<GcsStandIn> {
  const buckets = new Map<string, Map<string, StoredObject>>();
  for (const b of opts.buckets ?? []) buckets.set(b, new Map());
  const calls: SeenCall[] = [];
  const faults = faultBook<SeenCall>();
  const sessions = new Map<string, { bucket: string; name: string; contentType: string; received: Buffer[]; size: number }>();
  let generation = 1_700_000_000_000_000;
  let base = '';

  function resource(o: StoredObject) {
    const crc = new CRC32C();
    crc.update(o.data);
    return {
      kind: 'storage#object',
      id: `${o.bucket}/${o.name}/${o.generation}`,
      name: o.name,
      bucket: o.bucket,
      generation: String(o.generation),
      contentType: o.contentType,
      size: String(o.data.length),
      md5Hash: createHash('md5').update(o.data).digest('base64'),
      crc32c: crc.toString(),
      // GCS's etag changes with every generation (and metageneration) of the object.
      etag: Buffer.from(`${o.generation}/1`).toString('base64'),
      timeCreated: o.created.toISOString(),
      updated: o.created.toISOString(),
    };
  }

  function store(bucket: string, name: string, data: Buffer, contentType: string, uploadType: string) {
    const o: StoredObject = { bucket, name, data, contentType, generation: ++generation, uploadType, created: new Date() };
    buckets.get(bucket)!.set(name, o);
    return resource(o);
  }

  function handle(req: IncomingMessage, body: Buffer, url: URL): { status: number; body?: unknown; headers?: Record<string, string> } {
    const q = url.searchParams;
    const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
    const bucketPath = /^\/storage\/v1\/b\/([^/]+)(\/o(?:\/(.+))?)?$/.exec(url.pathname);
    const bucketName = decodeURIComponent((upload ?? bucketPath)?.[1] ?? '');
    if (!upload && !bucketPath) return { status: 404, body: gcsError(404, 'Not Found', 'notFound') };
    const objects = buckets.get(bucketName);
    if (!objects) return { status: 404, body: gcsError(404, 'The specified bucket does not exist.', 'notFound') };
    if (upload && req.method === 'POST' && q.get('uploadType') === 'multipart') {
      const parts = multipartParts(body, String(req.headers['content-type'] ?? ''));
      const meta = parts[0] ? (JSON.parse(parts[0].toString('utf8')) as { name?: string; contentType?: string }) : {};
      const name = q.get('name') ?? meta.name;
      if (!name || parts.length < 2) return { status: 400, body: gcsError(400, 'Upload requests must include an uploadType URL parameter and a URL-encoded name.', 'invalid') };
      return { status: 200, body: store(bucketName, name, parts[1]!, meta.contentType ?? 'application/octet-stream', 'multipart') };
    }
    if (upload && req.method === 'POST' && q.get('uploadType') === 'resumable') {
      const meta = body.length ? (JSON.parse(body.toString('utf8')) as { name?: string; contentType?: string }) : {};
      const name = q.get('name') ?? meta.name;
      if (!name) return { status: 400, body: gcsError(400, 'Required: name', 'required') };
      const id = randomUUID();
      sessions.set(id, { bucket: bucketName, name, contentType: meta.contentType ?? String(req.headers['x-upload-content-type'] ?? 'application/octet-stream'), received: [], size: 0 });
      return { status: 200, headers: { location: `${base}/upload/storage/v1/b/${encodeURIComponent(bucketName)}/o?uploadType=resumable&name=${encodeURIComponent(name)}&upload_id=${id}` } };
    }
    if (upload && req.method === 'PUT' && q.get('upload_id')) {
      const s = sessions.get(q.get('upload_id')!);
      if (!s) return { status: 404, body: gcsError(404, 'No such upload session', 'notFound') };
      const range = String(req.headers['content-range'] ?? '');
      const m = /^bytes (\*|(\d+)-(\d+|\*))\/(\d+|\*)$/.exec(range);
      if (!m) return { status: 400, body: gcsError(400, `Invalid Content-Range: ${range}`, 'invalid') };
      if (m[1] === '*') {
        // A status query: how much arrived.
        return s.size ? { status: 308, headers: { range: `bytes=0-${s.size - 1}` } } : { status: 308 };
      }
      if (Number(m[2]) !== s.size) return { status: 503, body: gcsError(503, 'offset mismatch', 'backendError') };
      s.received.push(body);
      s.size += body.length;
      // `bytes N-*/*` sends the rest of the object in this request: it ends the upload, as in GCS.
      const total = m[3] === '*' ? s.size : m[4] === '*' ? undefined : Number(m[4]);
      if (total === undefined || s.size < total) return { status: 308, headers: { range: `bytes=0-${s.size - 1}` } };
      sessions.delete(q.get('upload_id')!);
      return { status: 200, body: store(s.bucket, s.name, Buffer.concat(s.received), s.contentType, 'resumable') };
    }
    if (bucketPath && req.method === 'GET' && !bucketPath[2]) {
      return { status: 200, body: { kind: 'storage#bucket', id: bucketName, name: bucketName, location: 'US', storageClass: 'STANDARD' } };
    }
    if (bucketPath && req.method === 'GET' && bucketPath[2] && !bucketPath[3]) {
      // Lexicographic order, `delimiter` folding into prefixes, pages of at most maxResults (and of
      // the stand-in's pageSize, as GCS caps a page at 1000), nextPageToken = the last name served.
      const prefix = q.get('prefix') ?? '';
      const delimiter = q.get('delimiter') ?? '';
      const after = q.get('pageToken') ? Buffer.from(q.get('pageToken')!, 'base64url').toString('utf8') : '';
      const limit = Math.min(Number(q.get('maxResults') ?? 1000) || 1000, opts.pageSize ?? 1000);
      const names = [...objects.keys()].filter((n) => n.startsWith(prefix)).sort();
      const entries: { name: string; prefix?: string }[] = [];
      const seen = new Set<string>();
      for (const n of names) {
        const cut = delimiter ? n.indexOf(delimiter, prefix.length) : -1;
        if (cut < 0) entries.push({ name: n });
        else if (!seen.has(n.slice(0, cut + 1))) {
          seen.add(n.slice(0, cut + 1));
          entries.push({ name: n.slice(0, cut + 1), prefix: n.slice(0, cut + 1) });
        }
      }
      const rest = entries.filter((e) => e.name > after);
      const page = rest.slice(0, limit);
      const more = rest.length > page.length;
      const items = page.filter((e) => !e.prefix).map((e) => resource(objects.get(e.name)!));
      const prefixes = page.filter((e) => e.prefix).map((e) => e.prefix!);
      return {
        status: 200,
        body: {
          kind: 'storage#objects',
          ...(items.length ? { items } : {}),
          ...(prefixes.length ? { prefixes } : {}),
          ...(more ? { nextPageToken: Buffer.from(page.at(-1)!.name, 'utf8').toString('base64url') } : {}),
        },
      };
    }
    if (bucketPath && req.method === 'GET' && bucketPath[3]) {
      const o = objects.get(decodeURIComponent(bucketPath[3]));
      if (!o) return { status: 404, body: gcsError(404, `No such object: ${bucketName}/${decodeURIComponent(bucketPath[3])}`, 'notFound') };
      if (q.get('alt') !== 'media') return { status: 200, body: resource(o) };
      const r = resource(o);
      // GCS sends the stored hashes with the media; the client validates the download against them.
      return { status: 200, body: o.data, headers: { 'content-type': o.contentType, 'x-goog-hash': `crc32c=${r.crc32c},md5=${r.md5Hash}`, 'x-goog-generation': r.generation } };
    }
    return { status: 405, body: gcsError(405, `${req.method} ${url.pathname} is not served by the stand-in`, 'notImplemented') };
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://gcs');
      const call: SeenCall = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, status: 0 };
      calls.push(call);
      let reply: { status: number; body?: unknown; headers?: Record<string, string> };
      const fault = faults.take(call);
      const auth = verifyBearer(req.headers.authorization, opts.accounts);
      call.caller = auth.email;
      if (fault) {
        reply = fault;
      } else if (auth.problem && !(req.method === 'PUT' && sessions.has(url.searchParams.get('upload_id') ?? ''))) {
        // A resumable session's URI is its own credential (GCS accepts its PUTs without a token).
        reply = { status: 401, body: gcsError(401, auth.problem, 'required'), headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' } };
      } else {
        try {
          reply = handle(req, body, url);
        } catch (err) {
          reply = { status: 500, body: gcsError(500, `stand-in failure: ${(err as Error).message}`, 'backendError') };
        }
      }
      call.status = reply.status;
      writeJsonReply(res, reply, 'application/json; charset=UTF-8');
    });
  });
  const port = await listenLocal(server);
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    port,
    calls,
    createBucket: (name) => void buckets.set(name, buckets.get(name) ?? new Map()),
    objects: (bucket) => [...(buckets.get(bucket)?.values() ?? [])],
    object: (bucket, name) => buckets.get(bucket)?.get(name),
    fail: faults.fail,
    put(bucket, name, data, contentType = 'application/octet-stream') {
      if (!buckets.has(bucket)) buckets.set(bucket, new Map());
      store(bucket, name, Buffer.from(data), contentType, 'seeded');
      return buckets.get(bucket)!.get(name)!;
    },
    remove: (bucket, name) => void buckets.get(bucket)?.delete(name),
    stop: () => closeServer(server),
  };
}
