// Box source through the registry and the official box-typescript-sdk-gen (on the guarded agents),
// against the stand-in speaking the Box API as the SDK calls it (BOX_API_URL): the check with a
// bearer token and with the JWT grant (signature and claims verified by the stand-in), Box's own
// error text, folder items paged with markers to the end (page size 2), recursive or not, a 429 with
// Retry-After retried, exact bytes through Box's download redirect, sha1 as version (changes with
// content), data_source fields, an unreadable file failing with Box's text, the outbound policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { checkConnection, listSourceObjects, readSourceObject, validateConfig } from '../../../lambdas/connectors/registry';
import { startBoxStandIn, type BoxStandIn } from '../../../lambdas/connectors/box/test-server';
import { checkFails, nothingReached } from '../../support/connector-tests';
import { savedEnv } from '../../support/env';
import { collect, untext } from './helpers';

let box: BoxStandIn;
const saved = savedEnv(['BOX_API_URL', 'CONNECTORS_DENY_PRIVATE_NETWORKS']);
const config = (over: Record<string, unknown> = {}) => validateConfig('source', 'box', { remote_url: 'box://Team/Docs', access_token: box.token, ...over });

const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' },
});
const appConfig = (privateKey: string, passphrase = 'pw') =>
  JSON.stringify({ boxAppSettings: { clientID: 'client-id', clientSecret: 'cs', appAuth: { publicKeyID: 'kid', privateKey, passphrase } }, enterpriseID: '42' });

before(async () => {
  box = await startBoxStandIn({ pageSize: 2 });
  box.trustApp({ clientId: 'client-id', clientSecret: 'cs', enterpriseId: '42', publicKey: keys.publicKey });
  process.env.BOX_API_URL = box.url;
  for (let i = 1; i <= 5; i++) box.put(`/Team/Docs/note-${i}.txt`, `note ${i}`);
  box.put('/Team/Docs/Sub/deep.md', '# deep');
  box.put('/Team/Other/outside.txt', 'not listed');
});
after(async () => {
  saved.restore();
  await box?.stop();
});

test('config: box:// folder path without . or .. segments; three optional secrets', () => {
  assert.throws(() => config({ remote_url: 'box://a/../b' }), (e: any) => e.issues.some((i: any) => i.loc.join('.') === 'body.config.remote_url'));
  assert.equal(config().recursive, true);
});

test('check: access_token against /users/me and the folder; FAILURE with Box text, never the token', async () => {
  const ok = await checkConnection('source', 'box', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  const bad = await checkConnection('source', 'box', config({ access_token: 'box-wrong-token' }));
  assert.equal(bad.status, 'FAILURE');
  assert.match(bad.reason!, /Box rejected the access token: The access token provided is invalid\. \(HTTP 401\)/);
  assert.ok(!bad.reason!.includes('box-wrong-token'));
  const missing = await checkConnection('source', 'box', config({ remote_url: 'box://Team/Nope' }));
  assert.equal(missing.status, 'FAILURE');
  assert.match(missing.reason!, /box folder \/Team\/Nope not found/);
  const none = await checkConnection('source', 'box', validateConfig('source', 'box', { remote_url: 'box://f' }));
  assert.match(none.reason!, /no credentials/);
});

test('check: box_app_config runs the SDK JWT grant, which the stand-in verifies; refusals carry Box text', async () => {
  const jwt = config({ access_token: undefined, box_app_config: appConfig(keys.privateKey) });
  const ok = await checkConnection('source', 'box', jwt);
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  const other = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const refused = await checkConnection('source', 'box', { ...jwt, box_app_config: appConfig(other.privateKey, '') });
  assert.equal(refused.status, 'FAILURE');
  assert.match(refused.reason!, /invalid_grant: Signature verification error.*\(HTTP 400\)/);
  const wrongPass = await checkConnection('source', 'box', { ...jwt, box_app_config: appConfig(keys.privateKey, 'nope') });
  assert.match(wrongPass.reason!, /private key cannot be read/);
  const notJson = await checkConnection('source', 'box', { ...jwt, box_app_config: '{not json' });
  assert.match(notJson.reason!, /not a Box JWT app configuration/);
  // listing works with the JWT-issued token too
  assert.equal((await collect(listSourceObjects('box', jwt))).length, 6);
});

test('list: marker pages to the end (recursive), keys below the folder, sha1 version, data_source', async () => {
  const before = box.calls.length;
  const objs = await collect(listSourceObjects('box', config()));
  assert.deepEqual(objs.map((o) => o.key).sort(), ['Sub/deep.md', 'note-1.txt', 'note-2.txt', 'note-3.txt', 'note-4.txt', 'note-5.txt']);
  const markers = box.calls.slice(before).filter((c) => c.path.endsWith('/items') && c.query.get('marker')).length;
  assert.ok(markers >= 2, `the folder read in 3 pages or more (${markers} follow-up pages)`);
  const n1 = objs.find((o) => o.key === 'note-1.txt')!;
  assert.equal(n1.version, createHash('sha1').update('note 1').digest('hex'));
  assert.equal(n1.size, 6);
  assert.equal(n1.dataSource!.url, 'box://Team/Docs/note-1.txt');
  assert.equal(n1.dataSource!.version, n1.version);
  assert.equal(n1.dataSource!.record_locator!.protocol, 'box');
  assert.equal(n1.dataSource!.record_locator!.remote_file_path, 'box://Team/Docs');
  assert.match(String(n1.dataSource!.record_locator!.file_id), /^\d+$/);
  assert.ok(Number(n1.dataSource!.date_modified) > Number(n1.dataSource!.date_created));

  const flat = await collect(listSourceObjects('box', config({ recursive: false })));
  assert.deepEqual(flat.map((o) => o.key).sort(), ['note-1.txt', 'note-2.txt', 'note-3.txt', 'note-4.txt', 'note-5.txt']);
});

test('throttling: a 429 with Retry-After on a page is retried and the listing completes', async () => {
  box.fail({ status: 429, headers: { 'retry-after': '1' }, body: { type: 'error', status: 429, code: 'rate_limit_exceeded', message: 'Request rate limit exceeded, please try again later' }, match: (c) => c.path.endsWith('/items') && Boolean(c.query.get('marker')) });
  const before = box.calls.length;
  const objs = await collect(listSourceObjects('box', config()));
  assert.equal(objs.length, 6);
  assert.ok(box.calls.slice(before).some((c) => c.status === 429), 'the stand-in answered 429 once');
});

test('a listing that would page forever (a marker handed back twice) fails with the reason', async () => {
  box.fail({ status: 200, body: { entries: [], limit: 2, next_marker: 'loop' }, match: (c) => c.path.endsWith('/items') && Boolean(c.query.get('marker')), times: 2 });
  await assert.rejects(collect(listSourceObjects('box', config())), /box listing of \/Team\/Docs: the service returned a page cursor it had already returned/);
});

test('read: exact bytes through the download redirect; version changes when the content changes', async () => {
  assert.equal(untext(await readSourceObject('box', config(), 'Sub/deep.md')), '# deep');
  const v1 = (await collect(listSourceObjects('box', config()))).find((o) => o.key === 'note-2.txt')!.version;
  box.put('/Team/Docs/note-2.txt', 'note 2, edited');
  const v2 = (await collect(listSourceObjects('box', config()))).find((o) => o.key === 'note-2.txt')!.version;
  assert.notEqual(v1, v2);
  assert.equal(untext(await readSourceObject('box', config(), 'note-2.txt')), 'note 2, edited');
});

test('read: an unreadable or vanished file throws with Box text; keys may not escape the folder', async () => {
  box.denyDownload('/Team/Docs/note-3.txt', 403, 'access_denied_insufficient_permissions', 'Access denied - insufficient permission');
  await assert.rejects(readSourceObject('box', config(), 'note-3.txt'), /box download of \/Team\/Docs\/note-3\.txt failed: access_denied_insufficient_permissions: Access denied - insufficient permission \(HTTP 403\)/);
  await assert.rejects(readSourceObject('box', config(), 'gone.txt'), /box file \/Team\/Docs\/gone\.txt not found/);
  await assert.rejects(readSourceObject('box', config(), '../Other/outside.txt'), /invalid object key/);
});

test('outbound policy: a name resolving to loopback is refused when private networks are denied', async () => {
  await nothingReached(() => box.calls.length, async () => {
    await checkFails('source', 'box', config(), /refused: host localhost resolves to a private network address/);
    await assert.rejects(collect(listSourceObjects('box', config())), /refused: host localhost resolves to a private network address/);
  }, { vars: { BOX_API_URL: `http://localhost:${box.port}` }, message: 'nothing reached the stand-in' });
});
