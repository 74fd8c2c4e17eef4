// Microsoft Graph sources (onedrive, sharepoint, outlook) through the registry, @azure/identity
// (client credentials, MSAL) and @microsoft/microsoft-graph-client, against the HTTPS stand-in of
// the authority and Graph (test-server.ts with the sources' routes, trusted through
// CONNECTOR_CA_FILE; a page size of 2, so every listing takes several pages): checks with Entra
// ID's and Graph's text, listings paged to the end by @odata.nextLink, throttling retried after
// Retry-After, exact bytes (a drive file through its 302 download URL), versions that change with
// the content, the platform's data_source, unreadable documents failing with Graph's text, and the
// outbound policy on every hop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collect } from './helpers';
import { graphStandIn } from './graph-stand-in';
import { checkConnection, listSourceObjects, outputConfig, readSourceObject, validateConfig, type SourceObject } from '../../../lambdas/connectors/registry';
import { type OneDriveStandIn } from '../../../lambdas/connectors/onedrive/test-server';
import { type GraphSources } from '../../../lambdas/connectors/onedrive/test-server-sources';

const UPN = 'alice@contoso.com';
let od: OneDriveStandIn;
let src: GraphSources;
const creds = () => ({ authority_url: od.url, tenant: od.tenant, client_id: od.clientId, client_cred: od.clientSecret });
const SITE = 'https://contoso.sharepoint.com/sites/eng';
let library = '';
const sharepoint = (over: Record<string, unknown> = {}) => validateConfig('source', 'sharepoint', { ...creds(), site: SITE, path: '', recursive: true, ...over });
const onedrive = (over: Record<string, unknown> = {}) => validateConfig('source', 'onedrive', { ...creds(), user_pname: UPN, path: 'Reports', recursive: true, ...over });

const all = (type: string, config: Record<string, unknown>): Promise<SourceObject[]> => collect(listSourceObjects(type, config));

const env = graphStandIn(
  (o, s) => {
    od = o;
    src = s;
  },
  () => {
    src.addUserDrive(UPN);
    for (let i = 1; i <= 5; i++) src.putFile(UPN, `Reports/r${i}.txt`, `report ${i}\n`);
    src.putFile(UPN, 'Reports/2026/q1.txt', 'first quarter\n');
    src.putFile(UPN, 'Reports/2026/deep/notes.md', '# notes\n');
    src.putFile(UPN, 'Elsewhere/x.txt', 'not listed\n');
    library = src.addSite(SITE, ['Documents', 'Archive']).drives.Documents!;
    for (const f of ['book.txt', 'memo.txt', 'list.txt', 'Folder1/fake-memo.txt', 'Folder1/Folder2/fake-email.txt']) src.putFile(library, f, `${f} body\n`);
  },
);

test('onedrive config: the platform\'s fields, path without . or .., client_cred masked as a secret', () => {
  assert.throws(() => onedrive({ path: 'a/../b' }), (e: any) => /may not contain '\.' or '\.\.' segments/.test(e.message));
  assert.throws(() => onedrive({ authority_url: 'https://169.254.169.254' }), (e: any) => e.issues.some((i: any) => i.loc.includes('authority_url')));
  assert.equal(onedrive({ recursive: undefined }).recursive, false);
  assert.equal(outputConfig('source', 'onedrive', onedrive()).client_cred, '**********');
});

test('onedrive check: token, drive and folder; failures with Entra ID\'s and Graph\'s text, never the secret', async () => {
  const ok = await checkConnection('source', 'onedrive', onedrive());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, `token issued; drive of ${UPN} found; folder Reports found`);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ client_cred: 'wrong-secret-value' }, /^token request to https:\/\/127\.0\.0\.1:\d+\/contoso\.onmicrosoft\.com failed: invalid_client: .*AADSTS7000215: Invalid client secret provided/],
    [{ user_pname: 'bob@contoso.com' }, /^drive lookup of bob@contoso\.com failed: ResourceNotFound: User not found \(HTTP 404\)$/],
    [{ path: 'Missing' }, /^lookup of folder Missing failed: itemNotFound: The resource could not be found\. \(HTTP 404\)$/],
    [{ path: 'Reports/r1.txt' }, /^Reports\/r1\.txt is not a folder$/],
  ];
  for (const [over, reason] of cases) {
    const r = await checkConnection('source', 'onedrive', onedrive(over));
    assert.equal(r.status, 'FAILURE', JSON.stringify(over));
    assert.match(r.reason!, reason);
    assert.ok(!r.reason!.includes(od.clientSecret) && !r.reason!.includes('wrong-secret-value'));
  }
});

test('onedrive list: every file under path, paged to the end, subfolders when recursive; the platform\'s data_source', async () => {
  const before = od.calls.length;
  const objs = await all('onedrive', onedrive());
  assert.deepEqual(objs.map((o) => o.key).sort(), ['2026/deep/notes.md', '2026/q1.txt', 'r1.txt', 'r2.txt', 'r3.txt', 'r4.txt', 'r5.txt']);
  const pages = od.calls.slice(before).filter((c) => c.path.endsWith('/children'));
  // Reports holds 6 children (5 files, a folder): 3 pages of 2, the last two by @odata.nextLink.
  assert.equal(pages.length, 5);
  assert.equal(pages.filter((c) => c.query.get('$skiptoken')).length, 2);
  assert.ok(pages.every((c) => c.authorized && c.status === 200));
  const r1 = objs.find((o) => o.key === 'r1.txt')!;
  assert.equal(r1.size, 'report 1\n'.length);
  assert.match(r1.version!, /^"\{.+\},\d+"$/, 'the eTag');
  assert.equal(r1.dataSource!.version, r1.version);
  assert.equal(r1.dataSource!.url, '/drive/root:/Reports/r1.txt');
  assert.deepEqual(r1.dataSource!.record_locator, { user_pname: UPN, server_relative_path: 'Reports/r1.txt' });
  assert.match(r1.dataSource!.date_created!, /^\d+\.\d+$/);
  assert.match(r1.dataSource!.date_modified!, /^\d+\.\d+$/);
  const flat = await all('onedrive', onedrive({ recursive: false }));
  assert.deepEqual(flat.map((o) => o.key).sort(), ['r1.txt', 'r2.txt', 'r3.txt', 'r4.txt', 'r5.txt']);
  const whole = await all('onedrive', onedrive({ path: '' }));
  assert.ok(whole.some((o) => o.key === 'Elsewhere/x.txt' && (o.dataSource!.record_locator as any).server_relative_path === 'Elsewhere/x.txt'));
});

test('onedrive read: exact bytes through the 302 download URL; the version changes with the content', async () => {
  const fetched = src.downloads.fetched;
  const bytes = await readSourceObject('onedrive', onedrive(), '2026/deep/notes.md');
  assert.equal(Buffer.from(bytes).toString('utf8'), '# notes\n');
  assert.equal(src.downloads.fetched, fetched + 1);
  const v1 = (await all('onedrive', onedrive())).find((o) => o.key === 'r2.txt')!.version;
  src.putFile(UPN, 'Reports/r2.txt', 'report 2, revised\n');
  const v2 = (await all('onedrive', onedrive())).find((o) => o.key === 'r2.txt')!.version;
  assert.notEqual(v1, v2);
  assert.equal(Buffer.from(await readSourceObject('onedrive', onedrive(), 'r2.txt')).toString('utf8'), 'report 2, revised\n');
  // A run's reads share the app's token (MSAL's cache), rather than one token request per document.
  const tokenCalls = () => od.calls.filter((c) => c.path.endsWith('/oauth2/v2.0/token')).length;
  const tokens = tokenCalls();
  for (const key of ['r1.txt', 'r3.txt', 'r4.txt']) await readSourceObject('onedrive', onedrive(), key);
  assert.equal(tokenCalls(), tokens);
});

test('onedrive throttling: a 429 with Retry-After on a page and on a download is retried after the delay', async () => {
  const isPage = (c: { path: string }) => c.path.endsWith('/children');
  od.fail({ status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 'activityLimitReached', message: 'The request has been throttled' } }, match: isPage });
  const start = od.calls.length;
  const objs = await all('onedrive', onedrive({ recursive: false }));
  assert.equal(objs.length, 5, 'the listing completed');
  const calls = od.calls.slice(start).filter(isPage);
  assert.equal(calls[0]!.status, 429);
  assert.equal(calls[1]!.path, calls[0]!.path);
  assert.ok(calls[1]!.at - calls[0]!.at >= 950, `retried after Retry-After (${calls[1]!.at - calls[0]!.at} ms)`);

  const isDownload = (c: { path: string }) => c.path.startsWith('/download/');
  od.fail({ status: 503, headers: { 'retry-after': '0' }, body: { error: { code: 'serviceNotAvailable', message: 'Service unavailable' } }, match: isDownload });
  assert.equal(Buffer.from(await readSourceObject('onedrive', onedrive(), 'r3.txt')).toString('utf8'), 'report 3\n');
});

test('onedrive read failures carry Graph\'s text: a document gone (404), access denied (403)', async () => {
  await assert.rejects(readSourceObject('onedrive', onedrive(), 'gone.txt'), { message: 'download of Reports/gone.txt failed: itemNotFound: The resource could not be found. (HTTP 404)' });
  od.fail({ status: 403, body: { error: { code: 'accessDenied', message: 'Access denied. You do not have permission to perform this action or access this resource.' } }, match: (c) => c.path.endsWith(':/content') });
  await assert.rejects(readSourceObject('onedrive', onedrive(), 'r1.txt'), {
    message: 'download of Reports/r1.txt failed: accessDenied: Access denied. You do not have permission to perform this action or access this resource. (HTTP 403)',
  });
  await assert.rejects(readSourceObject('onedrive', onedrive(), '../x.txt'), /invalid object key/);
});

test('onedrive outbound policy: a name resolving to loopback is refused; a download redirect to the metadata address is refused', async () => {
  const before = od.calls.length;
  process.env.GRAPH_API_ENDPOINT = `https://localhost:${od.port}`;
  try {
    process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
    const r = await checkConnection('source', 'onedrive', onedrive({ authority_url: `https://localhost:${od.port}` }));
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /refused: host localhost resolves to a private network address/);
    await assert.rejects(all('onedrive', onedrive({ authority_url: `https://localhost:${od.port}` })), /refused: host localhost resolves to a private network address/);
    assert.equal(od.calls.length, before, 'nothing reached the stand-in');
  } finally {
    env.restore('CONNECTORS_DENY_PRIVATE_NETWORKS');
    process.env.GRAPH_API_ENDPOINT = od.url;
  }
  od.fail({ status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' }, match: (c) => c.path.endsWith(':/content') });
  await assert.rejects(readSourceObject('onedrive', onedrive(), 'r1.txt'), /^Error: download of Reports\/r1\.txt refused: .*metadata/);
});

test('sharepoint config: a site of the tenant (an admin site refused), authority defaulted, client_cred secret', () => {
  assert.throws(() => sharepoint({ site: 'https://contoso-admin.sharepoint.com' }), /an admin site \(all sites of the tenant\) is not supported/);
  assert.throws(() => sharepoint({ site: 'https://evil.example.com/sites/x' }), (e: any) => e.issues.some((i: any) => i.loc.includes('site')));
  assert.equal(validateConfig('source', 'sharepoint', { site: SITE, tenant: 't', client_id: 'c', client_cred: 's' }).authority_url, 'https://login.microsoftonline.com');
  assert.equal(outputConfig('source', 'sharepoint', sharepoint()).client_cred, '**********');
});

test('sharepoint check: token, site, its library and the folder; a missing site or folder fails with Graph\'s text', async () => {
  const ok = await checkConnection('source', 'sharepoint', sharepoint({ path: 'Folder1' }));
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, `token issued; site ${SITE} and its document library found; folder Folder1 found`);
  const site = od.calls.find((c) => c.path === '/v1.0/sites/contoso.sharepoint.com:/sites/eng')!;
  assert.equal(site.status, 200);
  const cases: [Record<string, unknown>, string][] = [
    [{ site: 'https://contoso.sharepoint.com/sites/other' }, `lookup of site https://contoso.sharepoint.com/sites/other failed: itemNotFound: Requested site could not be found (HTTP 404)`],
    [{ path: 'Nope' }, 'lookup of folder Nope failed: itemNotFound: The resource could not be found. (HTTP 404)'],
  ];
  for (const [over, reason] of cases) {
    const r = await checkConnection('source', 'sharepoint', sharepoint(over));
    assert.deepEqual([r.status, r.reason], ['FAILURE', reason]);
  }
});

test('sharepoint list and read: the site\'s default library, paged, recursive; the platform\'s data_source; exact bytes', async () => {
  const before = od.calls.length;
  const objs = await all('sharepoint', sharepoint());
  assert.deepEqual(objs.map((o) => o.key).sort(), ['Folder1/Folder2/fake-email.txt', 'Folder1/fake-memo.txt', 'book.txt', 'list.txt', 'memo.txt']);
  assert.ok(od.calls.slice(before).filter((c) => c.path.endsWith('/children') && c.query.get('$skiptoken')).length >= 1, 'the root (4 children) takes 2 pages');
  const email = objs.find((o) => o.key === 'Folder1/Folder2/fake-email.txt')!;
  assert.equal(email.dataSource!.url, `/drives/${library}/root:/Folder1/Folder2/fake-email.txt`);
  assert.deepEqual(email.dataSource!.record_locator, { user_pname: null, server_relative_path: 'Folder1/Folder2/fake-email.txt' });
  assert.equal(email.dataSource!.version, email.version);
  assert.deepEqual((await all('sharepoint', sharepoint({ path: 'Shared Documents', recursive: false }))).map((o) => o.key).sort(), ['book.txt', 'list.txt', 'memo.txt']);
  const sub = await all('sharepoint', sharepoint({ path: 'Folder1', user_pname: UPN }));
  assert.deepEqual(sub.map((o) => o.key).sort(), ['Folder2/fake-email.txt', 'fake-memo.txt']);
  assert.equal((sub[0]!.dataSource!.record_locator as any).user_pname, UPN);
  assert.equal(Buffer.from(await readSourceObject('sharepoint', sharepoint({ path: 'Folder1' }), 'Folder2/fake-email.txt')).toString('utf8'), 'Folder1/Folder2/fake-email.txt body\n');
  const v1 = email.version;
  src.putFile(library, 'Folder1/Folder2/fake-email.txt', 'changed\n');
  const again = (await all('sharepoint', sharepoint())).find((o) => o.key === email.key)!;
  assert.notEqual(again.version, v1);
  await assert.rejects(readSourceObject('sharepoint', sharepoint(), 'Folder1/missing.pdf'), { message: 'download of Folder1/missing.pdf failed: itemNotFound: The resource could not be found. (HTTP 404)' });
});

test('sharepoint throttling: a 429 with Retry-After on the site lookup is retried', async () => {
  od.fail({ status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 'activityLimitReached', message: 'The request has been throttled' } }, match: (c) => c.path.startsWith('/v1.0/sites/contoso.sharepoint.com:') });
  const start = od.calls.length;
  assert.equal((await all('sharepoint', sharepoint({ recursive: false }))).length, 3);
  const lookups = od.calls.slice(start).filter((c) => c.path.startsWith('/v1.0/sites/contoso.sharepoint.com:'));
  assert.deepEqual(lookups.map((c) => c.status), [429, 200]);
  assert.ok(lookups[1]!.at - lookups[0]!.at >= 950);
});

test('bad pages end the listing with a reason: no value array, a nextLink off the Graph endpoint, the same nextLink again', async () => {
  const children = (c: { path: string }) => c.path.endsWith('/children');
  od.fail({ status: 200, body: { error: 'not a page' }, match: children });
  await assert.rejects(all('onedrive', onedrive({ recursive: false })), { message: 'listing of Reports failed: Graph returned a page without a value array' });
  od.fail({ status: 200, body: { value: [], '@odata.nextLink': 'https://collector.example.com/v1.0/next' }, match: children });
  await assert.rejects(all('onedrive', onedrive({ recursive: false })), { message: `listing of Reports failed: Graph returned a nextLink outside ${od.url}` });
  // A page whose nextLink is the page itself (a server that pages forever).
  await all('onedrive', onedrive({ recursive: false }));
  const first = od.calls.filter(children).at(-1)!;
  const self = `${od.url}${first.path}?${first.query.toString().replaceAll('%24', '$')}`;
  od.fail({ status: 200, body: { value: [], '@odata.nextLink': self }, match: (c) => children(c), times: 2 });
  await assert.rejects(all('onedrive', onedrive({ recursive: false })), { message: 'listing of Reports failed: Graph returned the same nextLink twice' });
});

test('permissions_data as the platform: 20 files per Graph $batch, roles mapped to read/update/delete; unreadable ones unset; a throttled batch retried', async () => {
  src.setPermissions(UPN, 'Reports/r4.txt', [
    { id: 'p1', roles: ['write'], grantedToV2: { user: { id: 'u-1', displayName: 'Alice' } }, grantedTo: { user: { id: 'ignored-v1' } } },
    { id: 'p2', roles: ['read'], grantedToIdentitiesV2: [{ group: { id: 'g-1' } }, { user: { id: 'u-2' } }] },
    { id: 'p3', roles: ['sp.limited access'], grantedToV2: { user: { id: 'u-3' } } },
  ]);
  src.setPermissions(UPN, 'Reports/r5.txt', 'forbidden');
  const batch = (c: { path: string; method: string }) => c.method === 'POST' && c.path === '/v1.0/$batch';
  od.fail({ status: 429, headers: { 'retry-after': '0' }, body: { error: { code: 'activityLimitReached', message: 'throttled' } }, match: batch });
  const before = od.calls.length;
  const objs = await all('onedrive', onedrive());
  const batches = od.calls.slice(before).filter(batch);
  assert.deepEqual(batches.map((c) => c.status), [429, 200], '7 files: one batch, retried once');
  const perms = (key: string) => objs.find((o) => o.key === key)!.dataSource!.permissions_data;
  assert.deepEqual(perms('r4.txt'), [
    { read: { users: ['u-1', 'u-2'], groups: ['g-1'] } },
    { update: { users: ['u-1'], groups: [] } },
    { delete: { users: [], groups: [] } },
  ]);
  assert.equal(perms('r5.txt'), undefined, 'a 403 sub-response leaves them unset');
  assert.deepEqual(perms('r1.txt'), [{ read: { users: [], groups: [] } }, { update: { users: [], groups: [] } }, { delete: { users: [], groups: [] } }], 'no permissions: the empty triple');
  assert.ok(perms('2026/deep/notes.md'));
  // 21 files: a batch of 20, then one of 1.
  for (let i = 0; i < 21; i++) src.putFile(UPN, `Many/f${String(i).padStart(2, '0')}.txt`, `${i}\n`);
  const start = od.calls.length;
  const many = await all('onedrive', onedrive({ path: 'Many' }));
  assert.equal(many.length, 21);
  assert.ok(many.every((o) => Array.isArray(o.dataSource!.permissions_data)));
  assert.equal(od.calls.slice(start).filter(batch).length, 2);
});
