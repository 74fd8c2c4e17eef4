// Jira source through the registry against the stand-in speaking the Jira REST API as the platform's
// connector calls it (there is no official Node client: documented REST through the guarded fetch):
// the check (mypermissions BROWSE_PROJECTS) with Jira's own text, projects / issue keys / boards
// paged to the end (Cloud nextPageToken, Server startAt; page size 2), status filters, each issue
// once, a 429 with Retry-After retried, the issue as the platform's templated text, fields.updated as
// version (changes with an edit), data_source fields, an unreadable issue failing with Jira's text,
// the outbound policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConnection, listSourceObjects, readSourceObject, validateConfig } from '../../../lambdas/connectors/registry';
import { startJiraStandIn, type JiraStandIn } from '../../../lambdas/connectors/jira/test-server';
import { collect, untext } from './helpers';
import { trustStandIns } from '../../support/stand-in-ca';

let jira: JiraStandIn;
const saved = { deny: process.env.CONNECTORS_DENY_PRIVATE_NETWORKS };
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('source', 'jira', { url: jira.url, cloud: true, username: jira.username, password: jira.apiToken, projects: ['ENG'], ...over });
const keys = (objs: { key: string }[]) => objs.map((o) => o.key).sort();

let untrust: (() => void) | undefined;
before(async () => {
  untrust = trustStandIns(); // the stand-in serves TLS: credentials go over TLS only
  jira = await startJiraStandIn({ pageSize: 2 });
  for (let i = 1; i <= 5; i++) jira.putIssue(`ENG-${i}`, { summary: `Engineering task ${i}`, description: `Do thing ${i}`, status: { name: i <= 2 ? 'Done' : 'To Do' } });
  jira.putIssue('OPS-1', {
    summary: 'Restart the cluster',
    description: 'Nodes are *stuck*.',
    issuetype: { name: 'Bug' },
    priority: { name: 'High' },
    assignee: { accountId: 'acc-1', displayName: 'Ada' },
    reporter: { emailAddress: 'bob@example.com', displayName: 'Bob' },
    labels: ['infra', 'urgent'],
    components: [{ name: 'k8s' }],
    comment: { comments: [{ author: { displayName: 'Ada' }, body: 'On it.' }] },
    attachment: [{ id: '77', filename: 'log.txt', created: '2026-01-01T00:00:00.000+0000', mimeType: 'text/plain', self: 'https://jira.example/rest/api/2/attachment/77' }],
  });
  jira.addBoard('7', 'OPS');
});
after(async () => {
  if (saved.deny === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved.deny;
  untrust?.();
  await jira?.stop();
});

test('config: one of projects, boards, issues; one form of auth', () => {
  assert.throws(() => config({ projects: [] }), /At least one of projects, boards, or issues must be provided/);
  assert.throws(() => config({ password: undefined }), /no form of auth provided/);
  assert.throws(() => config({ cloud: false, token: 'pat' }), /mutually exclusive/);
  assert.throws(() => config({ boards: ['x'] }), /numeric board ids/);
});

test('check: BROWSE_PROJECTS held → SUCCESS; refused credentials or permission → FAILURE with Jira text', async () => {
  assert.deepEqual(await checkConnection('source', 'jira', config()), { status: 'SUCCESS', reason: 'user may browse projects' });
  const pat = await checkConnection('source', 'jira', config({ cloud: false, password: undefined, token: jira.pat }));
  assert.equal(pat.status, 'SUCCESS', pat.reason);
  const bad = await checkConnection('source', 'jira', config({ password: 'wrong-api-token' }));
  assert.equal(bad.status, 'FAILURE');
  assert.match(bad.reason!, /jira permission check failed: HTTP 401: Client must be authenticated to access this resource\./);
  assert.ok(!bad.reason!.includes('wrong-api-token'));
  jira.browse = false;
  try {
    const denied = await checkConnection('source', 'jira', config());
    assert.equal(denied.status, 'FAILURE');
    assert.match(denied.reason!, /not permitted to browse projects/);
  } finally {
    jira.browse = true;
  }
});

test('list: Cloud search pages by nextPageToken to the end; one document per issue with data_source', async () => {
  const before = jira.calls.length;
  const objs = await collect(listSourceObjects('jira', config()));
  assert.deepEqual(keys(objs), [1, 2, 3, 4, 5].map((i) => `ENG/ENG-${i}.txt`));
  const tokens = jira.calls.slice(before).filter((c) => c.path === '/rest/api/2/search/jql' && c.query.get('nextPageToken')).length;
  assert.ok(tokens >= 2, `3 pages or more (${tokens} follow-ups)`);
  const o = objs.find((x) => x.key === 'ENG/ENG-1.txt')!;
  assert.equal(o.filename, 'ENG-1.txt');
  assert.match(o.version!, /^\d{4}-\d\d-\d\dT/);
  assert.equal(o.dataSource!.url, `${jira.url}/browse/ENG-1`);
  assert.deepEqual(o.dataSource!.record_locator, { id: o.dataSource!.record_locator!.id, key: 'ENG-1', full_path: 'ENG/ENG-1.txt' });
  assert.match(String(o.dataSource!.record_locator!.id), /^\d+$/);
  assert.match(o.dataSource!.date_created!, /^\d+(\.\d+)?$/);
});

test('list: Server search pages by startAt; status filters; boards; issue keys; each issue once', async () => {
  const server = await collect(listSourceObjects('jira', config({ cloud: false })));
  assert.equal(server.length, 5);
  const done = await collect(listSourceObjects('jira', config({ status_filters: ['Done'] })));
  assert.deepEqual(keys(done), ['ENG/ENG-1.txt', 'ENG/ENG-2.txt']);
  const mixed = await collect(listSourceObjects('jira', config({ projects: ['OPS'], boards: ['7'], issues: ['ENG-3', 'OPS-1'] })));
  assert.deepEqual(keys(mixed), ['ENG/ENG-3.txt', 'OPS/OPS-1.txt']);
  const ops = mixed.find((o) => o.key === 'OPS/OPS-1.txt')!;
  assert.deepEqual(ops.dataSource!.record_locator!.attachments, [{ id: '77', filename: 'log.txt', created: '2026-01-01T00:00:00.000+0000', mimeType: 'text/plain' }]);
  await assert.rejects(collect(listSourceObjects('jira', config({ projects: undefined, boards: ['9'] }))), /jira issues of board 9 failed: HTTP 404: Board does not exist or you do not have permission to see it\./);
  await assert.rejects(collect(listSourceObjects('jira', config({ cloud: false, projects: ['NOPE'] }))), /HTTP 400: The value 'NOPE' does not exist for the field 'project'\./);
});

test('throttling: a 429 with Retry-After on a page is retried and the listing completes', async () => {
  jira.fail({ status: 429, headers: { 'retry-after': '1' }, body: { errorMessages: ['Rate limit exceeded.'], errors: {} }, match: (c) => c.path === '/rest/api/2/search/jql' && Boolean(c.query.get('nextPageToken')) });
  const before = jira.calls.length;
  const objs = await collect(listSourceObjects('jira', config()));
  assert.equal(objs.length, 5);
  assert.ok(jira.calls.slice(before).some((c) => c.status === 429), 'the stand-in answered 429 once');
});

test('a listing that would page forever fails with the reason (Cloud) or ends at total (Server)', async () => {
  jira.fail({ status: 200, body: { issues: [], nextPageToken: 'loop', isLast: false }, match: (c) => c.path === '/rest/api/2/search/jql', times: 2 });
  await assert.rejects(collect(listSourceObjects('jira', config())), /jira project search: the service returned a page cursor it had already returned/);
  // a server that ignores startAt repeats its first page: the listing stops at total
  const page = { startAt: 0, maxResults: 2, total: 4, issues: [{ id: '1', key: 'ENG-1', fields: {} }, { id: '2', key: 'ENG-2', fields: {} }] };
  jira.fail({ status: 200, body: page, match: (c) => c.path === '/rest/api/2/search', times: 2 });
  const objs = await collect(listSourceObjects('jira', config({ cloud: false })));
  assert.deepEqual(keys(objs), ['ENG/ENG-1.txt', 'ENG/ENG-2.txt'], 'two pages read (startAt 0 and 2), then total reached');
});

test('read: the platform template of the issue; version changes with an edit', async () => {
  const text = untext(await readSourceObject('jira', config(), 'OPS/OPS-1.txt'));
  const id = (await collect(listSourceObjects('jira', config({ projects: ['OPS'] }))))[0]!.dataSource!.record_locator!.id;
  assert.ok(text.startsWith(`IssueID_IssueKey:${id}     OPS-1\n\n\n\nProjectID_Key:OPS     Project OPS\n`), text);
  for (const part of ['IssueType:Bug', 'Status:To Do', 'Priority:High', 'AssigneeID_Name:acc-1     Ada', 'ReporterAdr_Name:bob@example.com     Bob', 'Labels:infra     urgent', 'Components:k8s', 'Ada     On it.', 'Restart the cluster', 'Nodes are *stuck*.', 'https://jira.example/rest/api/2/attachment/77']) {
    assert.ok(text.includes(part), `${part} in the text`);
  }
  const v1 = (await collect(listSourceObjects('jira', config({ issues: ['ENG-4'] }))))[0]!.version;
  jira.putIssue('ENG-4', { summary: 'Engineering task 4, reworded' });
  const v2 = (await collect(listSourceObjects('jira', config({ issues: ['ENG-4'] }))))[0]!.version;
  assert.notEqual(v1, v2);
  assert.match(untext(await readSourceObject('jira', config(), 'ENG/ENG-4.txt')), /Engineering task 4, reworded/);
});

test('read: an unreadable or vanished issue throws with Jira text; malformed keys refused', async () => {
  jira.denyIssue('ENG-5', 403, 'You do not have the permission to see the specified issue.');
  await assert.rejects(readSourceObject('jira', config(), 'ENG/ENG-5.txt'), /jira issue ENG-5 failed: HTTP 403: You do not have the permission to see the specified issue\./);
  await assert.rejects(readSourceObject('jira', config(), 'ENG/ENG-99.txt'), /HTTP 404: Issue does not exist/);
  await assert.rejects(readSourceObject('jira', config(), 'ENG/../x.txt'), /invalid object key/);
});

test('outbound policy: a site name resolving to loopback is refused when private networks are denied', async () => {
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  const before = jira.calls.length;
  try {
    const c = config({ url: `https://localhost:${jira.port}` });
    const r = await checkConnection('source', 'jira', c);
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /refused: host localhost resolves to a private network address/);
    await assert.rejects(collect(listSourceObjects('jira', c)), /refused: host localhost resolves to a private network address/);
    assert.equal(jira.calls.length, before, 'nothing reached the stand-in');
  } finally {
    if (saved.deny === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved.deny;
  }
});
