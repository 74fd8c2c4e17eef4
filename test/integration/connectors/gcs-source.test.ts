// Google Cloud Storage source through the registry and the official client (@google-cloud/storage),
// against the JSON-API stand-in (pages of 2 objects, so every listing takes several pages; every call
// must carry a JWT signed by the key made here): list to the end, recursive or one level, etag as the
// version, the platform's data_source, media download with exact bytes, throttling retried, a missing
// object failing with GCS's text, check success/failure, the outbound policy.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFails, envScope, restoreAfter, withEnv } from '../../support/connector-tests';
import { checkConnection, listSourceObjects, readSourceObject, validateConfig } from '../../../lambdas/connectors/registry';
import { makeServiceAccount, startGcsStandIn, type GcsStandIn, type TestServiceAccount } from '../../../lambdas/connectors/gcs/test-server';
import { collect, untext } from './helpers';

let gcs: GcsStandIn;
let sa: TestServiceAccount;
const env = envScope(['GCS_API_ENDPOINT']);
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('source', 'gcs', { remote_url: 'gs://src-bucket/docs', service_account_key: sa.keyJson, ...over });
const privateKeyBody = () => JSON.parse(sa.keyJson).private_key.split('\n')[1] as string;
const listCalls = () => gcs.calls.filter((c) => c.method === 'GET' && c.path === '/storage/v1/b/src-bucket/o');

before(async () => {
  sa = makeServiceAccount('reader@test-project.iam.gserviceaccount.com');
  gcs = await startGcsStandIn({ accounts: [sa], buckets: ['src-bucket', 'empty-bucket'], pageSize: 2 });
  for (let i = 0; i < 5; i++) gcs.put('src-bucket', `docs/file-${i}.txt`, `text of file ${i}`, 'text/plain');
  gcs.put('src-bucket', 'docs/sub/deep.txt', 'deep text', 'text/plain');
  gcs.put('src-bucket', 'docs/sub/', '');
  gcs.put('src-bucket', 'docs/empty.txt', '');
  gcs.put('src-bucket', 'other/outside.txt', 'not under the prefix');
  env.set({ GCS_API_ENDPOINT: gcs.url });
});
restoreAfter(env, () => gcs);

test('list: every non-empty object under the prefix, page by page to the end, with etag and data_source', async () => {
  const before = listCalls().length;
  const objs = await collect(listSourceObjects('gcs', config()));
  assert.deepEqual(objs.map((o) => o.key).sort(), ['file-0.txt', 'file-1.txt', 'file-2.txt', 'file-3.txt', 'file-4.txt', 'sub/deep.txt']);
  const calls = listCalls().slice(before);
  assert.ok(calls.length >= 4, `paged (${calls.length} list calls)`);
  assert.ok(calls.slice(1).every((c) => c.query.get('pageToken')), 'each later page asked with the previous pageToken');
  assert.ok(calls.every((c) => c.query.get('prefix') === 'docs/' && c.caller === sa.email));

  const stored = gcs.object('src-bucket', 'docs/file-1.txt')!;
  const one = objs.find((o) => o.key === 'file-1.txt')!;
  assert.equal(one.size, stored.data.length);
  assert.equal(one.version, Buffer.from(`${stored.generation}/1`).toString('base64'), 'the etag');
  assert.deepEqual(one.dataSource, {
    url: 'gs://src-bucket/docs/file-1.txt',
    version: one.version,
    record_locator: { protocol: 'gs', remote_file_path: 'gs://src-bucket/docs', file_id: `src-bucket/docs/file-1.txt/${stored.generation}` },
    date_created: String(stored.created.getTime() / 1000).replace(/^(\d+)$/, '$1.0'),
    date_modified: String(stored.created.getTime() / 1000).replace(/^(\d+)$/, '$1.0'),
  });
});

test('list: recursive false lists one level (delimiter /), still paged', async () => {
  const before = listCalls().length;
  const objs = await collect(listSourceObjects('gcs', config({ recursive: false, remote_url: 'gcs://src-bucket/docs/' })));
  assert.deepEqual(objs.map((o) => o.key).sort(), ['file-0.txt', 'file-1.txt', 'file-2.txt', 'file-3.txt', 'file-4.txt']);
  assert.ok(listCalls().slice(before).every((c) => c.query.get('delimiter') === '/'));
  assert.equal(objs[0]!.dataSource!.url!.startsWith('gcs://src-bucket/docs/'), true);
});

test('read: the exact bytes; a rewritten object gets a new version', async () => {
  const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 10, 13]);
  gcs.put('src-bucket', 'docs/bin/blob.bin', bytes);
  const got = await readSourceObject('gcs', config(), 'bin/blob.bin');
  assert.deepEqual(Buffer.from(got), bytes);
  assert.equal(untext(await readSourceObject('gcs', config(), 'sub/deep.txt')), 'deep text');

  const v1 = (await collect(listSourceObjects('gcs', config()))).find((o) => o.key === 'file-2.txt')!.version;
  gcs.put('src-bucket', 'docs/file-2.txt', 'text of file 2, edited', 'text/plain');
  const after = (await collect(listSourceObjects('gcs', config()))).find((o) => o.key === 'file-2.txt')!;
  assert.notEqual(after.version, v1);
  assert.equal(untext(await readSourceObject('gcs', config(), 'file-2.txt')), 'text of file 2, edited');
  gcs.remove('src-bucket', 'docs/bin/blob.bin');
});

test('throttling: a 429 with Retry-After on a list page and on a download is retried', async () => {
  const isList = (c: { method: string; path: string }) => c.method === 'GET' && c.path === '/storage/v1/b/src-bucket/o';
  const isMedia = (c: { path: string; query: URLSearchParams }) => c.path.endsWith('/o/docs%2Ffile-3.txt') && c.query.get('alt') === 'media';
  const throttled = { status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 429, message: 'The rate of change requests to the object is too high.' } } };
  gcs.fail({ ...throttled, match: (c) => isList(c) && Boolean(c.query.get('pageToken')) });
  const started = Date.now();
  assert.equal((await collect(listSourceObjects('gcs', config()))).length, 6);
  assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
  gcs.fail({ ...throttled, match: isMedia });
  gcs.fail({ status: 503, body: { error: { code: 503, message: 'Backend Error' } }, match: isMedia });
  assert.equal(untext(await readSourceObject('gcs', config(), 'file-3.txt')), 'text of file 3');
  assert.equal(gcs.calls.filter((c) => isMedia(c)).map((c) => c.status).join(','), '429,503,200');
});

test('read failures: a missing object and a refused one fail with GCS\'s text', async () => {
  await assert.rejects(readSourceObject('gcs', config(), 'gone.txt'), (err: Error) => {
    assert.match(err.message, /^object gs:\/\/src-bucket\/docs\/gone\.txt not found \(download: .*No such object: src-bucket\/docs\/gone\.txt/);
    return true;
  });
  gcs.fail({ status: 403, body: { error: { code: 403, message: 'reader@test-project.iam.gserviceaccount.com does not have storage.objects.get access to the Google Cloud Storage object.', errors: [{ message: 'reader@test-project.iam.gserviceaccount.com does not have storage.objects.get access to the Google Cloud Storage object.', reason: 'forbidden' }] } }, match: (c) => c.query.get('alt') === 'media' });
  await assert.rejects(readSourceObject('gcs', config(), 'file-0.txt'), /access to bucket "src-bucket" denied \(download: .*does not have storage\.objects\.get access.*HTTP 403\)/);
  await assert.rejects(readSourceObject('gcs', config(), '../other/outside.txt'), /invalid object key/);
});

test('check: lists the prefix and reads the first object\'s metadata; failures carry GCS\'s text, never the key', async () => {
  const ok = await checkConnection('source', 'gcs', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.match(ok.reason!, /^listed gs:\/\/src-bucket\/docs\/ and read the metadata of docs\/empty\.txt with the service account key$/);
  const empty = await checkConnection('source', 'gcs', config({ remote_url: 'gs://empty-bucket' }));
  assert.equal(empty.status, 'SUCCESS', empty.reason);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ remote_url: 'gs://no-such-bucket/x' }, /^bucket "no-such-bucket" does not exist or is not visible to the service account \(list: The specified bucket does not exist\.\)$/],
    [{ service_account_key: makeServiceAccount().keyJson }, /^access to bucket "src-bucket" denied \(list: Invalid Credentials, HTTP 401\)$/],
    [{ service_account_key: 'google_default' }, /^service_account_key is not JSON/],
  ];
  for (const [over, reason] of cases) {
    const r = await checkConnection('source', 'gcs', config(over));
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, reason);
    assert.ok(!r.reason!.includes(privateKeyBody()));
  }
  await assert.rejects(collect(listSourceObjects('gcs', config({ remote_url: 'gs://no-such-bucket' }))), /bucket "no-such-bucket" does not exist/);
});

test('outbound policy: an endpoint resolving to loopback is refused for check, list and read; nothing arrives', async () => {
  await withEnv({ GCS_API_ENDPOINT: `http://localhost:${gcs.port}`, CONNECTORS_DENY_PRIVATE_NETWORKS: 'true' }, async () => {
    const before = gcs.calls.length;
    await checkFails('source', 'gcs', config(), /refused: host localhost resolves to a private network address/);
    await assert.rejects(collect(listSourceObjects('gcs', config())), /private network address/);
    await assert.rejects(readSourceObject('gcs', config(), 'file-0.txt'), /private network address/);
    assert.equal(gcs.calls.length, before);
  });
});
