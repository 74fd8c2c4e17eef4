// Google Cloud Storage destination through the registry and the official client
// (@google-cloud/storage), against the JSON-API stand-in that verifies the self-signed JWT of a
// service account key made here: each file's elements as <prefix><key>.json (multipart below 5 MiB,
// a resumable session above), a rewrite replaces the object, the platform's `_empty` precheck,
// throttling retried with Retry-After, refusals and bad keys with GCS's text, the outbound policy
// applied to both HTTP stacks of the client.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFails, envScope, issuesWith, restoreAfter, withEnv } from '../../support/connector-tests';
import { checkConnection, deliverToDestination, outputConfig, validateConfig } from '../../../lambdas/connectors/registry';
import { gcsBucketFor } from '../../../lambdas/connectors/gcs/client';
import { makeServiceAccount, startGcsStandIn, type GcsStandIn, type TestServiceAccount } from '../../../lambdas/connectors/gcs/test-server';
import { closedPort } from './helpers';
import { elements, logSink } from './vector-fixtures';

let gcs: GcsStandIn;
let sa: TestServiceAccount;
const env = envScope(['GCS_API_ENDPOINT']);
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'gcs', { remote_url: 'gs://wf-bucket/out', service_account_key: sa.keyJson, ...over });
const privateKeyBody = () => JSON.parse(sa.keyJson).private_key.split('\n')[1] as string;

before(async () => {
  sa = makeServiceAccount();
  gcs = await startGcsStandIn({ accounts: [sa], buckets: ['wf-bucket'] });
  env.set({ GCS_API_ENDPOINT: gcs.url });
});
restoreAfter(env, () => gcs);

test('config: gs:// or gcs:// with a valid bucket; the key is masked', () => {
  const issue = issuesWith(config);
  assert.match(issue({ remote_url: 's3://wf-bucket/x' }), /body\.config\.remote_url/);
  assert.match(issue({ remote_url: 'gs://B/x' }), /remote_url names an invalid bucket "B"/);
  assert.equal(issue({ remote_url: 'gcs://wf-bucket' }), '');
  assert.equal(outputConfig('destination', 'gcs', config()).service_account_key, '**********');
});

test('check: the platform\'s precheck (an empty _empty object) signed with the key', async () => {
  const ok = await checkConnection('destination', 'gcs', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, 'wrote gs://wf-bucket/out/_empty with the service account key');
  const o = gcs.object('wf-bucket', 'out/_empty')!;
  assert.equal(o.data.length, 0);
  assert.equal(gcs.calls.at(-1)!.caller, sa.email, 'the stand-in verified the JWT against the key');
});

test('check failures carry GCS\'s text and nothing of the key', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ remote_url: 'gs://no-such-bucket/x' }, /^bucket "no-such-bucket" does not exist or is not visible to the service account \(upload: The specified bucket does not exist\.\)$/],
    [{ service_account_key: makeServiceAccount().keyJson }, /^access to bucket "wf-bucket" denied \(upload: Invalid Credentials, HTTP 401\)$/],
    [{ service_account_key: '{"type":"authorized_user","refresh_token":"rt-secret"}' }, /service_account_key is not a service account key .*ambient credentials and key files are not accepted/],
    [{ service_account_key: 'google_default' }, /^service_account_key is not JSON/],
  ];
  for (const [over, reason] of cases) {
    const r = await checkConnection('destination', 'gcs', config(over));
    assert.equal(r.status, 'FAILURE', JSON.stringify(over).slice(0, 60));
    assert.match(r.reason!, reason);
    assert.ok(!r.reason!.includes(privateKeyBody()) && !r.reason!.includes('rt-secret'));
  }
  const port = await closedPort();
  process.env.GCS_API_ENDPOINT = `http://127.0.0.1:${port}`;
  try {
    const r = await checkConnection('destination', 'gcs', config());
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /ECONNREFUSED/);
  } finally {
    process.env.GCS_API_ENDPOINT = gcs.url;
  }
});

test('write: <prefix><key>.json of the elements; a rewrite overwrites the same object', async () => {
  const c = config();
  const first = elements(3, 'first');
  assert.deepEqual(await deliverToDestination('gcs', c, { sourceId: 'src', sourceKey: 'docs/a.txt', elements: first }), { written: 3 });
  const o1 = gcs.object('wf-bucket', 'out/docs/a.txt.json')!;
  assert.equal(o1.uploadType, 'multipart');
  assert.equal(o1.contentType, 'application/json');
  const back = JSON.parse(o1.data.toString('utf8'));
  assert.deepEqual(back, first);
  assert.equal(back[1].embeddings!.length, 384);
  assert.equal(back[1].metadata.filetype, 'text/plain');

  await deliverToDestination('gcs', c, { sourceId: 'src', sourceKey: 'docs/a.txt', elements: elements(2, 'second') });
  const mine = gcs.objects('wf-bucket').filter((o) => o.name.startsWith('out/docs/'));
  assert.equal(mine.length, 1, 'one object per file');
  assert.ok(mine[0]!.generation > o1.generation);
  assert.deepEqual(JSON.parse(mine[0]!.data.toString('utf8')).map((e: any) => e.text), ['second 0', 'second 1']);
});

test('write: a file above 5 MiB goes through a resumable session, read back whole', async () => {
  const big = elements(2000, 'x'.repeat(2000));
  await deliverToDestination('gcs', config(), { sourceId: 'src', sourceKey: 'big.txt', elements: big });
  const o = gcs.object('wf-bucket', 'out/big.txt.json')!;
  assert.equal(o.uploadType, 'resumable');
  assert.ok(o.data.length > 5 * 1024 * 1024);
  assert.equal(JSON.parse(o.data.toString('utf8')).length, 2000);
});

test('throttling (429 + Retry-After) and 5xx are retried; a refusal fails the file with GCS\'s message', async () => {
  const sink = logSink();
  const isUpload = (x: { method: string; path: string }) => x.method === 'POST' && x.path.startsWith('/upload/');
  gcs.fail({ status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 429, message: 'The rate of change requests to the object is too high.' } }, match: isUpload });
  gcs.fail({ status: 503, body: { error: { code: 503, message: 'Backend Error' } }, match: isUpload });
  await deliverToDestination('gcs', config(), { sourceId: 'src', sourceKey: 'retry.txt', elements: elements(1) }, { log: sink.log });
  assert.ok(gcs.object('wf-bucket', 'out/retry.txt.json'));
  const retries = sink.lines.filter((l) => l.msg === 'gcs upload retried');
  assert.equal(retries.length, 2);
  assert.equal(retries[0]!.fields!.delayMs, 1000, 'Retry-After honoured');
  assert.equal(retries[0]!.fields!.status, 429);

  gcs.fail({ status: 400, body: { error: { code: 400, message: 'Object name exceeds the maximum length.', errors: [{ message: 'Object name exceeds the maximum length.', reason: 'invalid' }] } }, match: isUpload });
  await assert.rejects(deliverToDestination('gcs', config(), { sourceId: 'src', sourceKey: 'refused.txt', elements: elements(1) }), {
    message: 'upload on bucket "wf-bucket" failed: Object name exceeds the maximum length. (HTTP 400)',
  });
});

test('outbound policy: both HTTP stacks of the client (multipart and resumable) refuse a name resolving to loopback', async () => {
  // Through the registry: the endpoint is judged before any call.
  await withEnv({ GCS_API_ENDPOINT: `http://localhost:${gcs.port}`, CONNECTORS_DENY_PRIVATE_NETWORKS: 'true' }, async () => {
    await checkFails('destination', 'gcs', config(), /^connect on bucket "wf-bucket" refused: host localhost resolves to a private network address/);
    // The client's own connections: built while allowed, used once denied (the check is at connect).
    process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'false';
    const { bucket } = await gcsBucketFor(config() as never);
    process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
    const before = gcs.calls.length;
    await assert.rejects(bucket.file('out/x.json').save(Buffer.from('[]'), { resumable: false }), /private network address/);
    await assert.rejects(bucket.file('out/y.json').createResumableUpload(), /private network address/);
    await assert.rejects(bucket.getMetadata(), /private network address/);
    assert.equal(gcs.calls.length, before, 'nothing reached the stand-in');
  });
});
