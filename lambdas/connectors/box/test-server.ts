// A local stand-in for the Box API as box-typescript-sdk-gen calls it (tests only): POST /oauth2/token
// (the JWT bearer grant: the assertion's RS256 signature verified with the app's public key, its
// claims iss/sub/box_sub_type/aud checked, aud being Box's https://api.box.com/oauth2/token), GET
// /2.0/users/me, GET /2.0/folders/{id}/items (fields, usemarker + marker paging `pageSize` at a time:
// next_marker until the last page), GET /2.0/files/{id}/content (302 to a download URL on the same
// host, as Box redirects to its download host). Errors as Box sends them: 401 with an empty body
// and WWW-Authenticate, {type:"error", status, code, message, request_id} otherwise.
import { createHash, randomUUID, verify } from 'node:crypto';
import { bearer, startRestStandIn, type RestStandIn, type StandInReply, type StandInRequest } from '../rest-test-server';

export const BOX_AUDIENCE = 'https://api.box.com/oauth2/token';

export interface BoxStandIn extends RestStandIn {
  token: string;
  /** Creates the file (and its folders) or replaces its content. */
  put(path: string, data: string | Buffer): void;
  /** The file's download answers with this status and Box error code. */
  denyDownload(path: string, status: number, code: string, message: string): void;
  /** Accepts the JWT grant of an app whose key pair's public half this is. */
  trustApp(app: { clientId: string; clientSecret: string; enterpriseId: string; publicKey: string }): void;
}

type Node = { type: 'folder' | 'file'; id: string; name: string; parent: string; data?: Buffer; created: Date; modified: Date; etag: number };

const boxError = (status: number, code: string, message: string): StandInReply => ({ status, body: { type: 'error', status, code, message, request_id: randomUUID().slice(0, 12) } });

export async function startBoxStandIn(opts: { pageSize?: number; token?: string } = {}): Promise<BoxStandIn> {
  const token = opts.token ?? `box-${randomUUID()}`;
  const pageSize = opts.pageSize ?? 2;
  const nodes = new Map<string, Node>([['0', { type: 'folder', id: '0', name: 'All Files', parent: '', created: new Date(0), modified: new Date(0), etag: 0 }]]);
  const denied = new Map<string, StandInReply>();
  const apps: { clientId: string; clientSecret: string; enterpriseId: string; publicKey: string }[] = [];
  const issued = new Set<string>([token]);
  let nextId = 1000;

  const children = (id: string) => [...nodes.values()].filter((n) => n.parent === id).sort((a, b) => a.name.localeCompare(b.name));
  const child = (id: string, name: string) => children(id).find((n) => n.name.toLowerCase() === name.toLowerCase());
  const item = (n: Node, fields: string[]) => {
    const full: Record<string, unknown> = {
      type: n.type,
      id: n.id,
      etag: String(n.etag),
      name: n.name,
      ...(n.type === 'file' ? { sha1: createHash('sha1').update(n.data!).digest('hex'), size: n.data!.length, file_version: { type: 'file_version', id: `v${n.etag}` } } : { sequence_id: '0' }),
      created_at: n.created.toISOString().replace(/\.\d{3}Z$/, '-00:00'),
      modified_at: n.modified.toISOString().replace(/\.\d{3}Z$/, '-00:00'),
    };
    // With fields, Box returns those plus type, id and etag; without, the mini representation.
    const keep = fields.length ? new Set([...fields, 'type', 'id', 'etag']) : new Set(['type', 'id', 'etag', 'name', 'sha1', 'sequence_id', 'file_version']);
    return Object.fromEntries(Object.entries(full).filter(([k]) => keep.has(k)));
  };

  function tokenGrant(req: StandInRequest): StandInReply {
    const form = new URLSearchParams(req.body.toString('utf8'));
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Grant type is not supported' } };
    const app = apps.find((a) => a.clientId === form.get('client_id'));
    if (!app || app.clientSecret !== form.get('client_secret')) return { status: 400, body: { error: 'invalid_client', error_description: 'The client credentials are invalid' } };
    const [h, c, sig] = (form.get('assertion') ?? '').split('.');
    if (!h || !c || !sig || !verify('sha256', Buffer.from(`${h}.${c}`), app.publicKey, Buffer.from(sig, 'base64url'))) {
      return { status: 400, body: { error: 'invalid_grant', error_description: 'Signature verification error. The public key identified by "kid" must correspond to the private key used for signing.' } };
    }
    const claims = JSON.parse(Buffer.from(c, 'base64url').toString()) as Record<string, unknown>;
    if (claims.iss !== app.clientId || claims.sub !== app.enterpriseId || claims.box_sub_type !== 'enterprise' || claims.aud !== BOX_AUDIENCE) {
      return { status: 400, body: { error: 'invalid_grant', error_description: 'Please check the \'sub\' claim.' } };
    }
    const t = `box-jwt-${randomUUID()}`;
    issued.add(t);
    return { status: 200, body: { access_token: t, expires_in: 4000, token_type: 'bearer', restricted_to: [] } };
  }

  const route = (req: StandInRequest): StandInReply => {
    if (req.method === 'POST' && req.path === '/oauth2/token') return tokenGrant(req);
    const dl = /^\/dl\/(\d+)$/.exec(req.path);
    if (dl && req.method === 'GET') {
      const n = nodes.get(dl[1]!);
      return n?.type === 'file' ? { status: 200, body: n.data!, headers: { 'content-type': 'application/octet-stream' } } : { status: 404, body: '' };
    }
    if (!issued.has(bearer(req) ?? '')) {
      return { status: 401, body: '', headers: { 'www-authenticate': 'Bearer realm="Service", error="invalid_token", error_description="The access token provided is invalid."' } };
    }
    if (req.method === 'GET' && req.path === '/2.0/users/me') return { status: 200, body: { type: 'user', id: '11446498', name: 'Stand In', login: 'stand-in@example.com' } };
    const items = /^\/2\.0\/folders\/(\d+)\/items$/.exec(req.path);
    if (items && req.method === 'GET') {
      const folder = nodes.get(items[1]!);
      if (folder?.type !== 'folder') return boxError(404, 'not_found', 'Not Found');
      const fields = (req.query.get('fields') ?? '').split(',').filter(Boolean);
      const limit = Math.min(Number(req.query.get('limit') ?? 100), pageSize);
      const all = children(folder.id);
      if (req.query.get('usemarker') === 'true') {
        const at = req.query.get('marker') ? Number(Buffer.from(req.query.get('marker')!, 'base64url').toString()) : 0;
        const slice = all.slice(at, at + limit);
        const more = at + limit < all.length;
        return { status: 200, body: { entries: slice.map((n) => item(n, fields)), limit, next_marker: more ? Buffer.from(String(at + limit)).toString('base64url') : null } };
      }
      const offset = Number(req.query.get('offset') ?? 0);
      return { status: 200, body: { entries: all.slice(offset, offset + limit).map((n) => item(n, fields)), limit, offset, total_count: all.length, order: [] } };
    }
    const content = /^\/2\.0\/files\/(\d+)\/content$/.exec(req.path);
    if (content && req.method === 'GET') {
      const deny = denied.get(content[1]!);
      if (deny) return deny;
      const n = nodes.get(content[1]!);
      if (n?.type !== 'file') return boxError(404, 'not_found', 'Not Found');
      return { status: 302, body: '', headers: { location: `${base.url}/dl/${n.id}` } };
    }
    return boxError(404, 'not_found', 'Not Found');
  };

  const base = await startRestStandIn(route);
  const fileAt = (path: string) => {
    let id = '0';
    for (const seg of path.split('/').filter(Boolean)) {
      const n = child(id, seg);
      if (!n) return undefined;
      id = n.id;
    }
    return nodes.get(id);
  };
  return {
    ...base,
    token,
    put(path, data) {
      const segs = path.split('/').filter(Boolean);
      let parent = '0';
      for (const seg of segs.slice(0, -1)) {
        let f = child(parent, seg);
        if (!f) {
          f = { type: 'folder', id: String(nextId++), name: seg, parent, created: new Date(), modified: new Date(), etag: 0 };
          nodes.set(f.id, f);
        }
        parent = f.id;
      }
      const name = segs[segs.length - 1]!;
      const existing = child(parent, name);
      const now = new Date();
      if (existing) Object.assign(existing, { data: Buffer.from(data), modified: now, etag: existing.etag + 1 });
      else {
        const n: Node = { type: 'file', id: String(nextId++), name, parent, data: Buffer.from(data), created: new Date(now.getTime() - 60_000), modified: now, etag: 0 };
        nodes.set(n.id, n);
      }
    },
    denyDownload(path, status, code, message) {
      const n = fileAt(path);
      if (!n) throw new Error(`no file ${path}`);
      denied.set(n.id, boxError(status, code, message));
    },
    trustApp: (app) => void apps.push(app),
  };
}
