// Databricks Volumes destination through the registry against a workspace stand-in speaking the
// REST API as the Databricks SDK does (OAuth M2M token, SCIM Me, Files API): each file's elements
// JSON uploaded to the volume path with overwrite (a rerun replaces it), 429 + Retry-After retried,
// failures in Databricks' words without the secret, the outbound policy applied.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { configIssues } from '../../support/connector-tests';
import { checkConnection, deliverToDestination, outputConfig, validateConfig } from '../../../lambdas/connectors/registry';
import { startDatabricksStandIn, type DatabricksStandIn } from '../../../lambdas/connectors/databricks/test-server';
import { elements } from './vector-fixtures';
import { trustStandIns } from '../../support/stand-in-ca';

const SECRET = 'dbx-client-secret-value';
let dbx: DatabricksStandIn;
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'databricks_volumes', { host: dbx.url, client_id: 'sp-app-id', client_secret: SECRET, catalog: 'main', volume: 'landing', volume_path: 'out/elements', ...over });

let untrustStandIns: (() => void) | undefined;
before(async () => {
  untrustStandIns = trustStandIns();
  dbx = await startDatabricksStandIn({ clients: { 'sp-app-id': SECRET }, volumes: ['main.default.landing'] });
});
after(async () => {
  untrustStandIns?.();
  await dbx?.stop();
});

test('config: the platform fields (schema defaults to "default"); client_secret masked; names and paths confined', () => {
  const c = config();
  assert.equal(c.schema, 'default');
  assert.equal(outputConfig('destination', 'databricks_volumes', c).client_secret, '**********');
  const issue = (over: Record<string, unknown>) => configIssues(() => config(over)) || undefined;
  assert.match(issue({ volume: 'a/b' })!, /volume: volume must be one Unity Catalog name/);
  assert.match(issue({ volume_path: 'x/../../other' })!, /volume_path: volume_path may not contain/);
  assert.match(issue({ host: 'https://169.254.169.254' })!, /host: .*metadata/);
});

test('check: the service principal signs in (OAuth M2M) and the volume exists; failures carry Databricks\' text', async () => {
  const ok = await checkConnection('destination', 'databricks_volumes', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, 'signed in as sp-app-id; volume main.default.landing exists; files go to /Volumes/main/default/landing/out/elements');
  const token = dbx.requests.find((r) => r.path === '/oidc/v1/token')!;
  assert.match(String(token.headers.authorization), /^Basic /);
  const wrong = await checkConnection('destination', 'databricks_volumes', config({ client_secret: 'not-the-secret' }));
  assert.equal(wrong.status, 'FAILURE');
  assert.match(wrong.reason!, /OAuth token request failed .*: Databricks answered HTTP 401 invalid_client: Client authentication failed/);
  assert.ok(!wrong.reason!.includes('not-the-secret'));
  const missing = await checkConnection('destination', 'databricks_volumes', config({ volume: 'nope' }));
  assert.equal(missing.status, 'FAILURE');
  assert.match(missing.reason!, /volume main\.default\.nope not found/);
});

test('write: elements JSON at <volume>/<volume_path>/<source path>.json, overwritten by a rerun (one copy)', async () => {
  const doc = { sourceId: 'src', sourceKey: 'sub/a.txt' };
  await deliverToDestination('databricks_volumes', config(), { ...doc, elements: elements(3) });
  await deliverToDestination('databricks_volumes', config(), { ...doc, elements: elements(2, 'again') });
  const path = '/Volumes/main/default/landing/out/elements/sub/a.txt.json';
  assert.deepEqual([...dbx.files.keys()].filter((k) => k.includes('a.txt')), [path]);
  const stored = dbx.files.get(path) as any[];
  assert.deepEqual(stored.map((e) => e.text), ['again 0', 'again 1']);
  assert.equal(stored[0].embeddings.length, 384);
  const puts = dbx.requests.filter((r) => r.method === 'PUT');
  assert.ok(puts.every((r) => r.query.get('overwrite') === 'true' && String(r.headers.authorization).startsWith('Bearer ')));
});

test('429 with Retry-After is retried; an upload Databricks refuses fails the file with its message', async () => {
  dbx.fail({ status: 429, body: { error_code: 'REQUEST_LIMIT_EXCEEDED', message: 'slow down' }, headers: { 'retry-after': '1' }, match: (r) => r.method === 'PUT' });
  const before = dbx.requests.length;
  await deliverToDestination('databricks_volumes', config(), { sourceId: 'src', sourceKey: 'b.txt', elements: elements(1) });
  assert.equal(dbx.requests.slice(before).filter((r) => r.method === 'PUT').length, 2);
  assert.ok(dbx.files.has('/Volumes/main/default/landing/out/elements/b.txt.json'));
  await assert.rejects(
    deliverToDestination('databricks_volumes', config({ volume: 'gone' }), { sourceId: 'src', sourceKey: 'c.txt', elements: elements(1) }),
    /upload of c\.txt\.json: Databricks answered HTTP 404 NOT_FOUND: Volume 'main\.default\.gone' does not exist\./,
  );
});

test('outbound policy: with private networks denied, a workspace host on loopback is refused', async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  try {
    const c = await checkConnection('destination', 'databricks_volumes', config({ host: dbx.url.replace('127.0.0.1', 'localhost') }));
    assert.equal(c.status, 'FAILURE');
    assert.match(c.reason!, /OAuth token request failed: .*(loopback|private|not allowed|refused)/i);
    assert.equal(dbx.requests.filter((r) => r.headers.host?.startsWith('localhost')).length, 0, 'nothing reached the stand-in');
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});
