// Zendesk source (type `zendesk`, the platform's zendesk/: subdomain, email, api_token, item_type
// tickets | articles | all, batch_size = the page size, at most 100).
//
// Through Zendesk's documented REST API (v2) with guardedFetch, not node-zendesk: its list calls
// (getAll/requestAll) gather every page of a listing in memory before returning (no page-by-page
// iteration of 100k tickets), any response carrying Retry-After becomes a fixed "Zendesk rate limits
// 200 requests per minute" error with the delay dropped, and other errors are replaced by its own
// fixed texts instead of Zendesk's. The platform's connector does the same (httpx on the REST API).
//
// Auth: basic `<email>/token:<api_token>`. Paging: cursor pagination (page[size], meta.has_more,
// links.next), each page under withRetry (429 Retry-After, 5xx); a links.next pointing off the
// instance is refused (it would receive the credentials). ZENDESK_BASE_URL (operator setting,
// tests) replaces https://<subdomain>.zendesk.com.
//
// Documents, as the platform: a ticket is `tickets/<id>.txt` (the platform's as_text of the ticket
// and of each comment, comments paged), an article `articles/<id>.html` (<body class='Document'>
// <h1>title</h1>body</body>). version = updated_at (a new comment updates the ticket); dataSource
// url = the API url of the record, record_locator {item_type, id, subdomain}, created/updated
// dates. check: the platform's HEAD /api/v2/groups.json with the credentials.
import { defineConnector, describeError, epochSeconds, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { withRetry } from '../records/retry';
import { assertAllowedUrl, guardedFetch, policyReason } from '../../net/outbound';

export interface ZendeskConfig extends ConnectorConfig {
  subdomain: string;
  email: string;
  api_token: string;
  item_type?: string | null;
  batch_size?: number | null;
}

const ITEM_TYPES = ['tickets', 'articles', 'all'];

const refine = refineWith<ZendeskConfig>((c, ctx) => {
  if (typeof c.subdomain === 'string' && !/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(c.subdomain)) {
    ctx.addIssue({ code: 'custom', path: ['subdomain'], message: 'subdomain must be the <subdomain> of <subdomain>.zendesk.com' });
  }
  if (c.item_type !== undefined && c.item_type !== null && !ITEM_TYPES.includes(c.item_type as string)) {
    ctx.addIssue({ code: 'custom', path: ['item_type'], message: `item_type must be one of ${ITEM_TYPES.join(', ')}` });
  }
  if (typeof c.batch_size === 'number' && (c.batch_size < 1 || c.batch_size > 100)) {
    ctx.addIssue({ code: 'custom', path: ['batch_size'], message: 'batch_size must be between 1 and 100 (Zendesk\'s page size limit)' });
  }
});

function baseUrl(c: ZendeskConfig): string {
  const override = process.env.ZENDESK_BASE_URL;
  if (override) return override.replace(/\/+$/, '');
  if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(c.subdomain ?? '')) throw new Error('subdomain must be the <subdomain> of <subdomain>.zendesk.com');
  return `https://${c.subdomain}.zendesk.com`;
}

class ZendeskHttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly headers: Headers,
  ) {
    super(message);
  }
}

/** Zendesk's own error text of a failed response (error / description), never the credentials. */
async function errorText(res: Response): Promise<string> {
  const raw = await res.text().catch(() => '');
  try {
    const b = JSON.parse(raw) as { error?: unknown; description?: unknown };
    const err = typeof b.error === 'string' ? b.error : (b.error as { title?: string; message?: string })?.message ?? (b.error as { title?: string })?.title;
    const parts = [err, typeof b.description === 'string' ? b.description : undefined].filter(Boolean);
    if (parts.length) return parts.join(': ');
  } catch {
    // not JSON
  }
  return raw.slice(0, 200) || res.statusText || `HTTP ${res.status}`;
}

/** One authenticated call under withRetry, through the guarded fetch (exported for the outbound test). */
export async function zendeskGet<T>(c: ZendeskConfig, url: string, signal?: AbortSignal, method = 'GET'): Promise<T> {
  const auth = `Basic ${Buffer.from(`${c.email}/token:${c.api_token}`).toString('base64')}`;
  return withRetry(
    async () => {
      const res = await guardedFetch(url, { method, headers: { authorization: auth, accept: 'application/json' }, signal, redirect: 'error' });
      if (!res.ok) throw new ZendeskHttpError(await errorText(res), res.status, res.headers);
      return (method === 'HEAD' ? undefined : await res.json()) as T;
    },
    { signal },
  );
}

function zendeskReason(op: string, err: unknown): Error {
  const refused = policyReason(err);
  if (refused) return new Error(`Zendesk ${op} refused: ${refused}`);
  if (err instanceof ZendeskHttpError) {
    if (err.status === 401) return new Error(`Zendesk authentication failed (${op}: ${err.message}, HTTP 401)`);
    return new Error(`Zendesk ${op} failed: ${err.message} (HTTP ${err.status})`);
  }
  return new Error(`Zendesk ${op} failed: ${describeError(err).split('\n')[0]}`);
}

/** Every item of a cursor-paginated listing, page by page; a next link must stay on the instance. */
async function* paged<T>(c: ZendeskConfig, path: string, key: string, signal?: AbortSignal): AsyncIterable<T> {
  const base = baseUrl(c);
  const size = Math.min(100, Math.max(1, c.batch_size ?? 100));
  let url: string | undefined = `${base}${path}?page[size]=${size}`;
  while (url) {
    let page: Record<string, unknown> & { meta?: { has_more?: boolean }; links?: { next?: string | null } };
    try {
      page = await zendeskGet(c, url, signal);
    } catch (err) {
      throw zendeskReason(`GET ${path}`, err);
    }
    yield* (page[key] as T[] | undefined) ?? [];
    const next: string | null | undefined = page.meta?.has_more ? page.links?.next : undefined;
    if (next && new URL(next).origin !== new URL(base).origin) throw new Error(`Zendesk GET ${path}: the next page link leaves ${new URL(base).host}; refused`);
    url = next ?? undefined;
  }
}

interface Record_ {
  id: number;
  url?: string;
  created_at?: string;
  updated_at?: string;
}

function toSourceObject(c: ZendeskConfig, kind: 'ticket' | 'article', r: Record_): SourceObject {
  const ext = kind === 'ticket' ? 'txt' : 'html';
  return {
    key: `${kind}s/${r.id}.${ext}`,
    size: 0,
    ...(r.updated_at ? { version: r.updated_at } : {}),
    filename: `${r.id}.${ext}`,
    dataSource: {
      ...(r.url ? { url: r.url } : {}),
      ...(r.updated_at ? { version: r.updated_at } : {}),
      record_locator: { item_type: kind, id: r.id, subdomain: c.subdomain },
      date_created: epochSeconds(r.created_at),
      date_modified: epochSeconds(r.updated_at),
    },
  };
}

async function* list(c: ZendeskConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  await guard(c);
  const type = c.item_type ?? 'tickets';
  if (type === 'articles' || type === 'all') {
    for await (const a of paged<Record_>(c, '/api/v2/help_center/articles.json', 'articles', ctx?.signal)) yield toSourceObject(c, 'article', a);
  }
  if (type === 'tickets' || type === 'all') {
    for await (const t of paged<Record_>(c, '/api/v2/tickets.json', 'tickets', ctx?.signal)) yield toSourceObject(c, 'ticket', t);
  }
}

/** A datetime as Python prints it ("2025-02-04 19:31:32+00:00"), as in the platform's text. */
function pyDate(v: unknown): string {
  const s = String(v);
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:\d{2})$/.exec(s);
  return m ? `${m[1]} ${m[2]}${m[3] === 'Z' ? '+00:00' : m[3]}` : s;
}

/** The platform's as_text: a heading line, then `key: value` for the chosen fields that are set. */
function asText(heading: string, obj: Record<string, unknown>, fields: string[]): string {
  const lines = [heading];
  for (const f of fields) {
    const v = obj[f];
    if (v === undefined || v === null) continue;
    lines.push(`${f}: ${f.endsWith('_at') ? pyDate(v) : String(v)}`);
  }
  return lines.map((l) => `${l}\n`).join('');
}

async function read(c: ZendeskConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  const m = /^(tickets|articles)\/(\d+)\.(txt|html)$/.exec(key);
  if (!m) throw new Error(`invalid Zendesk document key ${JSON.stringify(key)}`);
  await guard(c);
  const base = baseUrl(c);
  const signal = ctx?.signal;
  if (m[1] === 'articles') {
    const path = `/api/v2/help_center/articles/${m[2]}.json`;
    let a: { article: { title?: string; body?: string } };
    try {
      a = await zendeskGet(c, `${base}${path}`, signal);
    } catch (err) {
      throw zendeskReason(`GET ${path}`, err);
    }
    const html = a.article.title ? `<h1>${a.article.title}</h1>${a.article.body ?? ''}` : a.article.body ?? '';
    return new TextEncoder().encode(`<body class='Document' >${html}</body>`);
  }
  const path = `/api/v2/tickets/${m[2]}.json`;
  let t: { ticket: Record<string, unknown> };
  try {
    t = await zendeskGet(c, `${base}${path}`, signal);
  } catch (err) {
    throw zendeskReason(`GET ${path}`, err);
  }
  let text = asText('ticket', t.ticket, ['created_at', 'description', 'id', 'subject']);
  for await (const comment of paged<Record<string, unknown>>(c, `/api/v2/tickets/${m[2]}/comments.json`, 'comments', signal)) {
    text += asText('comment', comment, ['author_id', 'body', 'created_at', 'id']);
  }
  return new TextEncoder().encode(text);
}

async function guard(c: ZendeskConfig): Promise<void> {
  try {
    await assertAllowedUrl(baseUrl(c));
  } catch (err) {
    throw zendeskReason('connect', err);
  }
}

export const zendeskSource = defineConnector<ZendeskConfig>({
  ...derivedShape('source', 'zendesk', refine),
  async check(c, ctx) {
    await guard(c);
    try {
      await zendeskGet(c, `${baseUrl(c)}/api/v2/groups.json`, ctx.signal, 'HEAD');
    } catch (err) {
      throw zendeskReason('HEAD /api/v2/groups.json', err);
    }
    return `authenticated to ${c.subdomain}.zendesk.com as ${c.email}`;
  },
  list,
  read,
});
