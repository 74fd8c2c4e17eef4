// A local stand-in for the Jira REST API as the platform's connector calls it (tests only): GET
// rest/api/2/mypermissions, rest/api/2/search/jql (Cloud's enhanced search: nextPageToken paging),
// rest/api/2/search (startAt/maxResults with total), rest/agile/1.0/board/{id}/issue (startAt),
// rest/api/2/issue/{key}; at most `pageSize` issues a page. The JQL it understands is what the
// connector writes: `key in (...)`, `project in (...)`, `status in (...)` joined by `and`, `ORDER
// BY id`. Basic auth (email:API token) or a Bearer personal access token. Errors as Jira sends them:
// 401 with a text body, {errorMessages, errors} otherwise.
import { standInTls } from '../records/stand-in';
import { startRestStandIn, type RestStandIn, type StandInReply, type StandInRequest } from '../rest-test-server';
import type { JiraIssue } from './text';

export interface JiraStandIn extends RestStandIn {
  username: string;
  apiToken: string;
  pat: string;
  /** Whether the user holds BROWSE_PROJECTS (default true). */
  browse: boolean;
  addBoard(id: string, project: string): void;
  /** Creates or updates an issue (an update moves fields.updated). Returns it. */
  putIssue(key: string, fields: Partial<NonNullable<JiraIssue['fields']>>): JiraIssue;
  denyIssue(key: string, status: number, message: string): void;
}

const jiraError = (status: number, message: string): StandInReply => ({ status, body: { errorMessages: [message], errors: {} } });

/** Values of `<field> in (...)` clauses of a JQL string. */
function clauses(jql: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of jql.matchAll(/\b(key|project|status) in \(([^)]*)\)/g)) {
    const values = [...m[2]!.matchAll(/"((?:[^"\\]|\\.)*)"|([^,\s]+)/g)].map((v) => (v[1] ?? v[2]!).replace(/\\(.)/g, '$1'));
    out.set(m[1]!, values);
  }
  return out;
}

export async function startJiraStandIn(opts: { pageSize?: number } = {}): Promise<JiraStandIn> {
  const pageSize = opts.pageSize ?? 2;
  const username = 'reader@example.com';
  const apiToken = 'ATATT-jira-api-token';
  const pat = 'jira-personal-access-token';
  const issues = new Map<string, JiraIssue>();
  const boards = new Map<string, string>();
  const denied = new Map<string, StandInReply>();
  let nextId = 10_000;
  let clock = Date.now() - 3_600_000;

  const authorized = (req: StandInRequest) => {
    const h = String(req.headers.authorization ?? '');
    return h === `Bearer ${pat}` || h === `Basic ${Buffer.from(`${username}:${apiToken}`).toString('base64')}`;
  };

  function matching(jql: string, project?: string): JiraIssue[] {
    const c = clauses(jql);
    return [...issues.values()]
      .filter((i) => (project ? i.fields!.project?.key === project : true))
      .filter((i) => !c.has('key') || c.get('key')!.includes(i.key))
      .filter((i) => !c.has('project') || c.get('project')!.includes(i.fields!.project!.key!))
      .filter((i) => !c.has('status') || c.get('status')!.includes(String(i.fields!.status?.name)))
      .sort((a, b) => Number(a.id) - Number(b.id));
  }

  const project = (i: JiraIssue, fields: string | null) => {
    if (!fields) return i;
    const keep = new Set(fields.split(','));
    return { id: i.id, key: i.key, fields: Object.fromEntries(Object.entries(i.fields ?? {}).filter(([k]) => keep.has(k))) };
  };

  function startAtPage(all: JiraIssue[], req: StandInRequest): StandInReply {
    const startAt = Number(req.query.get('startAt') ?? 0);
    const max = Math.min(Number(req.query.get('maxResults') ?? 50), pageSize);
    return { status: 200, body: { startAt, maxResults: max, total: all.length, issues: all.slice(startAt, startAt + max).map((i) => project(i, req.query.get('fields'))) } };
  }

  const route = (req: StandInRequest): StandInReply => {
    if (!authorized(req)) return { status: 401, body: 'Client must be authenticated to access this resource.' };
    if (req.method !== 'GET') return jiraError(405, 'Method not allowed');
    if (req.path === '/rest/api/2/mypermissions') {
      return { status: 200, body: { permissions: { BROWSE_PROJECTS: { id: '10', key: 'BROWSE_PROJECTS', name: 'Browse Projects', type: 'PROJECT', havePermission: stand.browse } } } };
    }
    if (req.path === '/rest/api/2/search/jql') {
      const all = matching(req.query.get('jql') ?? '');
      const at = req.query.get('nextPageToken') ? Number(Buffer.from(req.query.get('nextPageToken')!, 'base64url').toString()) : 0;
      const max = Math.min(Number(req.query.get('maxResults') ?? 50), pageSize);
      const more = at + max < all.length;
      return { status: 200, body: { issues: all.slice(at, at + max).map((i) => project(i, req.query.get('fields'))), isLast: !more, ...(more ? { nextPageToken: Buffer.from(String(at + max)).toString('base64url') } : {}) } };
    }
    if (req.path === '/rest/api/2/search') {
      const jql = req.query.get('jql') ?? '';
      const c = clauses(jql);
      const unknown = (c.get('project') ?? []).find((p) => ![...issues.values()].some((i) => i.fields!.project?.key === p));
      if (unknown) return jiraError(400, `The value '${unknown}' does not exist for the field 'project'.`);
      return startAtPage(matching(jql), req);
    }
    const board = /^\/rest\/agile\/1\.0\/board\/(\d+)\/issue$/.exec(req.path);
    if (board) {
      const p = boards.get(board[1]!);
      if (!p) return jiraError(404, 'Board does not exist or you do not have permission to see it.');
      return startAtPage(matching(req.query.get('jql') ?? '', p), req);
    }
    const one = /^\/rest\/api\/2\/issue\/([^/]+)$/.exec(req.path);
    if (one) {
      const deny = denied.get(one[1]!);
      if (deny) return deny;
      const i = issues.get(one[1]!);
      return i ? { status: 200, body: { expand: 'renderedFields,names,schema', self: `${base.url}/rest/api/2/issue/${i.id}`, ...i } } : jiraError(404, 'Issue does not exist or you do not have permission to see it.');
    }
    return jiraError(404, 'null for uri');
  };

  const base = await startRestStandIn(route, { tls: standInTls() }); // HTTPS: credentials go over TLS only
  const stand: JiraStandIn = {
    ...base,
    username,
    apiToken,
    pat,
    browse: true,
    addBoard: (id, p) => void boards.set(id, p),
    putIssue(key, fields) {
      const stamp = new Date((clock += 60_000)).toISOString().replace('Z', '+0000');
      const existing = issues.get(key);
      if (existing) {
        existing.fields = { ...existing.fields, ...fields, updated: stamp };
        return existing;
      }
      const projectKey = key.split('-')[0]!;
      const issue: JiraIssue = {
        id: String(nextId++),
        key,
        fields: { project: { key: projectKey, name: `Project ${projectKey}` }, status: { name: 'To Do' }, issuetype: { name: 'Task' }, labels: [], components: [], comment: { comments: [] }, attachment: [], created: stamp, ...fields, updated: stamp },
      };
      issues.set(key, issue);
      return issue;
    },
    denyIssue: (key, status, message) => void denied.set(key, jiraError(status, message)),
  };
  return stand;
}
