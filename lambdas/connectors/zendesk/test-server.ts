// A local stand-in for the Zendesk Support and Help Center REST API (v2) as the zendesk source
// calls it (tests only; no handler imports it): basic auth `<email>/token:<api_token>`, cursor
// pagination (page[size] capped by the stand-in's pageSize, page[after], meta.has_more,
// links.next), GET/HEAD /api/v2/groups.json, /api/v2/tickets.json, /api/v2/tickets/<id>.json,
// /api/v2/tickets/<id>/comments.json, /api/v2/help_center/articles.json and .../articles/<id>.json.
// Errors as Zendesk writes them ({"error": "Couldn't authenticate you"}, RecordNotFound); a fault
// can answer 429 with Retry-After.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, faultBook, listenLocal, type StandInFault } from '../rest-test-server';

export interface ZdTicket {
  id: number;
  subject: string;
  description: string;
  created_at: string;
  updated_at: string;
  requester_id: number;
  comments: { id: number; author_id: number; body: string; created_at: string; type: 'Comment' }[];
}
export interface ZdArticle {
  id: number;
  title: string;
  body: string;
  locale: string;
  permission_group_id: number;
  created_at: string;
  updated_at: string;
}

export interface SeenCall {
  method: string;
  path: string;
  query: URLSearchParams;
  status: number;
  user?: string;
}

export type ZdFault = StandInFault;

export interface ZendeskStandIn {
  /** The base URL standing for https://<subdomain>.zendesk.com. */
  url: string;
  port: number;
  calls: SeenCall[];
  tickets: Map<number, ZdTicket>;
  articles: Map<number, ZdArticle>;
  ticket(id: number, subject: string, description: string, comments?: string[]): ZdTicket;
  article(id: number, title: string, body: string): ZdArticle;
  comment(ticketId: number, body: string): void;
  fail(fault: ZdFault): void;
  stop(): Promise<void>;
}

export async function startZendeskStandIn(opts: { email: string; apiToken: string; pageSize?: number }): Promise<ZendeskStandIn> {
  const tickets = new Map<number, ZdTicket>();
  const articles = new Map<number, ZdArticle>();
  const calls: SeenCall[] = [];
  const faults = faultBook<SeenCall>();
  let base = '';
  let clock = Date.parse('2026-02-01T10:00:00Z');
  let commentId = 9000;
  const now = () => new Date((clock += 60_000)).toISOString().replace(/\.\d{3}Z$/, 'Z');

  function page<T>(items: T[], q: URLSearchParams, path: string, key: string): Record<string, unknown> {
    const size = Math.min(Number(q.get('page[size]') ?? 100) || 100, 100, opts.pageSize ?? 100);
    const after = q.get('page[after]') ? Number(Buffer.from(q.get('page[after]')!, 'base64url').toString()) : 0;
    const slice = items.slice(after, after + size);
    const more = after + size < items.length;
    const cursor = Buffer.from(String(after + size)).toString('base64url');
    return {
      [key]: slice,
      meta: { has_more: more, after_cursor: more ? cursor : null, before_cursor: null },
      links: { next: more ? `${base}${path}?page%5Bsize%5D=${size}&page%5Bafter%5D=${cursor}` : null, prev: null },
    };
  }

  const ticketJson = (t: ZdTicket) => {
    const { comments: _c, ...rest } = t;
    return { ...rest, url: `${base}/api/v2/tickets/${t.id}.json`, status: 'open', from_messaging_channel: false };
  };
  const articleJson = (a: ZdArticle) => ({ ...a, url: `${base}/api/v2/help_center/en-us/articles/${a.id}.json`, html_url: `${base}/hc/en-us/articles/${a.id}` });

  function handle(method: string, path: string, q: URLSearchParams): { status: number; body?: unknown } {
    if (method !== 'GET' && method !== 'HEAD') return { status: 405, body: { error: 'MethodNotAllowed' } };
    if (path === '/api/v2/groups.json') return { status: 200, body: { groups: [{ id: 1, name: 'Support' }] } };
    if (path === '/api/v2/tickets.json') return { status: 200, body: page([...tickets.values()].sort((a, b) => a.id - b.id).map(ticketJson), q, path, 'tickets') };
    if (path === '/api/v2/help_center/articles.json') return { status: 200, body: page([...articles.values()].sort((a, b) => a.id - b.id).map(articleJson), q, path, 'articles') };
    let m = /^\/api\/v2\/tickets\/(\d+)(\/comments)?\.json$/.exec(path);
    if (m) {
      const t = tickets.get(Number(m[1]));
      if (!t) return { status: 404, body: { error: 'RecordNotFound', description: 'Not found' } };
      return { status: 200, body: m[2] ? page(t.comments, q, path, 'comments') : { ticket: ticketJson(t) } };
    }
    m = /^\/api\/v2\/help_center\/articles\/(\d+)\.json$/.exec(path);
    if (m) {
      const a = articles.get(Number(m[1]));
      if (!a) return { status: 404, body: { error: 'RecordNotFound', description: 'Not found' } };
      return { status: 200, body: { article: articleJson(a) } };
    }
    return { status: 404, body: { error: 'InvalidEndpoint', description: 'Not found' } };
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://zendesk');
      const call: SeenCall = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, status: 0 };
      calls.push(call);
      const basic = /^Basic (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      const [user, pass] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(/:(.*)/s) : [];
      call.user = user;
      let reply: { status: number; body?: unknown; headers?: Record<string, string> };
      const fault = faults.take(call);
      if (fault) {
        reply = fault;
      } else if (user !== `${opts.email}/token` || pass !== opts.apiToken) {
        reply = { status: 401, body: { error: "Couldn't authenticate you" } };
      } else {
        reply = handle(call.method, url.pathname, url.searchParams);
      }
      call.status = reply.status;
      res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', ...(reply.headers ?? {}) });
      res.end(call.method === 'HEAD' || reply.body === undefined ? undefined : JSON.stringify(reply.body));
    });
  });
  const port = await listenLocal(server);
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    port,
    calls,
    tickets,
    articles,
    ticket(id, subject, description, comments = []) {
      const at = now();
      const t: ZdTicket = { id, subject, description, created_at: at, updated_at: at, requester_id: 7, comments: [] };
      t.comments.push({ id: ++commentId, author_id: 7, body: description, created_at: at, type: 'Comment' });
      for (const c of comments) t.comments.push({ id: ++commentId, author_id: 8, body: c, created_at: now(), type: 'Comment' });
      tickets.set(id, t);
      return t;
    },
    article(id, title, body) {
      const at = now();
      const a: ZdArticle = { id, title, body, locale: 'en-us', permission_group_id: 1, created_at: at, updated_at: at };
      articles.set(id, a);
      return a;
    },
    comment(ticketId, body) {
      const t = tickets.get(ticketId)!;
      const at = now();
      t.comments.push({ id: ++commentId, author_id: 8, body, created_at: at, type: 'Comment' });
      t.updated_at = at;
    },
    fail: faults.fail,
    stop: () => closeServer(server),
  };
}
