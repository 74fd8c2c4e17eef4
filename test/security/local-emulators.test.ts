// Issue #27 finding 8: the local emulators listen on loopback ports any user of the machine can
// reach. Each start of the local stack makes a random credential; every emulator refuses what is not
// SigV4-signed with it: unsigned calls, another secret, a presigned upload URL used for anything but
// its PUT (a GET, a listing, another key) or after it expired, the SES mailbox and fauxqs's pages.
// The service itself (an upload and a job through the API) still works in the same stack.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { NEEDS_LOCAL } from '../support/local-stack';
import { jobForm, keyedStack, launchJob, waitForJob, type Tenants } from './helpers';
import { sigV4 } from '../../local/emulators/sigv4-guard';

let t: Tenants;
const BUCKET = 'wps-data';
const region = 'us-east-1';

before(async () => {
  if (NEEDS_LOCAL) return;
  t = await keyedStack();
});
after(async () => {
  await t?.stack.close();
});

const s3 = (credentials = t.stack.credentials) => new S3Client({ region, endpoint: t.stack.endpoints.s3, forcePathStyle: true, credentials, maxAttempts: 1 });
const statusOf = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
async function refusedStatus(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
    return 200;
  } catch (err) {
    return statusOf(err);
  }
}

/** An upload of tenant A through the API: its ticket (the presigned URL handed to the tenant) and the object key. */
async function uploadAsA(text: string) {
  const ticket = await t.stack.call('POST', '/api/v1/uploads/', { ...t.asA, body: { filename: 'a-secret.txt', content_type: 'text/plain', size: Buffer.byteLength(text) } });
  assert.equal(ticket.status, 201, ticket.text);
  const url = new URL(ticket.body.upload_url as string);
  assert.equal(url.origin, t.stack.endpoints.s3, 'the upload goes straight to the local S3');
  const put = await fetch(url, { method: 'PUT', headers: ticket.body.headers, body: text });
  assert.equal(put.status, 200, await put.text());
  return { id: ticket.body.id as string, url, key: decodeURIComponent(url.pathname.split('/').slice(2).join('/')) };
}

test('the service still works end to end: a presigned upload and a job through the API', { skip: NEEDS_LOCAL }, async () => {
  const up = await uploadAsA('Tenant A uploaded this confidential note.');
  const form = jobForm({ job_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }] }, [{ name: 'direct.txt', text: 'A direct file.' }]);
  form.append('input_upload_ids', up.id);
  const created = await launchJob(t.stack, t.asA, form);
  assert.equal(created.status, 200, created.text);
  assert.equal((await waitForJob(t.stack, t.asA, created.body.id)).status, 'COMPLETED');
  const out = await t.stack.call('GET', `/api/v1/jobs/${created.body.id}/download?file_id=${created.body.input_file_ids[1]}`, t.asA);
  assert.equal(out.status, 200, out.text);
  assert.match(out.text, /confidential note/);
});

test('S3 refuses unsigned requests and another secret; the stack credential is needed and enough', { skip: NEEDS_LOCAL }, async () => {
  const { key } = await uploadAsA('Tenant A object.');
  for (const path of [`/${BUCKET}?list-type=2`, `/${BUCKET}`, '/', `/${BUCKET}/${key}`]) {
    const r = await fetch(t.stack.endpoints.s3 + path);
    const body = await r.text();
    assert.equal(r.status, 403, `unsigned GET ${path}: ${body}`);
    assert.doesNotMatch(body, /a-secret|Tenant A/);
  }
  const unsignedPut = await fetch(`${t.stack.endpoints.s3}/${BUCKET}/planted.txt`, { method: 'PUT', body: 'x' });
  assert.equal(unsignedPut.status, 403);

  const { accessKeyId } = t.stack.credentials;
  for (const credentials of [{ accessKeyId, secretAccessKey: 'not-the-secret' }, { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }]) {
    const c = s3(credentials);
    assert.equal(await refusedStatus(c.send(new ListObjectsV2Command({ Bucket: BUCKET }))), 403, credentials.accessKeyId);
    assert.equal(await refusedStatus(c.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))), 403);
    assert.equal(await refusedStatus(c.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'planted.txt', Body: 'x' }))), 403);
    c.destroy();
  }
  // -- not vacuous: signed with this start's credential, the same listing works --
  const ok = s3();
  const listed = await ok.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  assert.ok((listed.Contents ?? []).some((o) => o.Key === key));
  ok.destroy();
});

test('a presigned upload URL serves its PUT and nothing else', { skip: NEEDS_LOCAL }, async () => {
  const { url, key } = await uploadAsA('Tenant A object behind a presigned URL.');
  const asGet = await fetch(url);
  assert.equal(asGet.status, 403, 'the PUT URL used as a GET');
  assert.equal((await fetch(url, { method: 'HEAD' })).status, 403, 'as a HEAD');
  assert.equal((await fetch(url, { method: 'DELETE' })).status, 403, 'as a DELETE');
  const listing = new URL(url);
  listing.pathname = `/${BUCKET}`;
  assert.equal((await fetch(listing)).status, 403, 'its query on the bucket (a listing)');
  listing.searchParams.set('list-type', '2');
  assert.equal((await fetch(listing)).status, 403, 'its query plus list-type=2');
  const other = new URL(url);
  other.pathname = `/${BUCKET}/${key.replace(/[^/]+$/, 'other.txt')}`;
  assert.equal((await fetch(other, { method: 'PUT', body: 'x' })).status, 403, 'another key');
  // -- a PUT that copies another object (tenant B's, say) into the upload key: x-amz-copy-source is not signed --
  const owner = s3();
  await owner.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'tenant-b/secret.txt', Body: 'Tenant B secret.' }));
  owner.destroy();
  const copy = await fetch(url, { method: 'PUT', headers: { 'x-amz-copy-source': `/${BUCKET}/tenant-b/secret.txt` } });
  assert.equal(copy.status, 403, `a copy through the PUT URL: ${await copy.text()}`);
  const longer = new URL(url);
  longer.searchParams.set('X-Amz-Expires', '604800');
  assert.equal((await fetch(longer, { method: 'PUT', body: 'x' })).status, 403, 'a longer expiry');

  // -- an expired presigned URL (signed with the right secret) is refused --
  const c = s3();
  const expired = await getSignedUrl(c, new GetObjectCommand({ Bucket: BUCKET, Key: key }), { expiresIn: 60, signingDate: new Date(Date.now() - 5 * 60_000) });
  const fresh = await getSignedUrl(c, new GetObjectCommand({ Bucket: BUCKET, Key: key }), { expiresIn: 60 });
  c.destroy();
  assert.equal((await fetch(expired)).status, 403, 'expired');
  const got = await fetch(fresh);
  assert.equal(got.status, 200, 'a fresh presigned GET made with the credential works');
  assert.match(await got.text(), /behind a presigned URL/);
});

test('DynamoDB, SQS, the Step Functions and EventBridge stand-ins refuse unsigned and wrongly signed calls', { skip: NEEDS_LOCAL }, async () => {
  const e = t.stack.endpoints;
  const json = (target: string, version = '1.0') => ({ method: 'POST', headers: { 'content-type': `application/x-amz-json-${version}`, 'x-amz-target': target }, body: '{}' });
  const unsigned: [string, RequestInit][] = [
    [e.dynamodb!, json('DynamoDB_20120810.ListTables')],
    [e.dynamodb!, { ...json('DynamoDB_20120810.Scan'), body: JSON.stringify({ TableName: 'wps' }) }],
    [e.sqs!, json('AmazonSQS.ListQueues')],
    [`${e.sqs}/_fauxqs/queues`, { method: 'GET' }],
    [e.stepfunctions!, json('AWSStepFunctions.StartExecution')],
    [e.eventbridge!, json('AWSEvents.PutEvents', '1.1')],
  ];
  for (const [url, init] of unsigned) {
    const r = await fetch(url, init);
    const body = await r.text();
    assert.equal(r.status, 403, `${init.method} ${url} ${JSON.stringify(init.headers)}: ${body}`);
    assert.doesNotMatch(body, /ACCT#|tenant-a|wps-/);
  }
  const wrong = { accessKeyId: t.stack.credentials.accessKeyId, secretAccessKey: 'not-the-secret' };
  const ddb = new DynamoDBClient({ region, endpoint: e.dynamodb, credentials: wrong, maxAttempts: 1 });
  const sqs = new SQSClient({ region, endpoint: e.sqs, credentials: wrong, maxAttempts: 1 });
  assert.equal(await refusedStatus(ddb.send(new ListTablesCommand({}))), 403);
  assert.equal(await refusedStatus(sqs.send(new ListQueuesCommand({}))), 403);
  ddb.destroy();
  sqs.destroy();
  // -- the stack credential works --
  const okDdb = new DynamoDBClient({ region, endpoint: e.dynamodb, credentials: t.stack.credentials });
  assert.ok((await okDdb.send(new ListTablesCommand({}))).TableNames?.includes('wps'));
  okDdb.destroy();
});

test('the SES mailbox (/store, its web page) needs a request signed with the stack credential', { skip: NEEDS_LOCAL }, async () => {
  const ses = t.stack.endpoints.sesv2!;
  for (const path of ['/store', '/', '/get-emlContent?messageId=x', '/health-check']) {
    assert.equal((await fetch(ses + path)).status, 403, `unsigned GET ${path}`);
  }
  assert.equal((await fetch(`${ses}/clear-store`, { method: 'POST' })).status, 403);
  const other = sigV4({ accessKeyId: t.stack.credentials.accessKeyId, secretAccessKey: 'not-the-secret' }, crypto);
  assert.equal((await fetch(`${ses}/store`, { headers: other.sign({ method: 'GET', url: '/store', headers: { host: new URL(ses).host } }, 'ses', region) })).status, 403);

  const signed = sigV4(t.stack.credentials, crypto).sign({ method: 'GET', url: '/store', headers: { host: new URL(ses).host } }, 'ses', region);
  const store = await fetch(`${ses}/store`, { headers: signed });
  assert.equal(store.status, 200);
  assert.ok(Array.isArray(((await store.json()) as { emails: unknown[] }).emails));
  // -- the README's way: curl's own SigV4 signing (an independent implementation), the credential on stdin --
  const { accessKeyId, secretAccessKey } = t.stack.credentials;
  const curl = await new Promise<{ code: number | null; out: string } | undefined>((resolve, reject) => {
    // (asynchronously: the emulator answers from this process)
    const child = spawn('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-K', '-', '--aws-sigv4', `aws:amz:${region}:ses`, `${ses}/store`]);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? resolve(undefined) : reject(err))); // no curl: skipped
    child.on('close', (code) => resolve({ code, out }));
    child.stdin.end(`user = "${accessKeyId}:${secretAccessKey}"\n`);
  });
  if (curl) assert.equal(curl.out, '200', `curl exit ${curl.code}`);
});

test('each start has its own credential, and the data directory is the owner\'s only', { skip: NEEDS_LOCAL }, async () => {
  assert.match(t.stack.credentials.accessKeyId, /^WPSLOCAL[0-9A-F]{12}$/);
  assert.ok(t.stack.credentials.secretAccessKey.length >= 40);
  assert.equal(process.env.AWS_SECRET_ACCESS_KEY, t.stack.credentials.secretAccessKey, 'the service signs with it');
  assert.equal(statSync(t.stack.dataDir).mode & 0o777, 0o700);
});
