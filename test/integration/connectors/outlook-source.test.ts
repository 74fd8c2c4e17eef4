// Outlook source through the registry, @azure/identity and @microsoft/microsoft-graph-client,
// against the HTTPS stand-in of the authority and Graph (test-server.ts with the sources' routes,
// page size 2): the mailbox's selected top-level folders (by display name, case-insensitive), their
// messages paged to the end, child folders when recursive; one .eml document per message (its MIME
// content from /messages/<id>/$value, exact bytes), changeKey as version, the platform's
// data_source; throttling retried after Retry-After; failures with Graph's and Entra ID's text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collect } from './helpers';
import { graphStandIn } from './graph-stand-in';
import { createHash } from 'node:crypto';
import { checkConnection, listSourceObjects, outputConfig, readSourceObject, validateConfig, type SourceObject } from '../../../lambdas/connectors/registry';
import { type OneDriveStandIn } from '../../../lambdas/connectors/onedrive/test-server';
import { type GraphSources } from '../../../lambdas/connectors/onedrive/test-server-sources';

const EMAIL = 'devops@contoso.onmicrosoft.com';
let od: OneDriveStandIn;
let src: GraphSources;
let inbox = '';
let projects = '';
const ids: Record<string, string> = {};
const outlook = (over: Record<string, unknown> = {}) =>
  validateConfig('source', 'outlook', { authority_url: od.url, tenant: od.tenant, client_id: od.clientId, client_cred: od.clientSecret, user_email: EMAIL, outlook_folders: ['inbox'], recursive: true, ...over });
const mime = (n: number) => `From: A <a@example.com>\nTo: ${EMAIL}\nSubject: message ${n}\nMessage-ID: <m${n}@example.com>\nContent-Type: text/plain; charset=utf-8\n\nbody of message ${n}\n`;

const all = (config: Record<string, unknown>): Promise<SourceObject[]> => collect(listSourceObjects('outlook', config));

const env = graphStandIn(
  (o, s) => {
    od = o;
    src = s;
  },
  () => {
    // Top-level folders: 3 (2 pages); Inbox holds 5 messages (3 pages) and a child folder with 2.
    inbox = src.addMailFolder(EMAIL, 'Inbox');
    src.addMailFolder(EMAIL, 'Sent Items');
    src.addMailFolder(EMAIL, 'Drafts');
    projects = src.addMailFolder(EMAIL, 'Projects', inbox);
    for (let i = 1; i <= 5; i++) ids[`m${i}`] = src.putMessage(EMAIL, inbox, mime(i));
    for (let i = 6; i <= 7; i++) ids[`m${i}`] = src.putMessage(EMAIL, projects, mime(i));
  },
);

test('outlook config: the platform\'s fields; tenant and authority optional (the platform\'s defaults apply at run time); client_cred masked', async () => {
  const c = validateConfig('source', 'outlook', { client_id: 'c', client_cred: 's', user_email: EMAIL });
  assert.equal(c.recursive, false);
  assert.equal(outputConfig('source', 'outlook', outlook()).client_cred, '**********');
  assert.throws(() => outlook({ tenant: 'a/../b' }), /tenant must be a directory id or domain/);
});

test('outlook check: token, user and the selected folders; failures with Graph\'s and Entra ID\'s text', async () => {
  const ok = await checkConnection('source', 'outlook', outlook({ outlook_folders: ['INBOX', 'drafts', 'Nope'] }));
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, `token issued; user ${EMAIL} found; 2 of 3 mail folders found`);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ client_cred: 'wrong-secret' }, /^token request to https:\/\/127\.0\.0\.1:\d+\/contoso\.onmicrosoft\.com failed: invalid_client: .*AADSTS7000215/],
    [{ user_email: 'nobody@contoso.onmicrosoft.com' }, /^lookup of user nobody@contoso\.onmicrosoft\.com failed: Request_ResourceNotFound: Resource 'nobody@contoso\.onmicrosoft\.com' does not exist.* \(HTTP 404\)$/],
    [{ outlook_folders: ['Archive'] }, /^mail folders \["Archive"\] not found in the mailbox of devops@contoso\.onmicrosoft\.com$/],
    [{ outlook_folders: [] }, /^outlook_folders names no folder to read$/],
  ];
  for (const [over, reason] of cases) {
    const r = await checkConnection('source', 'outlook', outlook(over));
    assert.equal(r.status, 'FAILURE', JSON.stringify(over));
    assert.match(r.reason!, reason);
    assert.ok(!r.reason!.includes('wrong-secret') && !r.reason!.includes(od.clientSecret));
  }
});

test('outlook list: messages of the selected folders paged to the end, child folders when recursive; one .eml per message', async () => {
  const before = od.calls.length;
  const objs = await all(outlook());
  assert.deepEqual(objs.map((o) => o.key).sort(), Object.values(ids).sort());
  const pages = od.calls.slice(before).filter((c) => c.path.endsWith('/messages'));
  assert.equal(pages.length, 4, 'Inbox: 3 pages of 2, Projects: 1');
  assert.equal(pages.filter((c) => c.query.get('$skiptoken')).length, 2);
  assert.equal(pages[0]!.query.get('$select'), 'id,changeKey,createdDateTime,lastModifiedDateTime,subject');
  assert.ok(od.calls.slice(before).some((c) => c.path.endsWith('/mailFolders') && c.query.get('$skiptoken')), 'the folder list took 2 pages');
  const m1 = objs.find((o) => o.key === ids.m1)!;
  assert.equal(m1.filename, `${createHash('sha256').update(ids.m1!).digest('hex').slice(0, 16)}.eml`);
  assert.match(m1.version!, /^CQAAABYAAA/);
  assert.equal(m1.dataSource!.version, m1.version);
  assert.equal(m1.dataSource!.url, `${od.url}/v1.0/users/${EMAIL}/mailFolders/${inbox}/messages/${ids.m1}`);
  assert.deepEqual(m1.dataSource!.record_locator, { message_id: ids.m1, user_email: EMAIL });
  assert.match(m1.dataSource!.date_created!, /^\d+\.\d+$/);
  assert.match(m1.dataSource!.date_modified!, /^\d+\.\d+$/);
  assert.equal((await all(outlook({ recursive: false }))).length, 5);
  assert.deepEqual((await all(outlook({ outlook_folders: ['Sent Items'] }))).length, 0);
});

test('outlook read: the message\'s MIME content, exact bytes; a rewrite changes the changeKey; a gone message fails with Graph\'s text', async () => {
  const bytes = await readSourceObject('outlook', outlook(), ids.m3!);
  assert.equal(Buffer.from(bytes).toString('utf8'), mime(3).replace(/\n/g, '\r\n'));
  const v1 = (await all(outlook({ recursive: false }))).find((o) => o.key === ids.m3)!.version;
  src.putMessage(EMAIL, inbox, mime(33), ids.m3);
  const v2 = (await all(outlook({ recursive: false }))).find((o) => o.key === ids.m3)!.version;
  assert.notEqual(v1, v2);
  assert.match(Buffer.from(await readSourceObject('outlook', outlook(), ids.m3!)).toString('utf8'), /Subject: message 33/);
  await assert.rejects(readSourceObject('outlook', outlook(), 'AAMkGONE='), { message: 'download of message AAMkGONE= failed: ErrorItemNotFound: The specified object was not found in the store. (HTTP 404)' });
});

test('outlook throttling: a 429 with Retry-After on a messages page and on a download is retried', async () => {
  const isPage = (c: { path: string; query?: URLSearchParams }) => c.path.endsWith('/messages') && Boolean(c.query?.get('$skiptoken'));
  od.fail({ status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 'ApplicationThrottled', message: 'Application is over its MailboxConcurrency limit.' } }, match: (c) => isPage(c as never) });
  const start = od.calls.length;
  assert.equal((await all(outlook({ recursive: false }))).length, 5);
  const calls = od.calls.slice(start).filter(isPage);
  assert.equal(calls[0]!.status, 429);
  assert.equal(calls[1]!.status, 200);
  assert.ok(calls[1]!.at - calls[0]!.at >= 950, 'retried after Retry-After');
  od.fail({ status: 429, headers: { 'retry-after': '0' }, body: { error: { code: 'ApplicationThrottled', message: 'throttled' } }, match: (c) => c.path.endsWith('/$value') });
  assert.match(Buffer.from(await readSourceObject('outlook', outlook(), ids.m1!)).toString('utf8'), /Subject: message 1\r\n/);
});

test('outlook outbound policy: a Graph endpoint resolving to loopback is refused', async () => {
  process.env.GRAPH_API_ENDPOINT = `https://localhost:${od.port}`;
  try {
    process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
    const before = od.calls.length;
    await assert.rejects(all(outlook({ authority_url: `https://localhost:${od.port}` })), /refused: host localhost resolves to a private network address/);
    assert.equal(od.calls.length, before, 'nothing reached the stand-in');
  } finally {
    env.restore('CONNECTORS_DENY_PRIVATE_NETWORKS');
    process.env.GRAPH_API_ENDPOINT = od.url;
  }
});
