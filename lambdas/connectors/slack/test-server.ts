// A local stand-in for the Slack Web API as @slack/web-api calls it (tests only; no handler imports
// it): POST /api/<method> with a form body and `Authorization: Bearer <token>`, answers HTTP 200
// {ok: true, ...} or {ok: false, error: '<code>'} as Slack does, the token's scopes in the
// x-oauth-scopes header. Methods: auth.test, conversations.join, conversations.history (newest
// first, oldest/latest/inclusive, cursor paging with limit capped by the stand-in's pageSize),
// conversations.replies (the thread, parent first, cursor paging), chat.getPermalink. A fault can
// answer 429 with Retry-After, as Slack's rate limiting does.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, faultBook, listenLocal, type StandInFault } from '../rest-test-server';

export interface SlackMessage {
  ts: string;
  text: string;
  user?: string;
  thread_ts?: string;
  reply_count?: number;
  latest_reply?: string;
  edited?: { ts: string };
}

export interface SlackChannel {
  id: string;
  name: string;
  isPrivate?: boolean;
  archived?: boolean;
  /** Members (by token) that may read it; a bot joins public channels with conversations.join. */
  members: Set<string>;
  messages: SlackMessage[];
  /** Thread replies by parent ts (without the parent). */
  replies: Map<string, SlackMessage[]>;
}

export interface SeenCall {
  method: string;
  params: URLSearchParams;
  token?: string;
  status: number;
  error?: string;
}

export type SlackFault = StandInFault<{ method: string; params: URLSearchParams }>;

export interface SlackStandIn {
  /** The API base (slackApiUrl), ending in /api/. */
  url: string;
  port: number;
  calls: SeenCall[];
  botToken: string;
  userToken: string;
  channel(id: string, name: string, opts?: { isPrivate?: boolean; archived?: boolean; members?: string[] }): SlackChannel;
  /** Posts a message (ts from the given time); returns it. */
  post(channel: string, at: Date, text: string): SlackMessage;
  reply(channel: string, parentTs: string, at: Date, text: string): SlackMessage;
  edit(channel: string, ts: string, text: string, at: Date): void;
  fail(fault: SlackFault): void;
  stop(): Promise<void>;
}

const SCOPES = 'channels:history,groups:history,channels:join,chat:write';

export async function startSlackStandIn(opts: { pageSize?: number } = {}): Promise<SlackStandIn> {
  const channels = new Map<string, SlackChannel>();
  const calls: SeenCall[] = [];
  const faults = faultBook<SeenCall>();
  const botToken = `xoxb-${randomUUID()}`;
  const userToken = `xoxp-${randomUUID()}`;
  let seq = 0;
  const tsOf = (at: Date) => `${Math.floor(at.getTime() / 1000)}.${String(++seq).padStart(6, '0')}`;
  const cursor = (n: number) => Buffer.from(`next:${n}`).toString('base64');
  const fromCursor = (c: string | null) => (c ? Number(/^next:(\d+)$/.exec(Buffer.from(c, 'base64').toString())?.[1] ?? NaN) : 0);

  function readable(token: string, ch: SlackChannel | undefined): string | undefined {
    if (!ch) return 'channel_not_found';
    if (ch.isPrivate && !ch.members.has(token)) return 'channel_not_found';
    if (token === botToken && !ch.members.has(token)) return 'not_in_channel';
    return undefined;
  }

  function page<T>(items: T[], p: URLSearchParams): { items: T[]; next?: string } | { error: string } {
    const start = fromCursor(p.get('cursor'));
    if (!Number.isInteger(start)) return { error: 'invalid_cursor' };
    const limit = Math.min(Number(p.get('limit') ?? 100) || 100, opts.pageSize ?? 1000);
    const slice = items.slice(start, start + limit);
    return { items: slice, ...(start + limit < items.length ? { next: cursor(start + limit) } : {}) };
  }

  function handle(method: string, p: URLSearchParams, token: string): Record<string, unknown> {
    const ch = channels.get(p.get('channel') ?? '');
    switch (method) {
      case 'auth.test':
        return { ok: true, url: 'https://test-team.slack.com/', team: 'Test Team', user: token === botToken ? 'wf-bot' : 'alice', team_id: 'T0001', user_id: token === botToken ? 'U0BOT' : 'U0001', ...(token === botToken ? { bot_id: 'B0001' } : {}) };
      case 'conversations.join': {
        if (token !== botToken) return { ok: false, error: 'method_not_supported_for_channel_type' };
        if (!ch) return { ok: false, error: 'channel_not_found' };
        if (ch.archived) return { ok: false, error: 'is_archived' };
        if (ch.isPrivate) return ch.members.has(token) ? { ok: true, channel: { id: ch.id } } : { ok: false, error: 'method_not_supported_for_channel_type' };
        ch.members.add(token);
        return { ok: true, channel: { id: ch.id, name: ch.name } };
      }
      case 'conversations.history': {
        const problem = readable(token, ch);
        if (problem) return { ok: false, error: problem };
        const inclusive = p.get('inclusive') === 'true' || p.get('inclusive') === '1';
        const oldest = p.get('oldest') ? Number(p.get('oldest')) : -Infinity;
        const latest = p.get('latest') ? Number(p.get('latest')) : Infinity;
        const inRange = ch!.messages
          .filter((m) => (inclusive ? Number(m.ts) >= oldest && Number(m.ts) <= latest : Number(m.ts) > oldest && Number(m.ts) < latest))
          .sort((a, b) => Number(b.ts) - Number(a.ts));
        const pg = page(inRange, p);
        if ('error' in pg) return { ok: false, error: pg.error };
        return { ok: true, messages: pg.items, has_more: Boolean(pg.next), ...(pg.next ? { response_metadata: { next_cursor: pg.next } } : { response_metadata: { next_cursor: '' } }) };
      }
      case 'conversations.replies': {
        const problem = readable(token, ch);
        if (problem) return { ok: false, error: problem };
        const parent = ch!.messages.find((m) => m.ts === p.get('ts'));
        if (!parent) return { ok: false, error: 'thread_not_found' };
        const pg = page([parent, ...(ch!.replies.get(parent.ts) ?? [])], p);
        if ('error' in pg) return { ok: false, error: pg.error };
        return { ok: true, messages: pg.items, has_more: Boolean(pg.next), response_metadata: { next_cursor: pg.next ?? '' } };
      }
      case 'chat.getPermalink': {
        if (!ch) return { ok: false, error: 'channel_not_found' };
        return { ok: true, channel: ch.id, permalink: `https://test-team.slack.com/archives/${ch.id}/p${String(p.get('message_ts')).replace('.', '')}` };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://slack');
      const method = url.pathname.replace(/^\/api\//, '');
      const raw = Buffer.concat(chunks).toString('utf8');
      const params = String(req.headers['content-type'] ?? '').includes('json') ? new URLSearchParams(Object.entries(JSON.parse(raw || "{}")).map(([k, v]) => [k, String(v)] as [string, string])) : new URLSearchParams(raw);
      const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? params.get('token') ?? undefined;
      const call: SeenCall = { method, params, token, status: 200 };
      calls.push(call);
      const fault = faults.take(call);
      let status = 200;
      let body: unknown;
      let headers: Record<string, string> = { 'x-oauth-scopes': SCOPES };
      if (fault) {
        status = fault.status;
        body = fault.body ?? { ok: false, error: 'ratelimited' };
        headers = { ...headers, ...(fault.headers ?? {}) };
      } else if (req.method !== 'POST') {
        status = 405;
        body = { ok: false, error: 'method_not_allowed' };
      } else if (token !== botToken && token !== userToken) {
        body = { ok: false, error: token ? 'invalid_auth' : 'not_authed' };
      } else {
        body = handle(method, params, token);
      }
      call.status = status;
      call.error = (body as { error?: string })?.error;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    });
  });
  const port = await listenLocal(server);
  return {
    url: `http://127.0.0.1:${port}/api/`,
    port,
    calls,
    botToken,
    userToken,
    channel(id, name, o = {}) {
      const c: SlackChannel = { id, name, isPrivate: o.isPrivate, archived: o.archived, members: new Set(o.members ?? []), messages: [], replies: new Map() };
      channels.set(id, c);
      return c;
    },
    post(channel, at, text) {
      const m: SlackMessage = { ts: tsOf(at), text, user: 'U0001' };
      channels.get(channel)!.messages.push(m);
      return m;
    },
    reply(channel, parentTs, at, text) {
      const c = channels.get(channel)!;
      const parent = c.messages.find((m) => m.ts === parentTs)!;
      const r: SlackMessage = { ts: tsOf(at), text, user: 'U0002', thread_ts: parentTs };
      c.replies.set(parentTs, [...(c.replies.get(parentTs) ?? []), r]);
      parent.thread_ts = parentTs;
      parent.reply_count = (parent.reply_count ?? 0) + 1;
      parent.latest_reply = r.ts;
      return r;
    },
    edit(channel, ts, text, at) {
      const m = channels.get(channel)!.messages.find((x) => x.ts === ts)!;
      m.text = text;
      m.edited = { ts: tsOf(at) };
    },
    fail: faults.fail,
    stop: () => closeServer(server),
  };
}
