// A local HTTPS stand-in for Microsoft Entra ID (the authority: OpenID configuration and the v2.0
// token endpoint, client-credentials grant) and Microsoft Graph's OneDrive calls, as
// @azure/identity (MSAL) and @microsoft/microsoft-graph-client use them (tests and benchmarks only):
// GET /users/<upn>/drive, GET|PUT /users/<upn>/drive/root:/<path>:[/content], POST .../root/children
// (folder), POST .../root:/<path>:/createUploadSession and PUT <uploadUrl> slices with Content-Range
// (202 with nextExpectedRanges until the last, then the driveItem). Graph calls must carry a token
// the token endpoint issued (the client secret checked there); upload URLs carry their own
// authority, as Graph's do. The certificate is self-signed (selfSignedCert): clients trust it
// through CONNECTOR_CA_FILE. It keeps every file it receives.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { selfSignedCert } from '../azure-ai-search/test-server';
import { closeServer, faultBook, listenLocal, writeJsonReply, type StandInFault } from '../rest-test-server';

export { selfSignedCert };

export interface DriveFile {
  path: string;
  data: Buffer;
  /** 'simple' (PUT content) or 'session' (upload session). */
  via: 'simple' | 'session';
  conflictBehavior?: string;
  version: number;
}

export interface GraphCall {
  method: string;
  path: string;
  query: URLSearchParams;
  status: number;
  authorized: boolean;
  bytes: number;
  /** When it arrived (Date.now()). */
  at: number;
}

export type GraphFault = StandInFault<{ method: string; path: string }>;

export interface OneDriveStandIn {
  /** https://127.0.0.1:<port>: the authority host and the Graph base. */
  url: string;
  port: number;
  tenant: string;
  clientId: string;
  clientSecret: string;
  calls: GraphCall[];
  /** Tokens issued so far. */
  tokensIssued: number;
  addUser(upn: string): void;
  files(upn: string): DriveFile[];
  file(upn: string, path: string): DriveFile | undefined;
  folders(upn: string): string[];
  fail(fault: GraphFault): void;
  stop(): Promise<void>;
}

const graphError = (code: string, message: string) => ({ error: { code, message, innerError: { date: new Date().toISOString(), 'request-id': randomUUID() } } });

/** A reply of the stand-in: status, JSON (or raw bytes) body, headers. */
export interface GraphReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * More Graph routes (the sources' stand-in, test-server-sources.ts): consulted before the
 * destination's; undefined passes the call on. `authorized` says whether it carried an issued token.
 */
export type GraphRoutes = (call: { method: string; url: URL; base: string; authorized: boolean; body: Buffer }) => GraphReply | undefined;

export async function startOneDriveStandIn(opts: { tls: { key: string; cert: string }; tenant?: string; clientId?: string; clientSecret?: string; users?: string[]; routes?: GraphRoutes }): Promise<OneDriveStandIn> {
  const tenant = opts.tenant ?? 'contoso.onmicrosoft.com';
  const clientId = opts.clientId ?? randomUUID();
  const clientSecret = opts.clientSecret ?? `secret-${randomUUID()}`;
  const drives = new Map<string, { files: Map<string, DriveFile>; folders: Set<string> }>();
  for (const u of opts.users ?? []) drives.set(u.toLowerCase(), { files: new Map(), folders: new Set() });
  const tokens = new Set<string>();
  const sessions = new Map<string, { upn: string; path: string; conflictBehavior?: string; parts: Buffer[]; size: number }>();
  const calls: GraphCall[] = [];
  const faults = faultBook<GraphCall>();
  let version = 0;
  let base = '';
  let issued = 0;

  const item = (f: DriveFile) => ({ id: `item-${Buffer.from(f.path).toString('hex').slice(0, 24)}`, name: f.path.split('/').pop(), size: f.data.length, file: { mimeType: 'application/json' }, eTag: `"${f.version}"`, parentReference: { path: `/drive/root:/${f.path.split('/').slice(0, -1).join('/')}` } });

  function token(form: URLSearchParams, tenantInPath: string): { status: number; body: unknown } {
    if (tenantInPath !== tenant) return { status: 400, body: { error: 'invalid_request', error_description: `AADSTS90002: Tenant '${tenantInPath}' not found. Check to make sure you have the correct tenant ID.`, error_codes: [90002] } };
    if (form.get('grant_type') !== 'client_credentials') return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'AADSTS70003: unsupported grant' } };
    if (form.get('client_id') !== clientId) return { status: 400, body: { error: 'unauthorized_client', error_description: `AADSTS700016: Application with identifier '${form.get('client_id')}' was not found in the directory '${tenant}'.`, error_codes: [700016] } };
    if (form.get('client_secret') !== clientSecret) return { status: 401, body: { error: 'invalid_client', error_description: `AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`, error_codes: [7000215] } };
    if (form.get('scope') !== 'https://graph.microsoft.com/.default') return { status: 400, body: { error: 'invalid_scope', error_description: `AADSTS1002012: The provided value for scope ${form.get('scope')} is not valid.` } };
    const t = `tok-${randomUUID()}`;
    tokens.add(t);
    issued++;
    return { status: 200, body: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: t } };
  }

  function store(upn: string, path: string, data: Buffer, via: DriveFile['via'], conflictBehavior?: string): { status: number; body: unknown } {
    const d = drives.get(upn)!;
    const existed = d.files.has(path);
    if (existed && conflictBehavior === 'fail') return { status: 409, body: graphError('nameAlreadyExists', 'The specified item name already exists.') };
    const f: DriveFile = { path, data, via, conflictBehavior, version: ++version };
    d.files.set(path, f);
    // Graph creates missing parent folders of a path upload.
    const segs = path.split('/');
    for (let i = 1; i < segs.length; i++) d.folders.add(segs.slice(0, i).join('/'));
    return { status: existed ? 200 : 201, body: item(f) };
  }

  function graph(req: IncomingMessage, url: URL, body: Buffer): { status: number; body?: unknown; headers?: Record<string, string> } {
    const p = url.pathname;
    const session = /^\/upload\/sessions\/([^/]+)$/.exec(p);
    if (session && req.method === 'PUT') {
      const s = sessions.get(session[1]!);
      if (!s) return { status: 404, body: graphError('itemNotFound', 'The upload session was not found.') };
      const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
      if (!m || Number(m[1]) !== s.size || Number(m[2]) - Number(m[1]) + 1 !== body.length) return { status: 416, body: graphError('invalidRange', `Content-Range ${req.headers['content-range']} does not match the expected range ${s.size}-`) };
      s.parts.push(body);
      s.size += body.length;
      if (s.size < Number(m[3])) return { status: 202, body: { expirationDateTime: new Date(Date.now() + 3600_000).toISOString(), nextExpectedRanges: [`${s.size}-`] } };
      sessions.delete(session[1]!);
      return store(s.upn, s.path, Buffer.concat(s.parts), 'session', s.conflictBehavior);
    }
    const m = /^\/v1\.0\/users\/([^/]+)\/drive(\/.*)?$/.exec(p);
    if (!m) return { status: 400, body: graphError('BadRequest', `Resource not found for the segment '${p.split('/')[2] ?? ''}'.`) };
    const upn = decodeURIComponent(m[1]!).toLowerCase();
    const d = drives.get(upn);
    if (!d) return { status: 404, body: graphError('ResourceNotFound', `User not found`) };
    const rest = m[2] ?? '';
    if (!rest && req.method === 'GET') return { status: 200, body: { id: `drive-${upn}`, driveType: 'business', name: 'OneDrive', owner: { user: { email: upn } }, quota: { remaining: 1 << 30 } } };
    if (rest === '/root/children' && req.method === 'POST') {
      const b = JSON.parse(body.toString('utf8')) as { name?: string; folder?: unknown; '@microsoft.graph.conflictBehavior'?: string };
      if (!b.name || !b.folder) return { status: 400, body: graphError('invalidRequest', 'name and folder are required') };
      if (d.folders.has(b.name) && b['@microsoft.graph.conflictBehavior'] === 'fail') return { status: 409, body: graphError('nameAlreadyExists', 'The specified item name already exists.') };
      d.folders.add(b.name);
      return { status: 201, body: { id: `folder-${b.name}`, name: b.name, folder: { childCount: 0 } } };
    }
    const byPath = /^\/root:\/(.+?):(\/content|\/createUploadSession)?$/.exec(rest);
    if (!byPath) return { status: 400, body: graphError('invalidRequest', `Invalid request ${req.method} ${rest}`) };
    const path = byPath[1]!.split('/').map(decodeURIComponent).join('/');
    const conflict = url.searchParams.get('@microsoft.graph.conflictBehavior') ?? undefined;
    if (!byPath[2] && req.method === 'GET') {
      if (d.folders.has(path)) return { status: 200, body: { id: `folder-${path}`, name: path.split('/').pop(), folder: { childCount: 0 } } };
      const f = d.files.get(path);
      return f ? { status: 200, body: item(f) } : { status: 404, body: graphError('itemNotFound', 'The resource could not be found.') };
    }
    if (byPath[2] === '/content' && req.method === 'PUT') {
      if (body.length > 4 * 1024 * 1024) return { status: 413, body: graphError('requestSizeExceeded', 'Maximum request length exceeded.') };
      return store(upn, path, body, 'simple', conflict);
    }
    if (byPath[2] === '/content' && req.method === 'GET') {
      const f = d.files.get(path);
      return f ? { status: 200, body: f.data } : { status: 404, body: graphError('itemNotFound', 'The resource could not be found.') };
    }
    if (byPath[2] === '/createUploadSession' && req.method === 'POST') {
      const b = body.length ? (JSON.parse(body.toString('utf8')) as { item?: Record<string, string> }) : {};
      const id = randomUUID();
      sessions.set(id, { upn, path, conflictBehavior: b.item?.['@microsoft.graph.conflictBehavior'], parts: [], size: 0 });
      return { status: 200, body: { uploadUrl: `${base}/upload/sessions/${id}`, expirationDateTime: new Date(Date.now() + 3600_000).toISOString(), nextExpectedRanges: ['0-'] } };
    }
    return { status: 405, body: graphError('notSupported', `${req.method} ${rest} is not served by the stand-in`) };
  }

  const server: Server = createServer({ key: opts.tls.key, cert: opts.tls.cert }, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'https://stand-in');
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      const call: GraphCall = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, status: 0, authorized: Boolean(bearer && tokens.has(bearer)), bytes: body.length, at: Date.now() };
      calls.push(call);
      let reply: GraphReply;
      let extra: GraphReply | undefined;
      const oidc = /^\/([^/]+)\/v2\.0\/\.well-known\/openid-configuration$/.exec(url.pathname);
      const tok = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
      const fault = faults.take(call);
      if (fault) {
        reply = fault;
      } else if (oidc && req.method === 'GET') {
        const t = decodeURIComponent(oidc[1]!);
        reply = t === tenant
          ? { status: 200, body: { token_endpoint: `${base}/${t}/oauth2/v2.0/token`, authorization_endpoint: `${base}/${t}/oauth2/v2.0/authorize`, end_session_endpoint: `${base}/${t}/oauth2/v2.0/logout`, issuer: `${base}/${t}/v2.0`, jwks_uri: `${base}/${t}/discovery/v2.0/keys`, response_types_supported: ['code', 'token'], token_endpoint_auth_methods_supported: ['client_secret_post'] } }
          : { status: 400, body: { error: 'invalid_tenant', error_description: `AADSTS90002: Tenant '${t}' not found. Check to make sure you have the correct tenant ID.`, error_codes: [90002] } };
      } else if (tok && req.method === 'POST') {
        reply = token(new URLSearchParams(body.toString('utf8')), decodeURIComponent(tok[1]!));
      } else if (opts.routes && (extra = opts.routes({ method: call.method, url, base, authorized: call.authorized, body }))) {
        reply = extra;
      } else if (!url.pathname.startsWith('/upload/sessions/') && !call.authorized) {
        reply = { status: 401, body: graphError('InvalidAuthenticationToken', bearer ? 'Access token validation failure. Invalid audience.' : 'Access token is empty.') };
      } else {
        try {
          reply = graph(req, url, body);
        } catch (err) {
          reply = { status: 500, body: graphError('generalException', `stand-in failure: ${(err as Error).message}`) };
        }
      }
      call.status = reply.status;
      writeJsonReply(res, reply);
    });
  });
  const port = await listenLocal(server);
  base = `https://127.0.0.1:${port}`;
  return {
    url: base,
    port,
    tenant,
    clientId,
    clientSecret,
    calls,
    get tokensIssued() {
      return issued;
    },
    addUser: (upn) => void drives.set(upn.toLowerCase(), drives.get(upn.toLowerCase()) ?? { files: new Map(), folders: new Set() }),
    files: (upn) => [...(drives.get(upn.toLowerCase())?.files.values() ?? [])],
    file: (upn, path) => drives.get(upn.toLowerCase())?.files.get(path),
    folders: (upn) => [...(drives.get(upn.toLowerCase())?.folders ?? [])],
    fail: faults.fail,
    stop: () => closeServer(server),
  };
}
