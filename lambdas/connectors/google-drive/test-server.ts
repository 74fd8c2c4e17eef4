// A local stand-in for the Google Drive v3 REST API and Google's OAuth token endpoint, as
// @googleapis/drive and google-auth-library use them (tests only; no handler imports it).
//
// Token endpoint (POST /token, form grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer,
// assertion=<JWT>): the assertion must be signed (RS256) by a service account key the test made, for
// the audience Google's token URL, unexpired, with a drive scope; the answer is an access token the
// API then accepts (invalid_grant otherwise, Google's text). An oauth_token made by the test
// (`userToken`) is accepted directly.
// API: GET /drive/v3/files/<id> (metadata), ?alt=media (bytes), /drive/v3/files/<id>/export
// ?mimeType= (a native Google file exported: the test registers the exported bytes), GET
// /drive/v3/files?q= with the query shapes the connector sends ('<id>' in parents and trashed =
// false [and (fileExtension = 'x' or mimeType = 'y' ...)]), paged by pageToken (pageSize capped by
// the stand-in's pageSize). Errors are Google's JSON error bodies.
import { randomUUID, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { TestServiceAccount } from '../gcs/test-server';
import { closeServer, faultBook, listenLocal, writeJsonReply, type StandInFault } from '../rest-test-server';

export const FOLDER_MIME = 'application/vnd.google-apps.folder';
/** The token URL google-auth-library's JWT client (gtoken) posts to and puts in the assertion's aud. */
export const GOOGLE_TOKEN_URL = 'https://www.googleapis.com/oauth2/v4/token';

export interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  data?: Buffer;
  /** Bytes served by files.export, per export mime type (native Google files). */
  exports?: Record<string, Buffer>;
  version: number;
  createdTime: string;
  modifiedTime: string;
  trashed?: boolean;
  permissions?: { id: string; type: string; role: string }[];
}

export interface SeenCall {
  method: string;
  path: string;
  query: URLSearchParams;
  status: number;
  /** Who the bearer token was issued to. */
  caller?: string;
}

export type DriveFault = StandInFault;

export interface DriveStandIn {
  /** The API root (rootUrl of the client). */
  url: string;
  /** The token endpoint. */
  tokenUrl: string;
  port: number;
  calls: SeenCall[];
  /** An OAuth access token the API accepts as a user's (the oauth_token field). */
  userToken: string;
  folder(id: string, name: string, parent?: string): DriveFile;
  file(f: Partial<DriveFile> & { id: string; name: string; parents: string[] }): DriveFile;
  /** Rewrites a file's content: a new version and modifiedTime. */
  update(id: string, data: Buffer | string): DriveFile;
  get(id: string): DriveFile | undefined;
  fail(fault: DriveFault): void;
  stop(): Promise<void>;
}

function apiError(status: number, message: string, reason: string) {
  return { error: { code: status, message, errors: [{ message, domain: 'global', reason }] } };
}

const b64url = (s: string) => Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');

/** The service account a jwt-bearer assertion is signed by, or Google's refusal text. */
function verifyAssertion(jwt: string, accounts: TestServiceAccount[]): { email?: string; problem?: string } {
  const parts = jwt.split('.');
  if (parts.length !== 3) return { problem: 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe' };
  let head: { alg?: string; kid?: string };
  let claims: { iss?: string; aud?: string; scope?: string; exp?: number; iat?: number };
  try {
    head = JSON.parse(b64url(parts[0]!).toString('utf8'));
    claims = JSON.parse(b64url(parts[1]!).toString('utf8'));
  } catch {
    return { problem: 'Invalid JWT Signature.' };
  }
  const sa = accounts.find((a) => a.email === claims.iss);
  if (!sa || head.alg !== 'RS256') return { problem: 'Invalid grant: account not found' };
  if (!verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), sa.publicKey, b64url(parts[2]!))) return { problem: 'Invalid JWT Signature.' };
  if (claims.aud !== GOOGLE_TOKEN_URL) return { problem: `Invalid JWT: audience ${claims.aud} is not the token endpoint` };
  if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) return { problem: 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe' };
  if (!String(claims.scope ?? '').split(' ').some((s) => s.startsWith('https://www.googleapis.com/auth/drive'))) return { problem: 'Invalid OAuth scope or ID token audience provided.' };
  return { email: sa.email };
}

/** Parses the q shapes the connector sends; undefined when the stand-in does not understand it. */
function parseQuery(q: string): { parent: string; extensions: string[]; mimeTypes: string[] } | undefined {
  const m = /^'([^']+)' in parents and trashed = false(?: and \((.+)\))?$/.exec(q);
  if (!m) return undefined;
  const extensions: string[] = [];
  const mimeTypes: string[] = [];
  for (const clause of (m[2] ?? '').split(' or ').filter(Boolean)) {
    const c = /^(fileExtension|mimeType) = '([^']*)'$/.exec(clause);
    if (!c) return undefined;
    (c[1] === 'fileExtension' ? extensions : mimeTypes).push(c[2]!);
  }
  return { parent: m[1]!, extensions, mimeTypes: m[2] ? mimeTypes : [] };
}

export async function startDriveStandIn(opts: { accounts: TestServiceAccount[]; pageSize?: number }): Promise<DriveStandIn> {
  const files = new Map<string, DriveFile>();
  const calls: SeenCall[] = [];
  const faults = faultBook<SeenCall>();
  const tokens = new Map<string, string>();
  const userToken = `ya29.user-${randomUUID()}`;
  tokens.set(userToken, 'user@example.com');
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const now = () => new Date((clock += 1000)).toISOString();

  function resource(f: DriveFile) {
    const ext = /\.([^.]+)$/.exec(f.name)?.[1];
    const native = f.mimeType.startsWith('application/vnd.google-apps.');
    return {
      kind: 'drive#file',
      id: f.id,
      name: f.name,
      mimeType: f.mimeType,
      parents: f.parents,
      version: String(f.version),
      createdTime: f.createdTime,
      modifiedTime: f.modifiedTime,
      webViewLink: `https://drive.google.com/file/d/${f.id}/view?usp=drivesdk`,
      ...(native || f.mimeType === FOLDER_MIME ? {} : { webContentLink: `https://drive.google.com/uc?id=${f.id}&export=download` }),
      ...(f.data && !native ? { size: String(f.data.length), fileExtension: ext, md5Checksum: 'x' } : {}),
      ...(f.permissions ? { permissions: f.permissions } : {}),
    };
  }

  function handle(req: IncomingMessage, url: URL, caller: string | undefined, body: string): { status: number; body?: unknown; headers?: Record<string, string> } {
    const q = url.searchParams;
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(body);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' } };
      const v = verifyAssertion(form.get('assertion') ?? '', opts.accounts);
      if (v.problem) return { status: 400, body: { error: 'invalid_grant', error_description: v.problem } };
      const token = `ya29.sa-${randomUUID()}`;
      tokens.set(token, v.email!);
      return { status: 200, body: { access_token: token, expires_in: 3599, token_type: 'Bearer' } };
    }
    if (!caller) {
      return { status: 401, body: apiError(401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', 'authError'), headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' } };
    }
    if (req.method !== 'GET') return { status: 405, body: apiError(405, 'Method not allowed by the stand-in', 'notImplemented') };
    if (url.pathname === '/drive/v3/files') {
      const parsed = parseQuery(q.get('q') ?? '');
      if (!parsed) return { status: 400, body: apiError(400, 'Invalid Value', 'invalid') };
      const limit = Math.min(Number(q.get('pageSize') ?? 100) || 100, opts.pageSize ?? 1000);
      const matches = [...files.values()]
        .filter((f) => f.parents.includes(parsed.parent) && !f.trashed)
        .filter((f) => {
          if (!parsed.extensions.length && !parsed.mimeTypes.length) return true;
          const ext = /\.([^.]+)$/.exec(f.name)?.[1];
          const hasExt = f.data && !f.mimeType.startsWith('application/vnd.google-apps.') && ext;
          return (hasExt && parsed.extensions.includes(ext)) || parsed.mimeTypes.includes(f.mimeType);
        })
        .sort((a, b) => (a.id < b.id ? -1 : 1));
      const start = q.get('pageToken') ? Number(Buffer.from(q.get('pageToken')!, 'base64url').toString()) : 0;
      if (!Number.isInteger(start) || start < 0) return { status: 400, body: apiError(400, 'Invalid Value', 'invalid') };
      const page = matches.slice(start, start + limit);
      const next = start + limit < matches.length ? Buffer.from(String(start + limit)).toString('base64url') : undefined;
      return { status: 200, body: { kind: 'drive#fileList', files: page.map(resource), ...(next ? { nextPageToken: next } : {}), incompleteSearch: false } };
    }
    const one = /^\/drive\/v3\/files\/([^/]+)(\/export)?$/.exec(url.pathname);
    if (!one) return { status: 404, body: apiError(404, 'Not Found', 'notFound') };
    const f = files.get(decodeURIComponent(one[1]!));
    if (!f || f.trashed) return { status: 404, body: apiError(404, `File not found: ${decodeURIComponent(one[1]!)}.`, 'notFound') };
    if (one[2]) {
      const mime = q.get('mimeType') ?? '';
      const out = f.exports?.[mime];
      if (!f.mimeType.startsWith('application/vnd.google-apps.')) return { status: 403, body: apiError(403, 'Export only supports Docs Editors files.', 'fileNotExportable') };
      if (!out) return { status: 400, body: apiError(400, 'The requested conversion is not supported.', 'badRequest') };
      return { status: 200, body: out, headers: { 'content-type': mime } };
    }
    if (q.get('alt') === 'media') {
      if (f.mimeType.startsWith('application/vnd.google-apps.')) return { status: 403, body: apiError(403, 'Only files with binary content can be downloaded. Use Export with Docs Editors files.', 'fileNotDownloadable') };
      return { status: 200, body: f.data ?? Buffer.alloc(0), headers: { 'content-type': f.mimeType } };
    }
    return { status: 200, body: resource(f) };
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://drive');
      const call: SeenCall = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, status: 0 };
      calls.push(call);
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      call.caller = bearer ? tokens.get(bearer) : undefined;
      let reply: { status: number; body?: unknown; headers?: Record<string, string> };
      const fault = faults.take(call);
      if (fault) {
        reply = fault;
      } else {
        try {
          reply = handle(req, url, call.caller, Buffer.concat(chunks).toString('utf8'));
        } catch (err) {
          reply = { status: 500, body: apiError(500, `stand-in failure: ${(err as Error).message}`, 'backendError') };
        }
      }
      call.status = reply.status;
      writeJsonReply(res, reply, 'application/json; charset=UTF-8');
    });
  });
  const port = await listenLocal(server);
  const base = `http://127.0.0.1:${port}`;

  function add(f: DriveFile): DriveFile {
    files.set(f.id, f);
    return f;
  }
  return {
    url: `${base}/`,
    tokenUrl: `${base}/token`,
    port,
    calls,
    userToken,
    folder: (id, name, parent) => add({ id, name, mimeType: FOLDER_MIME, parents: parent ? [parent] : [], version: 1, createdTime: now(), modifiedTime: now() }),
    file: (f) => add({ mimeType: 'application/octet-stream', version: 1, createdTime: now(), modifiedTime: now(), ...f }),
    update(id, data) {
      const f = files.get(id)!;
      f.data = Buffer.from(data);
      f.version += 1;
      f.modifiedTime = now();
      return f;
    },
    get: (id) => files.get(id),
    fail: faults.fail,
    stop: () => closeServer(server),
  };
}
