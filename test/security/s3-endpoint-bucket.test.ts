// Finding 3 (issue 27): the service-bucket guard must decide on the request the S3 client sends, not
// on remote_url's bucket alone. Played as the attacker: tenant B, in keyed mode (private networks
// allowed, the local default), names the S3 emulator with the service's bucket as the endpoint's path
// (path-style addressing then writes s3://jobs/PWNED3/ as <service bucket>/jobs/PWNED3/), or as the
// endpoint's host (virtual-hosted style). Refused at create (422 naming the endpoint field); a record
// stored before the fix is run by a workflow and writes nothing into the service's bucket, and the
// client itself refuses such a request whatever the config said. Connectors that take any other
// endpoint URL cannot reach the service's emulators at all, under any spelling of this machine. A
// legitimate s3 destination works.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CreateBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { s3ClientFor, type S3Config } from '../../lambdas/connectors/types/s3';
import { serviceBucketRequestProblem } from '../../lambdas/connectors/service-boundary';
import { checkConnection, validateConfig } from '../../lambdas/connectors/registry';
import { guardedFetch, serviceEndpointProblem } from '../../lambdas/net/outbound';
import { coreStore } from '../../lambdas/services/core';
import { keys } from '../../lambdas/data/keys';
import { eventually } from '../support/local-stack';
import { keyedStack, locs, messages, type Tenants } from './helpers';

const BUCKET = 'wps-data';
// -- the local S3 holds the tenants' buckets too: its per-start credential is what a tenant's keys are here --
let creds: { key: string; secret: string };
let t: Tenants;
let admin: S3Client;
let s3: string;
let port: string;
let sourceId: string;

async function serviceKeys(): Promise<string[]> {
  const out = await admin.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (out.Contents ?? []).map((o) => o.Key!);
}

before(async () => {
  t = await keyedStack();
  assert.equal(process.env.BUCKET_NAME, BUCKET);
  s3 = t.stack.endpoints.s3!;
  port = new URL(s3).port;
  creds = { key: t.stack.credentials.accessKeyId, secret: t.stack.credentials.secretAccessKey };
  admin = new S3Client({ region: 'us-east-1', endpoint: s3, forcePathStyle: true, credentials: t.stack.credentials });
  for (const b of ['jobs', 'tenant-b-in', 'tenant-b-out']) await admin.send(new CreateBucketCommand({ Bucket: b }));
  await admin.send(new PutObjectCommand({ Bucket: 'tenant-b-in', Key: 'in/note.txt', Body: 'Tenant B writes a note.' }));
  const src = await t.stack.call('POST', '/api/v1/sources/', { ...t.asB, body: { name: 'in', type: 's3', config: { remote_url: 's3://tenant-b-in/in/', ...creds } } });
  assert.equal(src.status, 200, src.text);
  sourceId = src.body.id;
});

after(async () => {
  admin?.destroy();
  await t?.stack.close();
});

async function runWorkflow(destinationId: string) {
  const nodes = [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }];
  const wf = await t.stack.call('POST', '/api/v1/workflows/', {
    ...t.asB,
    body: { name: `wf-${destinationId.slice(0, 8)}`, workflow_type: 'custom', reprocess_all: true, workflow_nodes: nodes, source_id: sourceId, destination_id: destinationId },
  });
  assert.equal(wf.status, 200, wf.text);
  const run = await t.stack.call('POST', `/api/v1/workflows/${wf.body.id}/run`, t.asB);
  assert.equal(run.status, 202, run.text);
  return eventually(async () => {
    const r = await t.stack.call('GET', `/api/v1/jobs/${run.body.id}`, t.asB);
    return ['COMPLETED', 'FAILED', 'STOPPED'].includes(r.body.status) ? r.body : undefined;
  }, 'workflow job', 180_000);
}

test('an endpoint carrying a path, or naming the service bucket as its host, is refused at create (422 on endpoint_url)', async () => {
  const endpoints = [
    `${s3}/${BUCKET}/`, // the PWNED3 report
    `${s3}/${BUCKET}`,
    `http://localhost:${port}/WPS-DATA/`,
    `http://[::1]:${port}/%77ps-data/`,
    `http://127.0.0.1.:${port}/other/`, // any path: it would prefix every bucket
    `${s3}/?x-id=PutObject`,
    `http://S3RVER:S3RVER@127.0.0.1:${port}`,
    // virtual-hosted spellings of the service's bucket
    `http://${BUCKET}.localhost:${port}`,
    `http://WPS-DATA.localhost.:${port}/`,
    `https://${BUCKET}.s3.us-east-1.amazonaws.com`,
  ];
  for (const endpoint_url of endpoints) {
    const r = await t.stack.call('POST', '/api/v1/destinations/', {
      ...t.asB,
      body: { name: 'pwned3', type: 's3', config: { remote_url: 's3://jobs/PWNED3/', endpoint_url, anonymous: true } },
    });
    assert.equal(r.status, 422, `${endpoint_url} -> ${r.status} ${r.text}`);
    assert.ok(locs(r.body).includes('body.config.endpoint_url'), r.text);
  }
  const r = await t.stack.call('POST', '/api/v1/destinations/', {
    ...t.asB,
    body: {
      name: 'wx',
      type: 'ibm_watsonx_s3',
      config: {
        iam_api_key: 'k', access_key_id: 'a', secret_access_key: 's', iceberg_endpoint: 'https://catalog.example.com', object_storage_endpoint: `${s3}/${BUCKET}/`,
        object_storage_region: 'us-east-1', catalog: 'c', namespace: 'n', table: 't',
      },
    },
  });
  assert.equal(r.status, 422, r.text);
  assert.ok(locs(r.body).includes('body.config.object_storage_endpoint'), r.text);
  assert.match(messages(r.body), /no path/);
});

test('a PWNED3 destination stored before the fix: the workflow writes nothing into the service bucket', async () => {
  // Stored as an old record holds it: created with a harmless endpoint, then given the attacker's.
  const created = await t.stack.call('POST', '/api/v1/destinations/', {
    ...t.asB,
    body: { name: 'pwned3', type: 's3', config: { remote_url: 's3://jobs/PWNED3/', endpoint_url: s3, anonymous: true } },
  });
  assert.equal(created.status, 200, created.text);
  const key = keys.connector('tenant-b', 'destination', created.body.id);
  const item = await coreStore().get(key);
  assert.ok(item, 'the destination is stored under tenant-b');
  await coreStore().put({ ...item, config: { ...(item.config as object), endpoint_url: `${s3}/${BUCKET}/` } });

  const job = await runWorkflow(created.body.id);
  assert.notEqual(job.status, 'COMPLETED', JSON.stringify(job));
  const planted = (await serviceKeys()).filter((k) => k.includes('PWNED3'));
  assert.deepEqual(planted, [], 'nothing written beside the tenants\' job data');
});

test("the connector's S3 client refuses a request addressed to the service bucket, whatever the config", async () => {
  // Past every config check (as a bug elsewhere would let it be): the last step before sending decides.
  const configs: S3Config[] = [
    { remote_url: 's3://jobs/PWNED3/', endpoint_url: `http://localhost:${port}/${BUCKET}/`, anonymous: true, ambient_credentials: false },
    { remote_url: 's3://jobs/PWNED3/', endpoint_url: `http://${BUCKET}.localhost:${port}`, anonymous: true, ambient_credentials: false },
    { remote_url: 's3://jobs/PWNED3/', endpoint_url: `http://[::1]:${port}/%77ps-data`, anonymous: true, ambient_credentials: false },
  ];
  for (const c of configs) {
    const client = s3ClientFor(c);
    try {
      await assert.rejects(client.send(new PutObjectCommand({ Bucket: 'jobs', Key: 'PWNED3/direct.json', Body: '[]' })), /service's own storage bucket/, c.endpoint_url!);
    } finally {
      client.destroy();
    }
  }
  assert.deepEqual((await serviceKeys()).filter((k) => k.includes('PWNED3')), []);
  // On AWS (no endpoint): the virtual-hosted host of the real bucket is refused; another bucket's key
  // that merely starts with the name is not.
  assert.ok(serviceBucketRequestProblem(`${BUCKET}.s3.us-east-1.amazonaws.com`, '/jobs/x', 'jobs'));
  assert.ok(serviceBucketRequestProblem('s3.us-east-1.amazonaws.com', `/${BUCKET}/jobs/x`, BUCKET));
  assert.equal(serviceBucketRequestProblem('jobs.s3.us-east-1.amazonaws.com', `/${BUCKET}/x`, 'jobs'), undefined);
});

test('a legitimate s3 destination (bare endpoint, another bucket) still works', async () => {
  const created = await t.stack.call('POST', '/api/v1/destinations/', {
    ...t.asB,
    body: { name: 'out', type: 's3', config: { remote_url: 's3://tenant-b-out/results/', endpoint_url: `http://localhost:${port}/`, ...creds } },
  });
  assert.equal(created.status, 200, created.text);
  const job = await runWorkflow(created.body.id);
  assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
  const out = await admin.send(new ListObjectsV2Command({ Bucket: 'tenant-b-out', Prefix: 'results/' }));
  assert.deepEqual((out.Contents ?? []).map((o) => o.Key), ['results/note.txt.json']);
  assert.deepEqual((await serviceKeys()).filter((k) => k.includes('PWNED3') || k.startsWith('results/')), []);
});

test("other connectors' endpoints cannot reach the service's own emulators, under any spelling", async () => {
  const ddbPort = new URL(t.stack.endpoints.dynamodb!).port;
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST.:${port}`, `[::1]:${port}`, `0.0.0.0:${port}`, `127.1.2.3:${port}`, `[::ffff:127.0.0.1]:${port}`, `localhost:${ddbPort}`]) {
    // An Elasticsearch "cluster" on the S3 emulator, index named after the service's bucket: PUT /wps-data/... would be a PutObject.
    const es = await checkConnection('destination', 'elasticsearch', validateConfig('destination', 'elasticsearch', { hosts: [`https://${host}/`], index_name: BUCKET, es_api_key: 'k' }), { timeoutMs: 5000 });
    assert.equal(es.status, 'FAILURE', host);
    assert.match(es.reason!, /service's own (S3|DYNAMODB) endpoint/, `${host}: ${es.reason}`);
    await assert.rejects(guardedFetch(`http://${host}/${BUCKET}/jobs/PWNED3/x`, { method: 'PUT', body: 'x' }), (err: Error & { cause?: Error }) => /service's own/.test(`${err.message} ${err.cause?.message}`), host);
  }
  assert.ok(serviceEndpointProblem('127.0.0.1', port));
  assert.equal(serviceEndpointProblem('127.0.0.1', port, '127.0.0.1', ['S3']), undefined, "the S3 family's own allowance");
  assert.equal(serviceEndpointProblem('127.0.0.1', 1), undefined, 'another port of this machine is a stand-in, not the service');
  assert.deepEqual((await serviceKeys()).filter((k) => k.includes('PWNED3')), []);
});
