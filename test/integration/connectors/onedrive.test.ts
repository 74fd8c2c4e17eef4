// OneDrive destination through the registry, @azure/identity (client credentials, MSAL) and
// @microsoft/microsoft-graph-client, against the HTTPS stand-in of the authority and Graph (trusted
// through CONNECTOR_CA_FILE): each file's elements as <folder>/<key>.json (PUT content up to 4 MB, an
// upload session above), conflictBehavior=replace so a rewrite replaces the file, the platform's
// precheck (token, drive, root folder created when absent), throttling retried with Retry-After,
// refusals with Graph's and Entra ID's text, the outbound policy on both HTTP paths.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { envScope, issuesWith, restoreAfter } from '../../support/connector-tests';
import { checkConnection, deliverToDestination, outputConfig, validateConfig } from '../../../lambdas/connectors/registry';
import { graphClient, GRAPH_SCOPE } from '../../../lambdas/connectors/onedrive/client';
import { selfSignedCert, startOneDriveStandIn, type OneDriveStandIn } from '../../../lambdas/connectors/onedrive/test-server';
import { closedPort } from './helpers';
import { elements, logSink } from './vector-fixtures';

const UPN = 'alice@contoso.com';
let od: OneDriveStandIn;
const env = envScope(['CONNECTOR_CA_FILE', 'GRAPH_API_ENDPOINT', 'CONNECTORS_DENY_PRIVATE_NETWORKS']);
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'onedrive', { authority_url: od.url, tenant: od.tenant, client_id: od.clientId, client_cred: od.clientSecret, user_pname: UPN, remote_url: 'onedrive://Documents/out', ...over });

before(async () => {
  const tls = selfSignedCert();
  env.set({ CONNECTOR_CA_FILE: tls.certFile });
  od = await startOneDriveStandIn({ tls, users: [UPN] });
  env.set({ GRAPH_API_ENDPOINT: od.url });
});
restoreAfter(env, () => od);

test('config: onedrive:// folder, an https authority, a plain tenant; client_cred masked', () => {
  const issues = issuesWith(config);
  assert.match(issues({ remote_url: 'onedrive://' }), /remote_url: remote_url names no folder/);
  assert.match(issues({ remote_url: 'onedrive://a/../b' }), /remote_url: remote_url has an invalid folder path/);
  assert.match(issues({ authority_url: 'http://login.example' }), /authority_url: authority_url must be an https origin/);
  assert.match(issues({ authority_url: 'https://169.254.169.254' }), /authority_url: .*metadata/);
  assert.match(issues({ tenant: 'x/../y' }), /tenant: tenant must be a directory id or domain/);
  assert.equal(outputConfig('destination', 'onedrive', config()).client_cred, '**********');
});

test('check: token, drive and root folder (created when absent, as the platform\'s precheck)', async () => {
  const first = await checkConnection('destination', 'onedrive', config());
  assert.equal(first.status, 'SUCCESS', first.reason);
  assert.equal(first.reason, `token issued; drive of ${UPN} found; folder Documents created`);
  assert.ok(od.folders(UPN).includes('Documents'));
  const again = await checkConnection('destination', 'onedrive', config());
  assert.equal(again.reason, `token issued; business drive of ${UPN} found; folder Documents exists`);
  const token = od.calls.find((c) => c.path.endsWith('/oauth2/v2.0/token'))!;
  assert.equal(token.status, 200);
  assert.ok(od.calls.filter((c) => c.path.startsWith('/v1.0/')).every((c) => c.authorized), 'every Graph call carried an issued token');
});

test('check failures carry Entra ID\'s and Graph\'s text, never the secret', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ client_cred: 'wrong-secret-value' }, /^token request to https:\/\/127\.0\.0\.1:\d+\/contoso\.onmicrosoft\.com failed: invalid_client: .*AADSTS7000215: Invalid client secret provided/],
    [{ client_id: 'unknown-app' }, /unauthorized_client: .*AADSTS700016: Application with identifier 'unknown-app' was not found/],
    [{ tenant: 'other.onmicrosoft.com' }, /^token request to https:\/\/127\.0\.0\.1:\d+\/other\.onmicrosoft\.com failed: OpenID configuration not readable \(HTTP 400: invalid_tenant: AADSTS90002: Tenant 'other\.onmicrosoft\.com' not found/],
    [{ user_pname: 'bob@contoso.com' }, /^drive lookup of bob@contoso\.com failed: ResourceNotFound: User not found \(HTTP 404\)$/],
  ];
  for (const [over, reason] of cases) {
    const r = await checkConnection('destination', 'onedrive', config(over));
    assert.equal(r.status, 'FAILURE', JSON.stringify(over));
    assert.match(r.reason!, reason);
    assert.ok(!r.reason!.includes(od.clientSecret) && !r.reason!.includes('wrong-secret-value'));
  }
  const port = await closedPort();
  const r = await checkConnection('destination', 'onedrive', config({ authority_url: `https://localhost:${port}` }));
  assert.equal(r.status, 'FAILURE');
  assert.match(r.reason!, /^token request to https:\/\/localhost:\d+\/contoso\.onmicrosoft\.com failed: OpenID configuration not readable \(.*ECONNREFUSED/);
});

test('write: <folder>/<key>.json in the user\'s drive; a rewrite replaces the same file', async () => {
  const c = config();
  const first = elements(3, 'first');
  assert.deepEqual(await deliverToDestination('onedrive', c, { sourceId: 'src', sourceKey: 'docs/a.txt', elements: first }), { written: 3 });
  const f1 = od.file(UPN, 'Documents/out/docs/a.txt.json')!;
  assert.equal(f1.via, 'simple');
  assert.equal(f1.conflictBehavior, 'replace');
  const back = JSON.parse(f1.data.toString('utf8'));
  assert.deepEqual(back, first);
  assert.equal(back[2].embeddings!.length, 384);
  assert.equal(back[2].metadata.filetype, 'text/plain');

  await deliverToDestination('onedrive', c, { sourceId: 'src', sourceKey: 'docs/a.txt', elements: elements(2, 'second') });
  const mine = od.files(UPN).filter((f) => f.path.startsWith('Documents/out/docs/'));
  assert.equal(mine.length, 1, 'one file per source file');
  assert.ok(mine[0]!.version > f1.version);
  assert.deepEqual(JSON.parse(mine[0]!.data.toString('utf8')).map((e: any) => e.text), ['second 0', 'second 1']);
});

test('write: a file above 4 MB goes through an upload session in 320 KiB-multiple slices', async () => {
  const big = elements(1500, 'y'.repeat(2000));
  await deliverToDestination('onedrive', config(), { sourceId: 'src', sourceKey: 'big.txt', elements: big });
  const f = od.file(UPN, 'Documents/out/big.txt.json')!;
  assert.equal(f.via, 'session');
  assert.equal(f.conflictBehavior, 'replace');
  assert.ok(f.data.length > 4 * 1024 * 1024);
  assert.equal(JSON.parse(f.data.toString('utf8')).length, 1500);
  const slices = od.calls.filter((c) => c.path.startsWith('/upload/sessions/'));
  assert.ok(slices.length >= 2);
  for (const s of slices.slice(0, -1)) assert.equal(s.bytes % (320 * 1024), 0);
});

test('throttling (429 + Retry-After) and 503 are retried; a refusal fails the file with Graph\'s message', async () => {
  const sink = logSink();
  const isPut = (x: { method: string; path: string }) => x.method === 'PUT' && x.path.endsWith(':/content');
  od.fail({ status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 'activityLimitReached', message: 'The application or user has been throttled.' } }, match: isPut });
  od.fail({ status: 503, body: { error: { code: 'serviceNotAvailable', message: 'Service unavailable' } }, match: isPut });
  await deliverToDestination('onedrive', config(), { sourceId: 'src', sourceKey: 'retry.txt', elements: elements(1) }, { log: sink.log });
  assert.ok(od.file(UPN, 'Documents/out/retry.txt.json'));
  const retries = sink.lines.filter((l) => l.msg === 'onedrive call retried');
  assert.equal(retries.length, 2);
  assert.equal(retries[0]!.fields!.status, 429);
  assert.equal(retries[0]!.fields!.delayMs, 1000, 'Retry-After honoured');

  od.fail({ status: 507, body: { error: { code: 'quotaLimitReached', message: 'Insufficient Space Available' } }, match: isPut, times: 5 });
  await assert.rejects(deliverToDestination('onedrive', config(), { sourceId: 'src', sourceKey: 'full.txt', elements: elements(1) }), {
    message: 'upload of Documents/out/full.txt.json failed: quotaLimitReached: Insufficient Space Available (HTTP 507)',
  });
  od.fail({ status: 403, body: { error: { code: 'accessDenied', message: 'Access denied' } }, match: isPut });
  await assert.rejects(deliverToDestination('onedrive', config(), { sourceId: 'src', sourceKey: 'denied.txt', elements: elements(1) }), {
    message: 'upload of Documents/out/denied.txt.json failed: accessDenied: Access denied (HTTP 403)',
  });
});

test('outbound policy: the token and Graph paths refuse a name resolving to loopback at connect time', async () => {
  const before = od.calls.length;
  process.env.GRAPH_API_ENDPOINT = `https://localhost:${od.port}`;
  try {
    process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
    const r = await checkConnection('destination', 'onedrive', config({ authority_url: `https://localhost:${od.port}` }));
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /^token request to https:\/\/localhost:\d+\/contoso\.onmicrosoft\.com failed: OpenID configuration not readable \(refused: host localhost resolves to a private network address/);
    assert.equal(od.calls.length, before, 'nothing reached the stand-in');
    // Graph alone: a token fetched while allowed (MSAL caches it), then the Graph call once denied.
    process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'false';
    const { client, credential } = graphClient(config() as never);
    await credential.getToken(GRAPH_SCOPE);
    const graphCalls = od.calls.length;
    process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
    await assert.rejects(client.api(`/users/${UPN}/drive`).get(), { code: 'OutboundPolicyError', message: /^host localhost resolves to a private network address/ });
    assert.equal(od.calls.length, graphCalls, 'the Graph call did not arrive');
  } finally {
    env.restore('CONNECTORS_DENY_PRIVATE_NETWORKS');
    process.env.GRAPH_API_ENDPOINT = od.url;
  }
});
