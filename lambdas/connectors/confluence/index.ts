// Confluence source (type `confluence`, the platform's fields: url, username, password / api_token /
// token, cloud, spaces, max_num_of_spaces, max_num_of_docs_from_each_space, extract_images,
// extract_files). As the platform's connector (which uses atlassian-python-api against the v2 REST
// API; there is no official Atlassian client for Node, so this speaks the same documented API through
// rest-client.ts): spaces from GET api/v2/spaces (the configured keys, else all up to
// max_num_of_spaces), pages from GET api/v2/pages?space-id= up to max_num_of_docs_from_each_space,
// both paged with limit + the cursor of _links.next; one document per page, key
// `<space key>/<page id>.html` (the platform's relative path), version = version.number, dates from
// createdAt / version.createdAt, url `<url>/pages/<id>`, record_locator {space_id: <space key>,
// document_id}. Read: GET api/v2/pages/{id}?body-format=view&include-version=true, written as the
// platform does: `<body class='Document' ><h1>title</h1>view HTML</body>`. The API base is
// <url>/wiki for Atlassian Cloud (cloud: true or an atlassian.net site), else <url>, as the
// Python client joins it. extract_images / extract_files are accepted but not acted on.
import { assertSafeKey, defineConnector, epochSeconds, type RuntimeContext, type SourceObject } from '../definition';
import { CursorGuard } from '../paging';
import { restJson } from '../rest-client';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { atlassianErrorText, authHeader, authIssues, secretsOf, trimSlash, type AtlassianAuthConfig } from '../atlassian/common';

export interface ConfluenceConfig extends AtlassianAuthConfig {
  spaces?: string[] | null;
  max_num_of_spaces: number;
  max_num_of_docs_from_each_space: number;
  extract_images?: boolean;
  extract_files?: boolean;
}

const refine = refineWith<ConfluenceConfig>((c, ctx) => authIssues(c, ctx, 'confluence'));

/** The platform's page sizes (CONFLUENCE_SPACE_PAGE_SIZE, CONFLUENCE_PAGE_PAGE_SIZE). */
const PAGE_SIZE = 250;

/** The REST root: <url>/wiki on Cloud, as atlassian-python-api adds it, else the url itself. */
export function confluenceApiBase(c: Pick<ConfluenceConfig, 'url' | 'cloud'>): string {
  const u = new URL(c.url);
  const cloud = c.cloud || /\.(atlassian\.net|jira\.com)$/i.test(u.hostname);
  const base = trimSlash(c.url);
  return cloud && !/\/wiki(\/|$)/.test(u.pathname) ? `${base}/wiki` : base;
}

type Page<T> = { results?: T[]; _links?: { next?: string } };
type Space = { id: string | number; key: string; alias?: string };
type PageSummary = { id: string; title?: string; createdAt?: string; version?: { number?: number; createdAt?: string } };

function get<T>(c: ConfluenceConfig, op: string, pathAndQuery: string, signal?: AbortSignal): Promise<T> {
  return restJson<T>(`confluence ${op}`, `${confluenceApiBase(c)}/${pathAndQuery}`, {
    headers: { Authorization: authHeader(c) },
    signal,
    secrets: secretsOf(c),
    errorText: atlassianErrorText,
  });
}

/** The next page's path below the API base, from _links.next, as the platform derives it. */
function nextPath(next: string | undefined): string | undefined {
  if (!next) return undefined;
  const parsed = new URL(next, 'http://relative.invalid');
  let path = parsed.pathname;
  path = path.includes('/wiki/') ? path.split('/wiki/').slice(1).join('/wiki/') : path.replace(/^\/+/, '');
  return `${path}${parsed.search}`;
}

/** Results of a paged v2 list up to `limit`, following _links.next. */
async function* paged<T>(c: ConfluenceConfig, op: string, first: string, limit: number, signal?: AbortSignal): AsyncIterable<T> {
  let path: string | undefined = first;
  let count = 0;
  const guard = new CursorGuard(`confluence ${op}`);
  while (path && count < limit) {
    const page: Page<T> = await get<Page<T>>(c, op, path, signal);
    for (const r of page.results ?? []) {
      if (count >= limit) return;
      count++;
      yield r;
    }
    const next = nextPath(page._links?.next);
    path = next === undefined ? undefined : guard.next(next);
  }
}

function spacesQuery(limit: number, keys?: string[]): string {
  const q = new URLSearchParams({ limit: String(Math.min(limit, PAGE_SIZE)) });
  for (const k of keys ?? []) q.append('keys', k);
  return `api/v2/spaces?${q}`;
}

async function spaceByKey(c: ConfluenceConfig, key: string, signal?: AbortSignal): Promise<Space> {
  for await (const s of paged<Space>(c, `space lookup of ${key}`, spacesQuery(1, [key]), 1, signal)) {
    if (s.key === key || s.alias === key) return s;
  }
  throw new Error(`confluence: failed to find '${key}' space`);
}

async function* spacesOf(c: ConfluenceConfig, signal?: AbortSignal): AsyncIterable<Space> {
  if (c.spaces?.length) {
    for (const key of c.spaces) yield await spaceByKey(c, key, signal);
    return;
  }
  yield* paged<Space>(c, 'space listing', spacesQuery(c.max_num_of_spaces), c.max_num_of_spaces, signal);
}

export function pageUrl(c: ConfluenceConfig, id: string): string {
  return `${trimSlash(c.url)}/pages/${id}`;
}

async function* list(c: ConfluenceConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  const max = c.max_num_of_docs_from_each_space;
  for await (const space of spacesOf(c, ctx?.signal)) {
    const first = `api/v2/pages?${new URLSearchParams({ 'space-id': String(space.id), limit: String(Math.min(max, PAGE_SIZE)) })}`;
    for await (const p of paged<PageSummary>(c, `page listing of space ${space.key}`, first, max, ctx?.signal)) {
      const version = p.version?.number !== undefined ? String(p.version.number) : undefined;
      yield {
        key: `${space.key}/${p.id}.html`,
        size: 0,
        filename: `${p.id}.html`,
        ...(version ? { version } : {}),
        dataSource: {
          url: pageUrl(c, p.id),
          ...(version ? { version } : {}),
          record_locator: { space_id: space.key, document_id: p.id },
          date_created: epochSeconds(p.createdAt),
          date_modified: epochSeconds(p.version?.createdAt),
        },
      };
    }
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** `<space key>/<page id>.html` → the page id. */
function pageIdOf(key: string): string {
  const m = /^[^/]+\/(\d+)\.html$/.exec(assertSafeKey(key));
  if (!m) throw new Error(`invalid confluence document key ${JSON.stringify(key)} (expected <space key>/<page id>.html)`);
  return m[1]!;
}

async function read(c: ConfluenceConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  const id = pageIdOf(key);
  const page = await get<{ title?: string; body?: { view?: { value?: string } } }>(c, `page ${id}`, `api/v2/pages/${id}?body-format=view&include-version=true`, ctx?.signal);
  const html = page.body?.view?.value;
  if (html === undefined) throw new Error(`confluence page ${id} has no view body`);
  return new TextEncoder().encode(`<body class='Document' ><h1>${escapeHtml(page.title ?? '')}</h1>${html}</body>`);
}

export const confluenceSource = defineConnector<ConfluenceConfig>({
  ...derivedShape('source', 'confluence', refine),
  async check(c, ctx) {
    // The platform's precheck: the first space of the list, then every configured space.
    for await (const _ of paged<Space>(c, 'space listing', spacesQuery(1), 1, ctx.signal)) break;
    for (const key of c.spaces ?? []) await spaceByKey(c, key, ctx.signal);
    return c.spaces?.length ? `spaces ${c.spaces.join(', ')} found` : 'spaces listed';
  },
  list,
  read,
});
