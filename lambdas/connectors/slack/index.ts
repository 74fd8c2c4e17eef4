// Slack source (type `slack`, the platform's slack.py: token = a bot xoxb- or user xoxp- token,
// channels = channel ids, start_date / end_date bounding the history). The platform's API gives
// slack no typed model, so the config stays free-form (secrets found by name) with the fields this
// connector reads checked for type.
//
// Through the official client (@slack/web-api 8), its fetch the guarded one (outbound policy);
// SLACK_API_URL (operator setting, tests) replaces https://slack.com/api/.
// Throttling: the client's own 429 handling sleeps whatever Retry-After says with no upper bound
// and nests its retries (10 in 30 minutes by default), so it is off (rejectRateLimitedCalls,
// retries 0) and every call goes through withRetry: Retry-After honoured up to 20 s, 5 attempts.
//
// Documents, as the platform's indexer: one per channel and UTC day of messages (thread replies
// belong to their root's day). list pages conversations.history (cursor) to the end per channel.
//   key `<channel>-<YYYY-MM-DD>`; filename `<sha256(key)[:16]>.xml` (the platform's name);
//   version = the newest ts, latest_reply or edited.ts of the day (an edit or a new reply bumps it);
//   dataSource: url = permalink of the day's first message, record_locator {channel, day, oldest,
//   latest}, date_created the oldest ts, date_modified the version (Slack ts are epoch seconds).
// read: the day's messages again (inclusive range, paged) with each thread's replies
//   (conversations.replies, paged), as the platform's XML: <messages><message><text>text <reply> r1
//   <reply> r2</text></message>...</messages>. Files attached to messages are not documents here
//   (the platform's file records need files:read and a download from files.slack.com).
// check and list validate the channels as the platform: a bot joins each public channel
//   (conversations.join; a private one must have invited it), a user token reads one message.
import { createHash } from 'node:crypto';
import { WebClient, type WebAPICallResult } from '@slack/web-api';
import { z } from 'zod';
import { defineConnector, describeError, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { retryableError, withRetry } from '../records/retry';
import { assertAllowedUrl, guardedFetch, policyReason } from '../../net/outbound';

export interface SlackConfig extends ConnectorConfig {
  token?: string;
  channels?: string[];
  start_date?: string | null;
  end_date?: string | null;
}

const PAGE_LIMIT = 200;
const DAY_MS = 86_400_000;

// Free-form as the platform's API (secrets found by name: token); the fields read here checked for type.
const input = (z.looseObject({}) as z.ZodType<ConnectorConfig>).superRefine((c, ctx) => {
  if (c.channels !== undefined && (!Array.isArray(c.channels) || c.channels.some((x) => typeof x !== 'string' || !x.trim()))) {
    ctx.addIssue({ code: 'custom', path: ['channels'], message: 'channels must be a list of Slack channel ids' });
  }
  for (const f of ['start_date', 'end_date'] as const) {
    const v = c[f];
    if (v !== undefined && v !== null && (typeof v !== 'string' || parseDate(v) === undefined)) {
      ctx.addIssue({ code: 'custom', path: [f], message: `${f} must be a date (YYYY-MM-DD) or a date-time (YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM])` });
    }
  }
  if (c.token !== undefined && typeof c.token !== 'string') ctx.addIssue({ code: 'custom', path: ['token'], message: 'token must be a string' });
}) as unknown as z.ZodType<SlackConfig>;

/** Epoch ms of a date or date-time; one without a zone is UTC. */
function parseDate(v: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v)) return undefined;
  const iso = v.length === 10 ? `${v}T00:00:00Z` : /(Z|[+-]\d{2}:?\d{2})$/.test(v) ? v.replace(' ', 'T') : `${v.replace(' ', 'T')}Z`;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : undefined;
}

const tsString = (ms: number) => (ms / 1000).toFixed(6);

function settings(c: SlackConfig): { token: string; channels: string[]; oldest?: string; latest?: string } {
  if (!c.token) throw new Error('token is required: a Slack bot (xoxb-) or user (xoxp-) token');
  if (!Array.isArray(c.channels) || !c.channels.length) throw new Error('channels is required: the ids of the channels to read');
  const s = c.start_date ? parseDate(c.start_date) : undefined;
  const e = c.end_date ? parseDate(c.end_date) : undefined;
  return { token: c.token, channels: c.channels, ...(s !== undefined ? { oldest: tsString(s) } : {}), ...(e !== undefined ? { latest: tsString(e) } : {}) };
}

function apiUrl(): string {
  const u = process.env.SLACK_API_URL || 'https://slack.com/api/';
  return u.endsWith('/') ? u : `${u}/`;
}

/** The client of a token: guarded fetch, the client's own retries off (exported for the outbound test). */
export async function slackClient(token: string): Promise<WebClient> {
  try {
    await assertAllowedUrl(apiUrl());
  } catch (err) {
    throw slackReason('connect', err);
  }
  return new WebClient(token, {
    slackApiUrl: apiUrl(),
    fetch: guardedFetch,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: 60_000,
    allowAbsoluteUrls: false,
  });
}

interface SlackErr {
  code?: string;
  retryAfter?: number;
  statusCode?: number;
  original?: unknown;
  data?: { error?: string };
}

/** Slack's own error code (invalid_auth, channel_not_found...), or the transport's text; never the token. */
function slackReason(op: string, err: unknown, subject?: string): Error {
  const e = err as SlackErr;
  const refused = policyReason(e?.original ?? err);
  if (refused) return new Error(`Slack ${op} refused: ${refused}`);
  const where = subject ? ` ${subject}` : '';
  if (e?.data?.error) return new Error(`Slack ${op}${where} failed: ${e.data.error}`);
  if (e?.code === 'slack_webapi_rate_limited_error') return new Error(`Slack ${op}${where} still rate limited after retries (retry-after ${e.retryAfter}s)`);
  if (e?.statusCode) return new Error(`Slack ${op}${where} failed: HTTP ${e.statusCode}`);
  return new Error(`Slack ${op}${where} failed: ${describeError(e?.original ?? err).split('\n')[0]}`);
}

/** Retryable for withRetry: a 429 (its Retry-After as the delay), 5xx, transient transport errors. */
function asRetryable(err: unknown): unknown {
  const e = err as SlackErr;
  if (e?.code === 'slack_webapi_rate_limited_error') return Object.assign(err as object, { status: 429, headers: { 'retry-after': String(e.retryAfter ?? 1) } });
  if (e?.code === 'slack_webapi_http_error' && e.statusCode) return Object.assign(err as object, { status: e.statusCode });
  return err;
}

async function call<T extends WebAPICallResult>(web: WebClient, method: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
  return withRetry(
    async () => {
      try {
        return (await web.apiCall(method, args)) as T;
      } catch (err) {
        throw asRetryable(err);
      }
    },
    { signal, retryable: (err) => retryableError(err) || retryableError((err as SlackErr)?.original) },
  );
}

type Message = { ts?: string; thread_ts?: string; text?: string; latest_reply?: string; reply_count?: number; edited?: { ts?: string } };

async function* paged(web: WebClient, method: string, args: Record<string, unknown>, subject: string, signal?: AbortSignal): AsyncIterable<Message> {
  let cursor: string | undefined;
  do {
    let res: WebAPICallResult & { messages?: Message[] };
    try {
      res = await call(web, method, { ...args, limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) }, signal);
    } catch (err) {
      throw slackReason(method, err, subject);
    }
    yield* res.messages ?? [];
    cursor = res.response_metadata?.next_cursor || undefined;
  } while (cursor);
}

const dayOf = (m: Message) => {
  const ts = m.thread_ts || m.ts;
  return ts ? new Date(Number(ts) * 1000).toISOString().slice(0, 10) : undefined;
};

function packageVersion(messages: Message[]): string | undefined {
  const all = messages.flatMap((m) => [m.ts, m.latest_reply, m.edited?.ts]).filter((x): x is string => Boolean(x));
  return all.length ? all.reduce((a, b) => (Number(b) > Number(a) ? b : a)) : undefined;
}

const fileStem = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 16);

/** The platform's channel validation; throws one error naming every channel that cannot be read. */
async function validateChannels(web: WebClient, token: string, channels: string[], signal?: AbortSignal): Promise<void> {
  const user = token.replace(/^xoxe\./, '').startsWith('xoxp-');
  const issues: string[] = [];
  for (const channel of channels) {
    try {
      if (user) await call(web, 'conversations.history', { channel, limit: 1 }, signal);
      else {
        try {
          await call(web, 'conversations.join', { channel }, signal);
        } catch (err) {
          const code = (err as SlackErr)?.data?.error;
          // Cannot join (private channel, no channels:join): fine when already a member.
          if (code !== 'missing_scope' && code !== 'method_not_supported_for_channel_type') throw err;
          await call(web, 'conversations.history', { channel, limit: 1 }, signal);
        }
      }
    } catch (err) {
      const code = (err as SlackErr)?.data?.error;
      if (!code) throw slackReason(user ? 'conversations.history' : 'conversations.join', err, channel);
      if (code === 'invalid_auth' || code === 'not_authed' || code === 'token_revoked' || code === 'account_inactive') throw new Error(`Slack authentication failed: ${code}`);
      issues.push(`${channel}: ${code}`);
    }
  }
  if (issues.length) throw new Error(`Cannot access ${issues.length} channel(s) with the ${user ? 'user' : 'bot'} token: ${issues.join('; ')}`);
}

async function* list(c: SlackConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  const s = settings(c);
  const web = await slackClient(s.token);
  await validateChannels(web, s.token, s.channels, ctx?.signal);
  for (const channel of s.channels) {
    const days = new Map<string, Message[]>();
    for await (const m of paged(web, 'conversations.history', { channel, ...(s.oldest ? { oldest: s.oldest } : {}), ...(s.latest ? { latest: s.latest } : {}) }, channel, ctx?.signal)) {
      const day = dayOf(m);
      if (day) days.set(day, [...(days.get(day) ?? []), m]);
    }
    for (const [day, messages] of [...days].sort(([a], [b]) => (a < b ? 1 : -1))) {
      const stamps = messages.map((m) => m.ts).filter((x): x is string => Boolean(x)).sort((a, b) => Number(a) - Number(b));
      const oldest = stamps[0]!;
      const version = packageVersion(messages);
      let url: string | undefined;
      try {
        const r = await call<WebAPICallResult & { permalink?: string }>(web, 'chat.getPermalink', { channel, message_ts: oldest }, ctx?.signal);
        url = typeof r.permalink === 'string' ? r.permalink : undefined;
      } catch {
        // The platform lists the day without a url when the permalink cannot be had.
      }
      const key = `${channel}-${day}`;
      yield {
        key,
        size: messages.reduce((n, m) => n + (m.text?.length ?? 0), 0),
        ...(version ? { version } : {}),
        filename: `${fileStem(key)}.xml`,
        dataSource: {
          ...(url ? { url } : {}),
          ...(version ? { version, date_modified: version } : {}),
          date_created: oldest,
          record_locator: { channel, day, oldest, latest: stamps.at(-1) },
        },
      };
    }
  }
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The platform's conversation XML (ElementTree's output: declaration, one <message><text> per thread). */
export function conversationXml(threads: Message[][]): string {
  const body = threads
    .map(([first, ...replies]) => {
      let text = first?.text ?? null;
      for (const r of replies) text = `${String(text)} <reply> ${r.text ?? ''}`;
      return text === null ? '<message><text /></message>' : `<message><text>${xmlEscape(text)}</text></message>`;
    })
    .join('');
  return `<?xml version='1.0' encoding='utf-8'?>\n${threads.length ? `<messages>${body}</messages>` : '<messages />'}`;
}

async function read(c: SlackConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  const m = /^(.+)-(\d{4}-\d{2}-\d{2})$/.exec(key);
  if (!m) throw new Error(`invalid Slack document key ${JSON.stringify(key)} (expected <channel>-<YYYY-MM-DD>)`);
  const [, channel, day] = m as unknown as [string, string, string];
  const s = settings(c);
  const web = await slackClient(s.token);
  const dayStart = Date.parse(`${day}T00:00:00Z`);
  const oldest = Math.max(dayStart, s.oldest ? Number(s.oldest) * 1000 : -Infinity);
  const latest = Math.min(dayStart + DAY_MS - 1, s.latest ? Number(s.latest) * 1000 : Infinity);
  const threads: Message[][] = [];
  for await (const msg of paged(web, 'conversations.history', { channel, oldest: tsString(oldest), latest: tsString(latest), inclusive: true }, channel, ctx?.signal)) {
    if (dayOf(msg) !== day) continue;
    if (msg.ts && msg.reply_count) {
      const thread: Message[] = [];
      for await (const r of paged(web, 'conversations.replies', { channel, ts: msg.ts }, `${channel} thread ${msg.ts}`, ctx?.signal)) thread.push(r);
      threads.push(thread.length ? thread : [msg]);
    } else threads.push([msg]);
  }
  return new TextEncoder().encode(conversationXml(threads));
}

export const slackSource = defineConnector<SlackConfig>({
  kind: 'source',
  type: 'slack',
  input,
  output: z.looseObject({}),
  secretFields: [],
  freeForm: true,
  async check(c, ctx) {
    const s = settings(c);
    const web = await slackClient(s.token);
    let who: WebAPICallResult & { team?: string; user?: string };
    try {
      who = await call(web, 'auth.test', {}, ctx.signal);
    } catch (err) {
      const code = (err as SlackErr)?.data?.error;
      throw code ? new Error(`Slack authentication failed: ${code}`) : slackReason('auth.test', err);
    }
    await validateChannels(web, s.token, s.channels, ctx.signal);
    return `authenticated as ${who.user ?? '?'} in ${who.team ?? '?'}; ${s.channels.length} channel(s) readable`;
  },
  list,
  read,
});
