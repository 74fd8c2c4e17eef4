// Databricks Volumes source through the registry against the workspace stand-in speaking the REST
// API as the Databricks SDK uses it (OAuth M2M, SCIM Me, Files API directory listing paged by
// next_page_token, downloads): every file under the volume path (subdirectories when recursive),
// exact bytes, versions from last_modified and size, 429 retried, Databricks' own error texts, and
// the outbound policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConnection, listSourceObjects, outputConfig, readSourceObject, validateConfig } from '../../../lambdas/connectors/registry';
import { startDatabricksStandIn, type DatabricksStandIn } from '../../../lambdas/connectors/databricks/test-server';
import { collect, untext } from './helpers';
import { trustStandIns } from '../../support/stand-in-ca';

const SECRET = 'dbx-source-secret-value';
let dbx: DatabricksStandIn;
const ROOT = '/Volumes/main/default/landing/in';
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('source', 'databricks_volumes', { host: dbx.url, client_id: 'sp-app-id', client_secret: SECRET, catalog: 'main', volume: 'landing', volume_path: 'in', ...over });
const listCalls = (n: number) => dbx.requests.slice(n).filter((r) => r.method === 'GET' && r.path.startsWith('/api/2.0/fs/directories')).length;

let untrustStandIns: (() => void) | undefined;
before(async () => {
  untrustStandIns = trustStandIns();
  dbx = await startDatabricksStandIn({ clients: { 'sp-app-id': SECRET }, volumes: ['main.default.landing'], listPageSize: 2 });
  for (let i = 0; i < 5; i++) dbx.put(`${ROOT}/doc-${i}.txt`, `Document ${i}\n\nSome text of document ${i}.\n`);
  dbx.put(`${ROOT}/sub/deep.txt`, 'A nested document.\n');
  dbx.put('/Volumes/main/default/landing/elsewhere.txt', 'not under volume_path');
});
after(async () => {
  untrustStandIns?.();
  await dbx?.stop();
});

test('config and check: recursive defaults to false, the secret is masked; sign-in and the directory, else Databricks\' text', async () => {
  const c = config();
  assert.equal(c.recursive, false);
  assert.equal(c.schema, 'default');
  assert.equal(outputConfig('source', 'databricks_volumes', c).client_secret, '**********');
  const ok = await checkConnection('source', 'databricks_volumes', c);
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, `signed in as sp-app-id; reading ${ROOT}`);
  const bad = await checkConnection('source', 'databricks_volumes', config({ client_secret: 'wrong-secret-1' }));
  assert.equal(bad.status, 'FAILURE');
  assert.match(bad.reason!, /OAuth token request failed .*HTTP 401 invalid_client: Client authentication failed/);
  const missing = await checkConnection('source', 'databricks_volumes', config({ volume: 'nope' }));
  assert.match(missing.reason!, /directory \/Volumes\/main\/default\/nope\/in not found .*HTTP 404 NOT_FOUND/);
  for (const r of [bad, missing]) assert.ok(!r.reason!.includes('wrong-secret-1') && !r.reason!.includes(SECRET));
});

test('list: the files of volume_path across pages of the directory listing; subdirectories only when recursive', async () => {
  let n = dbx.requests.length;
  const flat = await collect(listSourceObjects('databricks_volumes', config()));
  assert.deepEqual(flat.map((o) => o.key), ['doc-0.txt', 'doc-1.txt', 'doc-2.txt', 'doc-3.txt', 'doc-4.txt']);
  assert.equal(listCalls(n), 3, '6 entries (5 files and a directory) in pages of 2');
  n = dbx.requests.length;
  const deep = await collect(listSourceObjects('databricks_volumes', config({ recursive: true })));
  assert.deepEqual(deep.map((o) => o.key), ['doc-0.txt', 'doc-1.txt', 'doc-2.txt', 'doc-3.txt', 'doc-4.txt', 'sub/deep.txt']);
  assert.equal(listCalls(n), 4);
  const first = flat[0]!;
  assert.match(first.version!, /^\d{13}-\d+$/);
  assert.equal(first.size, 'Document 0\n\nSome text of document 0.\n'.length);
  assert.equal(first.dataSource!.url, `${ROOT}/doc-0.txt`);
  assert.deepEqual(first.dataSource!.record_locator, { catalog: 'main', path: `${ROOT}/doc-0.txt` });
  assert.match(first.dataSource!.date_modified!, /^\d{10}(\.\d+)?$/);
});

test('read: exact bytes; a missing file fails with Databricks\' text; a 429 with Retry-After is retried', async () => {
  const bytes = new Uint8Array([0, 1, 2, 250, 251, 255]);
  dbx.put(`${ROOT}/bin/raw.bin`, bytes);
  assert.deepEqual(await readSourceObject('databricks_volumes', config(), 'bin/raw.bin'), bytes);
  assert.equal(untext(await readSourceObject('databricks_volumes', config(), 'sub/deep.txt')), 'A nested document.\n');
  await assert.rejects(readSourceObject('databricks_volumes', config(), 'gone.txt'), /download of \/Volumes\/main\/default\/landing\/in\/gone\.txt: Databricks answered HTTP 404 NOT_FOUND: The file being accessed is not found\./);
  dbx.fail({ status: 429, headers: { 'retry-after': '0' }, body: { error_code: 'REQUEST_LIMIT_EXCEEDED', message: 'slow down' }, match: (r) => r.method === 'GET' && r.path.startsWith('/api/2.0/fs/directories'), times: 2 });
  assert.equal((await collect(listSourceObjects('databricks_volumes', config()))).length, 5);
});

test('version: a rewritten file gets a new version, the others keep theirs', async () => {
  const v = async (key: string) => (await collect(listSourceObjects('databricks_volumes', config()))).find((o) => o.key === key)!.version;
  const [v1, v2] = [await v('doc-1.txt'), await v('doc-2.txt')];
  dbx.put(`${ROOT}/doc-1.txt`, 'Document 1, rewritten with more words.\n');
  assert.notEqual(await v('doc-1.txt'), v1);
  assert.equal(await v('doc-2.txt'), v2);
});

test('outbound policy: a workspace host resolving to loopback is refused under CONNECTORS_DENY_PRIVATE_NETWORKS', async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  try {
    const host = dbx.url.replace('127.0.0.1', 'localhost');
    const r = await checkConnection('source', 'databricks_volumes', config({ host }));
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /private network address/);
    await assert.rejects(collect(listSourceObjects('databricks_volumes', config({ host }))), /private network address/);
    await assert.rejects(readSourceObject('databricks_volumes', config({ host }), 'doc-0.txt'), /private network address/);
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});
