// A local stand-in for Confluence Cloud's REST API v2 as the platform's connector calls it (tests
// only), under /wiki: GET api/v2/spaces (limit, keys filter), GET api/v2/pages?space-id= (limit),
// both paged by an opaque cursor in _links.next, at most `pageSize` results a page; GET
// api/v2/pages/{id}?body-format=view (title, createdAt, version {number, createdAt}, body.view).
// Basic auth (email:API token) or a Bearer personal access token. Errors as Confluence sends them:
// 401 {code, message}, {errors:[{status, code, title, detail}]} otherwise.
import { standInTls } from '../records/stand-in';
import { startRestStandIn, type RestStandIn, type StandInReply, type StandInRequest } from '../rest-test-server';

export interface ConfluenceStandIn extends RestStandIn {
  /** The site URL (what a user configures as `url`); the API is under <url>/wiki. */
  siteUrl: string;
  username: string;
  apiToken: string;
  pat: string;
  addSpace(key: string): string;
  /** Creates or edits a page (an edit bumps version.number). Returns the page id. */
  putPage(spaceKey: string, title: string, html: string): string;
  denyPage(id: string, status: number, code: string, title: string): void;
}

type PageRec = { id: string; spaceId: string; title: string; html: string; createdAt: string; version: number; versionAt: string };

const v2Error = (status: number, code: string, title: string): StandInReply => ({ status, body: { errors: [{ status, code, title, detail: null }] } });

export async function startConfluenceStandIn(opts: { pageSize?: number } = {}): Promise<ConfluenceStandIn> {
  const pageSize = opts.pageSize ?? 2;
  const username = 'reader@example.com';
  const apiToken = 'ATATT-confluence-api-token';
  const pat = 'confluence-personal-access-token';
  const spaces: { id: string; key: string }[] = [];
  const pages = new Map<string, PageRec>();
  const denied = new Map<string, StandInReply>();
  let nextId = 65_536;

  function authorized(req: StandInRequest): boolean {
    const h = String(req.headers.authorization ?? '');
    if (h === `Bearer ${pat}`) return true;
    return h === `Basic ${Buffer.from(`${username}:${apiToken}`).toString('base64')}`;
  }

  function pageOf<T>(all: T[], req: StandInRequest, map: (t: T) => unknown): StandInReply {
    const limit = Math.min(Number(req.query.get('limit') ?? 25), pageSize);
    const at = req.query.get('cursor') ? Number(Buffer.from(req.query.get('cursor')!, 'base64url').toString()) : 0;
    const results = all.slice(at, at + limit).map(map);
    const links: Record<string, string> = { base: `${site}/wiki` };
    if (at + limit < all.length) {
      const q = new URLSearchParams(req.query);
      q.set('cursor', Buffer.from(String(at + limit)).toString('base64url'));
      links.next = `/wiki${req.path.replace(/^\/wiki/, '')}?${q}`;
    }
    return { status: 200, body: { results, _links: links } };
  }

  const summary = (p: PageRec) => ({ id: p.id, status: 'current', title: p.title, spaceId: p.spaceId, createdAt: p.createdAt, version: { number: p.version, createdAt: p.versionAt, message: '', minorEdit: false, authorId: 'a1' } });

  const route = (req: StandInRequest): StandInReply => {
    if (!authorized(req)) return { status: 401, body: { code: 401, message: 'Unauthorized; scope does not match' } };
    if (req.method !== 'GET') return v2Error(405, 'METHOD_NOT_ALLOWED', 'Method Not Allowed');
    if (req.path === '/wiki/api/v2/spaces') {
      const keys = req.query.getAll('keys');
      const list = keys.length ? spaces.filter((s) => keys.includes(s.key)) : spaces;
      return pageOf(list, req, (s) => ({ id: s.id, key: s.key, name: `Space ${s.key}`, type: 'global', status: 'current' }));
    }
    if (req.path === '/wiki/api/v2/pages') {
      const spaceId = req.query.get('space-id');
      return pageOf([...pages.values()].filter((p) => p.spaceId === spaceId), req, summary);
    }
    const one = /^\/wiki\/api\/v2\/pages\/(\d+)$/.exec(req.path);
    if (one) {
      const deny = denied.get(one[1]!);
      if (deny) return deny;
      const p = pages.get(one[1]!);
      if (!p) return v2Error(404, 'NOT_FOUND', 'Not Found');
      const body = req.query.get('body-format') === 'view' ? { view: { value: p.html, representation: 'view' } } : {};
      return { status: 200, body: { ...summary(p), body } };
    }
    return v2Error(404, 'NOT_FOUND', 'Not Found');
  };

  const base = await startRestStandIn(route, { tls: standInTls() }); // HTTPS: credentials go over TLS only
  const site = base.url;
  return {
    ...base,
    siteUrl: site,
    username,
    apiToken,
    pat,
    addSpace(key) {
      const id = String(nextId++);
      spaces.push({ id, key });
      return id;
    },
    putPage(spaceKey, title, html) {
      const space = spaces.find((s) => s.key === spaceKey);
      if (!space) throw new Error(`no space ${spaceKey}`);
      const existing = [...pages.values()].find((p) => p.spaceId === space.id && p.title === title);
      const now = new Date().toISOString();
      if (existing) {
        Object.assign(existing, { html, version: existing.version + 1, versionAt: now });
        return existing.id;
      }
      const id = String(nextId++);
      pages.set(id, { id, spaceId: space.id, title, html, createdAt: new Date(Date.now() - 60_000).toISOString(), version: 1, versionAt: now });
      return id;
    },
    denyPage: (id, status, code, title) => void denied.set(id, v2Error(status, code, title)),
  };
}
