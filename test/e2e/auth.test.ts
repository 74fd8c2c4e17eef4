// Keyed mode: keys stored hashed map to an account and a user; a missing or unknown key is a 401;
// every record is scoped by account, so another account's id answers 404. Both key headers work.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { authService } from '../../lambdas/services/core';

let stack: TestStack;
let keyA: string;
let keyB: string;

before(async () => {
  if (NEEDS_LOCAL) return;
  stack = await startTestStack({ authMode: 'keyed' });
  keyA = (await authService().createKey('acct-a', 'alice')).key;
  keyB = (await authService().createKey('acct-b', 'bob')).key;
});
after(async () => {
  await stack?.close();
});

test('a missing key is a 401 with a clear message; healthcheck stays open', { skip: NEEDS_LOCAL }, async () => {
  const r = await stack.call('GET', '/api/v1/sources/');
  assert.equal(r.status, 401);
  assert.match(r.body.detail, /API key is missing/);
  assert.equal((await stack.call('GET', '/healthcheck')).status, 200);
});

test('an unknown key is a 401', { skip: NEEDS_LOCAL }, async () => {
  const r = await stack.call('GET', '/api/v1/sources/', { headers: { 'service-api-key': 'wps_nope_nope' } });
  assert.equal(r.status, 401);
});

test('both service-api-key and unstructured-api-key are accepted', { skip: NEEDS_LOCAL }, async () => {
  assert.equal((await stack.call('GET', '/api/v1/sources/', { headers: { 'service-api-key': keyA } })).status, 200);
  assert.equal((await stack.call('GET', '/api/v1/sources/', { headers: { 'unstructured-api-key': keyA } })).status, 200);
});

test("another account's records are invisible (404) and unlisted", { skip: NEEDS_LOCAL }, async () => {
  const created = await stack.call('POST', '/api/v1/sources/', {
    headers: { 'service-api-key': keyA },
    // Keyed mode confines local connectors to <DATA_DIR>/connector-files: a relative path lives there.
    body: { name: 'a-only', type: 'local', config: { remote_url: 'a-only' } },
  });
  assert.equal(created.status, 200, created.text);
  const id = created.body.id;
  const asB = { headers: { 'service-api-key': keyB } };
  assert.equal((await stack.call('GET', `/api/v1/sources/${id}`, asB)).status, 404);
  assert.equal((await stack.call('PUT', `/api/v1/sources/${id}`, { ...asB, body: { config: { remote_url: 'a-only' } } })).status, 404);
  assert.equal((await stack.call('DELETE', `/api/v1/sources/${id}`, asB)).status, 404);
  assert.equal((await stack.call('POST', `/api/v1/sources/${id}/connection-check`, asB)).status, 404);
  const listB = await stack.call('GET', '/api/v1/sources/', asB);
  assert.deepEqual(listB.body, []);
  assert.equal((await stack.call('GET', `/api/v1/sources/${id}`, { headers: { 'service-api-key': keyA } })).status, 200);
});

test('keys are stored only as hashes and revocation takes effect', { skip: NEEDS_LOCAL }, async () => {
  const ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: stack.endpoints.dynamodb });
  const scan = await ddb.send(new ScanCommand({ TableName: stack.env.TABLE_NAME }));
  ddb.destroy();
  const dump = JSON.stringify(scan.Items);
  assert.ok(!dump.includes(keyA) && !dump.includes(keyB));
  const extra = await authService().createKey('acct-a', 'carol');
  assert.equal((await stack.call('GET', '/api/v1/sources/', { headers: { 'service-api-key': extra.key } })).status, 200);
  await authService().revokeKey('acct-a', extra.keyId);
  assert.equal((await stack.call('GET', '/api/v1/sources/', { headers: { 'service-api-key': extra.key } })).status, 401);
});
