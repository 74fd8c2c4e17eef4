// Google Drive source through the registry and the official client (@googleapis/drive with
// google-auth-library), against the Drive v3 + OAuth token stand-in (pages of 2 files): the service
// account's JWT exchanged for a token, folder walk paged to the end (recursive or not), the
// platform's extension query, native Docs exported, version/data_source, throttling retried,
// unreadable files failing with Drive's text, check success/failure, the outbound policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { configIssues } from '../../support/connector-tests';
import { checkConnection, listSourceObjects, readSourceObject, validateConfig } from '../../../lambdas/connectors/registry';
import { makeServiceAccount, type TestServiceAccount } from '../../../lambdas/connectors/gcs/test-server';
import { startDriveStandIn, type DriveStandIn } from '../../../lambdas/connectors/google-drive/test-server';
import { collect, untext } from './helpers';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
let drive: DriveStandIn;
let sa: TestServiceAccount;
const saved: Record<string, string | undefined> = {};
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('source', 'google_drive', { drive_id: 'root1', service_account_key: sa.keyJson, ...over });
const privateKeyBody = () => JSON.parse(sa.keyJson).private_key.split('\n')[1] as string;
const listCalls = () => drive.calls.filter((c) => c.path === '/drive/v3/files');

before(async () => {
  sa = makeServiceAccount('drive-reader@test-project.iam.gserviceaccount.com');
  drive = await startDriveStandIn({ accounts: [sa], pageSize: 2 });
  drive.folder('root1', 'Shared docs');
  for (let i = 0; i < 4; i++) drive.file({ id: `txt${i}`, name: `note-${i}.txt`, mimeType: 'text/plain', parents: ['root1'], data: Buffer.from(`note ${i}`) });
  drive.file({ id: 'gdoc1', name: 'Plan', mimeType: 'application/vnd.google-apps.document', parents: ['root1'], exports: { [DOCX]: Buffer.from('PK-docx-bytes') }, permissions: [{ id: 'u1', type: 'user', role: 'writer' }, { id: 'g1', type: 'group', role: 'reader' }, { id: 'anyoneWithLink', type: 'anyone', role: 'reader' }] });
  drive.file({ id: 'short1', name: 'Link', mimeType: 'application/vnd.google-apps.shortcut', parents: ['root1'] });
  drive.file({ id: 'empty1', name: 'empty', mimeType: 'inode/x-empty', parents: ['root1'], data: Buffer.alloc(0) });
  drive.file({ id: 'script1', name: 'Macro', mimeType: 'application/vnd.google-apps.script', parents: ['root1'] });
  drive.file({ id: 'trash1', name: 'old.txt', mimeType: 'text/plain', parents: ['root1'], data: Buffer.from('x'), trashed: true });
  drive.folder('sub1', 'sub', 'root1');
  drive.file({ id: 'pdf1', name: 'deep.pdf', mimeType: 'application/pdf', parents: ['sub1'], data: Buffer.from([37, 80, 68, 70, 0, 255, 1]) });
  drive.folder('sub2', 'deeper', 'sub1');
  drive.file({ id: 'md1', name: 'x.md', mimeType: 'text/markdown', parents: ['sub2'], data: Buffer.from('# x') });
  for (const [k, v] of Object.entries({ GOOGLE_DRIVE_API_ENDPOINT: drive.url, GOOGLE_OAUTH_TOKEN_URL: drive.tokenUrl })) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
});
after(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await drive?.stop();
});

test('config: a bad drive_id or extension is a 422 item; the credential choice is judged at use', async () => {
  const locs = (over: Record<string, unknown>) => configIssues(() => validateConfig('source', 'google_drive', { drive_id: 'root1', ...over }));
  assert.match(locs({ oauth_token: 't', extensions: ['p df'] }), /body\.config\.extensions\.0: an extension is letters and digits/);
  for (const [over, reason] of [
    [{}, 'either service_account_key or oauth_token must be set'],
    [{ service_account_key: sa.keyJson, oauth_token: 't' }, 'cannot use both service account and oauth_token authentication'],
    [{ service_account_key: { id: 'ref-1' } }, 'service_account_key is a secret reference, which this deployment does not resolve: give the JSON key of the service account'],
  ] as const) {
    const r = await checkConnection('source', 'google_drive', validateConfig('source', 'google_drive', { drive_id: 'root1', ...over }));
    assert.equal(r.status, 'FAILURE');
    assert.equal(r.reason, reason);
  }
  assert.match(locs({ oauth_token: 't', drive_id: "x' or name contains 'y" }), /body\.config\.drive_id: drive_id must be a Google Drive file or folder id/);
  assert.equal(locs({ oauth_token: 't', extensions: ['.pdf', 'docx'] }), '');
  // a record stored before this validation existed: judged again before it reaches a files.list query
  const injected = { drive_id: "root1' in parents or name contains '", oauth_token: drive.userToken };
  const before = drive.calls.length;
  await assert.rejects(collect(listSourceObjects('google_drive', injected)), /drive_id must be a Google Drive file or folder id/);
  assert.equal(drive.calls.length, before);
});

test('list: the folder walked recursively, page by page, with the platform\'s skips, version and data_source', async () => {
  // Shortcuts, empty and trashed files are not documents; an Apps Script is listed and fails at read, as the platform.
  const before = drive.calls.length;
  const objs = await collect(listSourceObjects('google_drive', config()));
  assert.deepEqual(objs.map((o) => `${o.key}:${o.filename}`).sort(), ['gdoc1:Plan.docx', 'md1:x.md', 'pdf1:deep.pdf', 'script1:Macro', 'txt0:note-0.txt', 'txt1:note-1.txt', 'txt2:note-2.txt', 'txt3:note-3.txt']);
  const calls = drive.calls.slice(before);
  assert.equal(calls[0]!.path, '/token', 'the JWT was exchanged for a token first');
  const rootPages = calls.filter((c) => c.path === '/drive/v3/files' && c.query.get('q') === "'root1' in parents and trashed = false");
  assert.ok(rootPages.length >= 4, `root folder listed in ${rootPages.length} pages`);
  assert.ok(rootPages.slice(1).every((c) => c.query.get('pageToken')));
  assert.ok(calls.filter((c) => c.path !== '/token').every((c) => c.caller === sa.email && c.status === 200));

  const pdf = objs.find((o) => o.key === 'pdf1')!;
  assert.equal(pdf.version, '1');
  assert.equal(pdf.size, 7);
  const f = drive.get('pdf1')!;
  assert.deepEqual(pdf.dataSource, {
    url: 'https://drive.google.com/uc?id=pdf1&export=download',
    version: '1',
    record_locator: { file_id: 'pdf1', drive_id: 'root1' },
    date_created: String(Date.parse(f.createdTime) / 1000) + '.0',
    date_modified: String(Date.parse(f.modifiedTime) / 1000) + '.0',
    permissions_data: [{}],
  });
  const doc = objs.find((o) => o.key === 'gdoc1')!;
  assert.equal(doc.dataSource!.url, 'https://drive.google.com/file/d/gdoc1/view?usp=drivesdk', 'a native file has only webViewLink');
  assert.deepEqual(doc.dataSource!.permissions_data, [
    { read: { users: ['u1'], groups: ['g1'] } },
    { update: { users: ['u1'], groups: [] } },
    { delete: { users: [], groups: [] } },
  ]);
});

test('list: recursive false stays in the folder; extensions go into the query as the platform writes it; a file id is one document', async () => {
  const flat = await collect(listSourceObjects('google_drive', config({ recursive: false })));
  assert.deepEqual(flat.map((o) => o.key).sort(), ['gdoc1', 'script1', 'txt0', 'txt1', 'txt2', 'txt3']);

  const before = listCalls().length;
  const filtered = await collect(listSourceObjects('google_drive', config({ extensions: ['.docx', 'MD'] })));
  assert.deepEqual(filtered.map((o) => o.key).sort(), ['gdoc1', 'md1']);
  assert.equal(
    listCalls()[before]!.query.get('q'),
    "'root1' in parents and trashed = false and (fileExtension = 'docx' or fileExtension = 'md' or mimeType = 'application/vnd.google-apps.document' or mimeType = 'application/vnd.google-apps.folder')",
  );
  const single = await collect(listSourceObjects('google_drive', config({ drive_id: 'pdf1' })));
  assert.deepEqual(single.map((o) => [o.key, o.filename]), [['pdf1', 'deep.pdf']]);
});

test('read: exact bytes by alt=media, a Google Doc exported to docx; an edit raises the version', async () => {
  assert.deepEqual([...(await readSourceObject('google_drive', config(), 'pdf1'))], [37, 80, 68, 70, 0, 255, 1]);
  assert.equal(untext(await readSourceObject('google_drive', config(), 'gdoc1')), 'PK-docx-bytes');
  const exp = drive.calls.filter((c) => c.path === '/drive/v3/files/gdoc1/export').at(-1)!;
  assert.equal(exp.query.get('mimeType'), DOCX);

  drive.update('txt1', 'note 1, edited');
  const after = (await collect(listSourceObjects('google_drive', config()))).find((o) => o.key === 'txt1')!;
  assert.equal(after.version, '2');
  assert.equal(untext(await readSourceObject('google_drive', config(), 'txt1')), 'note 1, edited');
});

test('throttling: 429 with Retry-After on a list page and on a download is retried', async () => {
  const throttled = { status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 429, message: 'User rate limit exceeded.', errors: [{ reason: 'userRateLimitExceeded' }] } } };
  drive.fail({ ...throttled, match: (c) => c.path === '/drive/v3/files' && Boolean(c.query.get('pageToken')) });
  const started = Date.now();
  assert.equal((await collect(listSourceObjects('google_drive', config()))).length, 8);
  assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
  const isMedia = (c: { path: string; query: URLSearchParams }) => c.path === '/drive/v3/files/txt2' && c.query.get('alt') === 'media';
  drive.fail({ ...throttled, match: isMedia });
  drive.fail({ status: 503, body: { error: { code: 503, message: 'Backend Error' } }, match: isMedia });
  assert.equal(untext(await readSourceObject('google_drive', config(), 'txt2')), 'note 2');
  assert.equal(drive.calls.filter(isMedia).map((c) => c.status).join(','), '429,503,200');
});

test('read failures: a missing file, an unexportable native type and a refused download carry Drive\'s text', async () => {
  await assert.rejects(readSourceObject('google_drive', config(), 'nope'), { message: 'Google Drive nope not found or not shared with the account (files.get: File not found: nope.)' });
  await assert.rejects(readSourceObject('google_drive', config(), 'script1'), /^Error: Unsupported Google Drive native MIME type for file script1: application\/vnd\.google-apps\.script/);
  drive.fail({ status: 403, body: { error: { code: 403, message: 'The user does not have sufficient permissions for file txt3.', errors: [{ reason: 'insufficientFilePermissions' }] } }, match: (c) => c.query.get('alt') === 'media' });
  await assert.rejects(readSourceObject('google_drive', config(), 'txt3'), { message: 'Google Drive access denied (files.get alt=media txt3: The user does not have sufficient permissions for file txt3., HTTP 403)' });
  await assert.rejects(readSourceObject('google_drive', config(), '../x'), /invalid Google Drive file id/);
});

test('check: a real authenticated call (service account or OAuth token); failures carry Google\'s text, never a secret', async () => {
  const ok = await checkConnection('source', 'google_drive', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, 'reached folder "Shared docs" (root1) with the service account key');
  const user = await checkConnection('source', 'google_drive', config({ service_account_key: undefined, oauth_token: drive.userToken, drive_id: 'pdf1' }));
  assert.equal(user.status, 'SUCCESS', user.reason);
  assert.equal(user.reason, 'reached file "deep.pdf" (pdf1) with the OAuth token');

  const other = makeServiceAccount('stranger@test-project.iam.gserviceaccount.com');
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ service_account_key: other.keyJson }, /^Google Drive authentication failed \(files\.list: invalid_grant: Invalid grant: account not found, HTTP 400\)$/],
    [{ service_account_key: undefined, oauth_token: 'ya29.revoked-token' }, /^Google Drive authentication failed \(files\.list: Request had invalid authentication credentials\..*HTTP 401\)$/],
    [{ drive_id: 'missing1' }, /^Google Drive missing1 not found or not shared with the account \(files\.get: File not found: missing1\.\)$/],
  ];
  for (const [over, reason] of cases) {
    const r = await checkConnection('source', 'google_drive', config(over));
    assert.equal(r.status, 'FAILURE', JSON.stringify(over).slice(0, 80));
    assert.match(r.reason!, reason);
    assert.ok(!r.reason!.includes(privateKeyBody()) && !r.reason!.includes('ya29.revoked-token'));
  }
});

test('outbound policy: API and token endpoints resolving to loopback are refused; nothing arrives', async () => {
  const savedDeny = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  process.env.GOOGLE_DRIVE_API_ENDPOINT = `http://localhost:${drive.port}/`;
  process.env.GOOGLE_OAUTH_TOKEN_URL = `http://localhost:${drive.port}/token`;
  const before = drive.calls.length;
  try {
    const r = await checkConnection('source', 'google_drive', config());
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /^Google Drive connect refused: host localhost resolves to a private network address/);
    await assert.rejects(collect(listSourceObjects('google_drive', config())), /private network address/);
    await assert.rejects(readSourceObject('google_drive', config({ service_account_key: undefined, oauth_token: drive.userToken }), 'txt0'), /private network address/);
    assert.equal(drive.calls.length, before);
  } finally {
    if (savedDeny === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = savedDeny;
    process.env.GOOGLE_DRIVE_API_ENDPOINT = drive.url;
    process.env.GOOGLE_OAUTH_TOKEN_URL = drive.tokenUrl;
  }
});
