// Dropbox source through the registry and the official `dropbox` SDK (on the policy-guarded fetch),
// against the stand-in speaking API v2 as the SDK calls it (DROPBOX_API_URL): check with Dropbox's
// own error text, list_folder + list_folder/continue paged to the end (page size 2), recursive or
// not, a 429 with Retry-After retried, exact bytes, content_hash as version (changes with content),
// data_source fields, an unreadable file failing with Dropbox's text, the outbound policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConnection, listSourceObjects, readSourceObject, validateConfig } from '../../../lambdas/connectors/registry';
import { dropboxContentHash, startDropboxStandIn, type DropboxStandIn } from '../../../lambdas/connectors/dropbox/test-server';
import { checkFails, nothingReached } from '../../support/connector-tests';
import { savedEnv } from '../../support/env';
import { collect, untext } from './helpers';

let dbx: DropboxStandIn;
const saved = savedEnv(['DROPBOX_API_URL', 'CONNECTORS_DENY_PRIVATE_NETWORKS']);
const config = (over: Record<string, unknown> = {}) => validateConfig('source', 'dropbox', { remote_url: 'dropbox://Team/Docs', token: dbx.token, ...over });

before(async () => {
  dbx = await startDropboxStandIn({ pageSize: 2 });
  process.env.DROPBOX_API_URL = dbx.url;
  for (let i = 1; i <= 5; i++) dbx.put(`/Team/Docs/note-${i}.txt`, `note ${i}`);
  dbx.put('/Team/Docs/Sub/deep.md', '# deep');
  dbx.put('/Team/Other/outside.txt', 'not listed');
});
after(async () => {
  saved.restore();
  await dbx?.stop();
});

test('config: dropbox:// folder, token required and secret, no . or .. segments', () => {
  assert.throws(() => validateConfig('source', 'dropbox', { remote_url: 'dropbox://a' }), /token/);
  assert.throws(() => config({ remote_url: 'dropbox://a/../b' }), (e: any) => e.issues.some((i: any) => i.loc.join('.') === 'body.config.remote_url'));
  assert.equal(config().recursive, true);
});

test('check: SUCCESS with a valid token and folder; FAILURE with Dropbox text, never the token', async () => {
  const ok = await checkConnection('source', 'dropbox', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  const bad = await checkConnection('source', 'dropbox', config({ token: 'sl.wrong-token-value' }));
  assert.equal(bad.status, 'FAILURE');
  assert.match(bad.reason!, /invalid_access_token.*HTTP 401/);
  assert.ok(!bad.reason!.includes('sl.wrong-token-value'));
  const missing = await checkConnection('source', 'dropbox', config({ remote_url: 'dropbox://Nope' }));
  assert.equal(missing.status, 'FAILURE');
  assert.match(missing.reason!, /listing of \/Nope failed: path\/not_found/);
});

test('list: pages to the end (recursive), keys below the folder, content_hash version, data_source', async () => {
  const before = dbx.calls.length;
  const objs = await collect(listSourceObjects('dropbox', config()));
  assert.deepEqual(objs.map((o) => o.key).sort(), ['Sub/deep.md', 'note-1.txt', 'note-2.txt', 'note-3.txt', 'note-4.txt', 'note-5.txt']);
  const continues = dbx.calls.slice(before).filter((c) => c.path === '/2/files/list_folder/continue').length;
  assert.ok(continues >= 3, `paged with list_folder/continue (${continues} continue calls)`);
  const n1 = objs.find((o) => o.key === 'note-1.txt')!;
  assert.equal(n1.version, dropboxContentHash(Buffer.from('note 1')));
  assert.equal(n1.size, 6);
  assert.equal(n1.dataSource!.url, 'dropbox://Team/Docs/note-1.txt');
  assert.equal(n1.dataSource!.version, n1.version);
  assert.deepEqual(Object.keys(n1.dataSource!.record_locator!).sort(), ['file_id', 'protocol', 'remote_file_path']);
  assert.equal(n1.dataSource!.record_locator!.protocol, 'dropbox');
  assert.match(String(n1.dataSource!.record_locator!.file_id), /^id:/);
  assert.match(n1.dataSource!.date_created!, /^\d+(\.\d+)?$/);
  assert.ok(Number(n1.dataSource!.date_modified) > Number(n1.dataSource!.date_created));

  const flat = await collect(listSourceObjects('dropbox', config({ recursive: false })));
  assert.equal(flat.length, 5);
  assert.ok(!flat.some((o) => o.key.includes('/')));
});

test('throttling: a 429 with Retry-After on a page is retried and the listing completes', async () => {
  dbx.fail({ status: 429, headers: { 'retry-after': '1' }, body: { error_summary: 'too_many_requests/..', error: { reason: { '.tag': 'too_many_requests' }, retry_after: 1 } }, match: (c) => c.path === '/2/files/list_folder/continue' });
  const before = dbx.calls.length;
  const objs = await collect(listSourceObjects('dropbox', config()));
  assert.equal(objs.length, 6);
  assert.ok(dbx.calls.slice(before).some((c) => c.status === 429), 'the stand-in answered 429 once');
});

test('a listing that would page forever (a cursor handed back twice) fails with the reason', async () => {
  dbx.fail({ status: 200, body: { entries: [], cursor: 'loop', has_more: true }, match: (c) => c.path === '/2/files/list_folder/continue', times: 2 });
  await assert.rejects(collect(listSourceObjects('dropbox', config())), /dropbox listing of \/Team\/Docs: the service returned a page cursor it had already returned/);
});

test('read: exact bytes; version changes when the content changes', async () => {
  assert.equal(untext(await readSourceObject('dropbox', config(), 'Sub/deep.md')), '# deep');
  const v1 = (await collect(listSourceObjects('dropbox', config()))).find((o) => o.key === 'note-2.txt')!.version;
  dbx.put('/Team/Docs/note-2.txt', 'note 2, edited');
  const v2 = (await collect(listSourceObjects('dropbox', config()))).find((o) => o.key === 'note-2.txt')!.version;
  assert.notEqual(v1, v2);
  assert.equal(untext(await readSourceObject('dropbox', config(), 'note-2.txt')), 'note 2, edited');
});

test('read: an unreadable or vanished file throws with Dropbox text; keys may not escape the folder', async () => {
  dbx.denyDownload('/Team/Docs/note-3.txt', 409, 'restricted_content/..');
  await assert.rejects(readSourceObject('dropbox', config(), 'note-3.txt'), /dropbox download of \/Team\/Docs\/note-3\.txt failed: restricted_content\/\.\. \(HTTP 409\)/);
  await assert.rejects(readSourceObject('dropbox', config(), 'gone.txt'), /path\/not_found/);
  await assert.rejects(readSourceObject('dropbox', config(), '../Other/outside.txt'), /invalid object key/);
});

test('outbound policy: a name resolving to loopback is refused when private networks are denied', async () => {
  await nothingReached(() => dbx.calls.length, async () => {
    await checkFails('source', 'dropbox', config(), /refused: host localhost resolves to a private network address/);
    await assert.rejects(collect(listSourceObjects('dropbox', config())), /refused: host localhost resolves to a private network address/);
  }, { vars: { DROPBOX_API_URL: `http://localhost:${dbx.port}` }, message: 'nothing reached the stand-in' });
});
