// Jira source (type `jira`, the platform's fields: url, username, password (password or Cloud API
// token) or token (personal access token), cloud, projects, boards, issues, status_filters,
// download_attachments). As the platform's connector (atlassian-python-api; there is no official
// Atlassian client for Node, so this speaks the same documented REST API through rest-client.ts):
// issues of the configured boards (GET rest/agile/1.0/board/{id}/issue, startAt paging), issue keys
// and projects (JQL `key in (...)` / `project in (...)`, plus `status in (...)` for status_filters,
// ORDER BY id) through GET rest/api/2/search/jql with nextPageToken on Cloud, GET rest/api/2/search
// with startAt/maxResults on Server/Data Center; each issue once. One document per issue: key
// `<project>/<ISSUE-KEY>.txt` (the platform's relative path), version = fields.updated, dates
// created/updated, url <url>/browse/<KEY>, record_locator {id, key, full_path, attachments}. Read:
// GET rest/api/2/issue/{key}, written as the platform's templated text (ids, project, dropdown
// fields, comments, summary/description/attachment links). Check: the platform's precheck,
// mypermissions BROWSE_PROJECTS. download_attachments is accepted but not acted on.
import { assertSafeKey, defineConnector, epochSeconds, type RuntimeContext, type SourceObject } from '../definition';
import { CursorGuard } from '../paging';
import { restJson } from '../rest-client';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { atlassianErrorText, authHeader, authIssues, secretsOf, trimSlash, type AtlassianAuthConfig } from '../atlassian/common';
import { issueText, type JiraIssue } from './text';

export interface JiraConfig extends AtlassianAuthConfig {
  projects?: string[] | null;
  boards?: string[] | null;
  issues?: string[] | null;
  status_filters?: string[] | null;
  download_attachments?: boolean | null;
}

const refine = refineWith<JiraConfig>((c, ctx) => {
  authIssues(c, ctx, 'jira');
  const none = (v: unknown) => !Array.isArray(v) || v.length === 0;
  if (none(c.projects) && none(c.boards) && none(c.issues)) ctx.addIssue({ code: 'custom', path: ['projects'], message: 'At least one of projects, boards, or issues must be provided.' });
  if (Array.isArray(c.boards) && c.boards.some((b) => !/^\d+$/.test(String(b)))) ctx.addIssue({ code: 'custom', path: ['boards'], message: 'boards are numeric board ids' });
});

const PAGE_SIZE = 100;
/** The fields the platform's indexer asks for. */
const LIST_FIELDS = 'key,id,status,attachment,created,updated';

function isCloud(c: JiraConfig): boolean {
  return Boolean(c.cloud) || /\.(atlassian\.net|jira\.com)$/i.test(new URL(c.url).hostname);
}

function get<T>(c: JiraConfig, op: string, path: string, query: Record<string, string | undefined>, signal?: AbortSignal): Promise<T> {
  const q = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  return restJson<T>(`jira ${op}`, `${trimSlash(c.url)}/${path}${q.size ? `?${q}` : ''}`, {
    headers: { Authorization: authHeader(c) },
    signal,
    secrets: secretsOf(c),
    errorText: atlassianErrorText,
  });
}

type SearchPage = { issues?: JiraIssue[]; nextPageToken?: string; isLast?: boolean; startAt?: number; total?: number };

/** A JQL string literal: quoted, with quotes and backslashes escaped. */
const jqlValue = (v: string) => `"${v.replace(/["\\]/g, '\\$&')}"`;

function withStatus(c: JiraConfig, jql: string): string {
  const filtered = c.status_filters?.length ? `${jql} and status in (${c.status_filters.map(jqlValue).join(', ')})` : jql;
  return `${filtered} ORDER BY id`;
}

/** startAt paging until an empty page, as the platform's api_page_based_generator. */
async function* startAtPages(c: JiraConfig, op: string, path: string, query: Record<string, string>, signal?: AbortSignal): AsyncIterable<JiraIssue> {
  for (let startAt = 0; ; ) {
    const page = await get<SearchPage>(c, op, path, { ...query, startAt: String(startAt), maxResults: String(PAGE_SIZE) }, signal);
    const issues = page.issues ?? [];
    if (!issues.length) return;
    yield* issues;
    startAt += issues.length;
    // A server that ignores startAt would repeat its first page forever; total bounds the listing.
    if (typeof page.total === 'number' && startAt >= page.total) return;
  }
}

async function* runJql(c: JiraConfig, op: string, jql: string, signal?: AbortSignal): AsyncIterable<JiraIssue> {
  if (!isCloud(c)) {
    yield* startAtPages(c, op, 'rest/api/2/search', { jql, fields: LIST_FIELDS }, signal);
    return;
  }
  // Cloud's enhanced search: nextPageToken until there is none.
  let token: string | undefined;
  const guard = new CursorGuard(`jira ${op}`);
  do {
    const page: SearchPage = await get<SearchPage>(c, op, 'rest/api/2/search/jql', { jql, fields: LIST_FIELDS, maxResults: String(PAGE_SIZE), nextPageToken: token }, signal);
    yield* page.issues ?? [];
    token = page.nextPageToken ? guard.next(page.nextPageToken) : undefined;
  } while (token);
}

async function* issuesOf(c: JiraConfig, signal?: AbortSignal): AsyncIterable<JiraIssue> {
  for (const board of c.boards ?? []) {
    const jql = c.status_filters?.length ? `status in (${c.status_filters.map(jqlValue).join(', ')}) ORDER BY id` : 'ORDER BY id';
    yield* startAtPages(c, `issues of board ${board}`, `rest/agile/1.0/board/${encodeURIComponent(board)}/issue`, { jql, fields: LIST_FIELDS }, signal);
  }
  if (c.issues?.length) yield* runJql(c, 'issue search', withStatus(c, `key in (${c.issues.map(jqlValue).join(', ')})`), signal);
  if (c.projects?.length) yield* runJql(c, 'project search', withStatus(c, `project in (${c.projects.map(jqlValue).join(', ')})`), signal);
}

async function* list(c: JiraConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  const seen = new Set<string>();
  for await (const issue of issuesOf(c, ctx?.signal)) {
    if (!issue?.key || seen.has(issue.key)) continue;
    seen.add(issue.key);
    const project = issue.key.split('-')[0]!;
    const key = `${project}/${issue.key}.txt`;
    const f = issue.fields ?? {};
    const attachments = (f.attachment ?? []).map((a) => ({ id: a.id, filename: a.filename, created: a.created, mimeType: a.mimeType }));
    yield {
      key,
      size: 0,
      filename: `${issue.key}.txt`,
      ...(f.updated ? { version: f.updated } : {}),
      dataSource: {
        url: `${trimSlash(c.url)}/browse/${issue.key}`,
        ...(f.updated ? { version: f.updated } : {}),
        record_locator: { id: issue.id, key: issue.key, full_path: key, ...(attachments.length ? { attachments } : {}) },
        date_created: epochSeconds(f.created),
        date_modified: epochSeconds(f.updated),
      },
    };
  }
}

/** `<project>/<ISSUE-KEY>.txt` → the issue key. */
function issueKeyOf(key: string): string {
  const m = /^[^/]+\/([A-Za-z][A-Za-z0-9_]*-\d+)\.txt$/.exec(assertSafeKey(key));
  if (!m) throw new Error(`invalid jira document key ${JSON.stringify(key)} (expected <project>/<ISSUE-KEY>.txt)`);
  return m[1]!;
}

async function read(c: JiraConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  const issueKey = issueKeyOf(key);
  const issue = await get<JiraIssue>(c, `issue ${issueKey}`, `rest/api/2/issue/${encodeURIComponent(issueKey)}`, {}, ctx?.signal);
  return new TextEncoder().encode(issueText(issue));
}

export const jiraSource = defineConnector<JiraConfig>({
  ...derivedShape('source', 'jira', refine),
  async check(c, ctx) {
    const r = await get<{ permissions?: { BROWSE_PROJECTS?: { havePermission?: boolean } } }>(c, 'permission check', 'rest/api/2/mypermissions', { permissions: 'BROWSE_PROJECTS' }, ctx.signal);
    if (!r.permissions?.BROWSE_PROJECTS?.havePermission) {
      throw new Error('jira: the provided user is not permitted to browse projects from the given Jira organization URL; check username, password, token and url');
    }
    return 'user may browse projects';
  },
  list,
  read,
});
