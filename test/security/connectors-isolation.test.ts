// Finding 1 (issue 8): a tenant's s3 connector must never reach the service's own bucket, and
// ambient (runtime) credentials are off unless the operator enables them. Played as the attacker:
// tenant B, in keyed mode, aims s3 sources and destinations at the bucket holding tenant A's job
// inputs and outputs, through the HTTP API; then a connector stored before the fix (never validated)
// is run directly, as a job would, and must be refused before any call. A's output stays unchanged.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { listSourceObjects, readSourceObject, writeDestinationObject } from '../../lambdas/connectors/registry';
import { jobForm, keyedStack, launchJob, locs, messages, waitForJob, type Tenants } from './helpers';

let t: Tenants;
let jobId: string;
let fileId: string;
let outputKey: string;
let original: string;
const BUCKET = 'wps-data';
/** Credentials that do open the service's bucket (this start's emulator credential): refused all the same. */
let creds: { key: string; secret: string };

before(async () => {
  t = await keyedStack();
  creds = { key: t.stack.credentials.accessKeyId, secret: t.stack.credentials.secretAccessKey };
  assert.equal(process.env.BUCKET_NAME, BUCKET);
  const nodes = [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }];
  const created = await launchJob(t.stack, t.asA, jobForm({ job_nodes: nodes }, [{ name: 'a-secret.txt', text: 'Tenant A confidential text.' }]));
  assert.equal(created.status, 200, created.text);
  jobId = created.body.id;
  fileId = created.body.input_file_ids[0];
  assert.equal((await waitForJob(t.stack, t.asA, jobId)).status, 'COMPLETED');
  const out = await t.stack.call('GET', `/api/v1/jobs/${jobId}/download?file_id=${fileId}`, t.asA);
  assert.equal(out.status, 200);
  original = out.text;
  assert.match(original, /confidential/);
  const raw = new S3Client({ region: 'us-east-1', endpoint: t.stack.endpoints.s3, forcePathStyle: true, credentials: t.stack.credentials });
  const listed = await raw.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `jobs/${jobId}/` }));
  raw.destroy();
  outputKey = (listed.Contents ?? []).map((o) => o.Key!).find((k) => k.endsWith(`${fileId}.json`))!;
  assert.ok(outputKey, 'the job output is in the service bucket');
});

after(async () => {
  await t?.stack.close();
});

test("B cannot create an s3 source on the service's bucket, whatever the credentials or endpoint", async () => {
  const attempts = [
    { remote_url: `s3://${BUCKET}/jobs/`, ambient_credentials: true },
    { remote_url: `s3://${BUCKET}/jobs/`, ...creds },
    { remote_url: `s3://${BUCKET}`, anonymous: true },
    { remote_url: `s3://${BUCKET}/jobs/`, endpoint_url: t.stack.endpoints.s3, ...creds },
  ];
  for (const config of attempts) {
    const r = await t.stack.call('POST', '/api/v1/sources/', { ...t.asB, body: { name: 'steal', type: 's3', config } });
    assert.equal(r.status, 422, `${JSON.stringify(config)} -> ${r.status} ${r.text}`);
    assert.ok(locs(r.body).includes('body.config.remote_url'), r.text);
    assert.match(messages(r.body), /service's own (storage|bucket)/);
  }
});

test("B cannot create an s3 destination over A's job output", async () => {
  const prefix = outputKey.slice(0, outputKey.lastIndexOf('/') + 1);
  const r = await t.stack.call('POST', '/api/v1/destinations/', {
    ...t.asB,
    body: { name: 'overwrite', type: 's3', config: { remote_url: `s3://${BUCKET}/${prefix}`, ...creds } },
  });
  assert.equal(r.status, 422, r.text);
  assert.ok(locs(r.body).includes('body.config.remote_url'), r.text);
});

test('ambient_credentials is refused (422 naming the operator setting) unless the operator enables it', async () => {
  const r = await t.stack.call('POST', '/api/v1/sources/', {
    ...t.asB,
    body: { name: 'ambient', type: 's3', config: { remote_url: 's3://tenant-b-bucket/in/', ambient_credentials: true } },
  });
  assert.equal(r.status, 422, r.text);
  assert.ok(locs(r.body).includes('body.config.ambient_credentials'), r.text);
  assert.match(messages(r.body), /CONNECTORS_ALLOW_AMBIENT_CREDENTIALS/);
});

test("a connector stored before the fix cannot read or overwrite the service's bucket; A's output is unchanged", async () => {
  const prefix = outputKey.slice(0, outputKey.lastIndexOf('/') + 1);
  const file = outputKey.slice(prefix.length);
  // Configs as an old record holds them (never validated by the current rules), run as a job runs them.
  const stolenSource = { remote_url: `s3://${BUCKET}/jobs/`, ambient_credentials: true, anonymous: false, recursive: true };
  await assert.rejects(
    (async () => {
      for await (const _ of listSourceObjects('s3', stolenSource)) break;
    })(),
    /service's own (storage|bucket)/,
  );
  await assert.rejects(readSourceObject('s3', { ...stolenSource, ...creds, ambient_credentials: false }, `${jobId}/input/${fileId}`), /service's own (storage|bucket)/);
  const overwrite = { remote_url: `s3://${BUCKET}/${prefix}`, ...creds, anonymous: false, ambient_credentials: false };
  await assert.rejects(writeDestinationObject('s3', overwrite, file, new TextEncoder().encode('[{"text":"B was here"}]')), /service's own (storage|bucket)/);
  const after = await t.stack.call('GET', `/api/v1/jobs/${jobId}/download?file_id=${fileId}`, t.asA);
  assert.equal(after.status, 200);
  assert.equal(after.text, original);
});
