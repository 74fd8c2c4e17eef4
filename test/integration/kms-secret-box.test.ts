// The AWS secrets path (KMS_KEY_ID set: lambdas/adapters/secret-box.ts KmsSecretBox) through the real
// @aws-sdk/client-kms against a KMS JSON-protocol stand-in (test/support/kms-stand-in.ts): a
// connector's secret sealed by the API's path (ConnectorService.create on the real table) opens on the
// job's path (another process's box and client), node settings too; the stand-in keeps what it
// received, so the test reads back what KMS was asked; a wrong key or a changed byte fails as KMS does.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resetConfig } from '../../lambdas/config';
import { resetClients } from '../../lambdas/adapters/aws-clients';
import { KmsSecretBox, lazySecretBox, resetSecretBox } from '../../lambdas/adapters/secret-box';
import { connectorCatalog } from '../../lambdas/adapters/connector-catalog';
import { ConnectorService } from '../../lambdas/domain/connectors';
import { openNodeSecrets, sealNodeSecrets } from '../../lambdas/domain/node-secrets';
import { keys } from '../../lambdas/data/keys';
import { startTestTable } from '../support/dynamo';
import { startKmsStandIn } from '../support/kms-stand-in';

const KEY = 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const OTHER = 'arn:aws:kms:us-east-1:111122223333:key/0987dcba-09fe-87dc-65ba-ab0987654321';
let kms: Awaited<ReturnType<typeof startKmsStandIn>>;
let table: Awaited<ReturnType<typeof startTestTable>>;
const saved = { endpoint: process.env.AWS_ENDPOINT_URL_KMS, key: process.env.KMS_KEY_ID, file: process.env.SECRETS_KEY_FILE };

/** As a new Lambda process: fresh config, clients and box. */
function freshProcess() {
  resetConfig();
  resetClients();
  resetSecretBox();
}

before(async () => {
  table = await startTestTable('wps-kms');
  kms = await startKmsStandIn([KEY, OTHER]);
  process.env.AWS_ENDPOINT_URL_KMS = kms.endpoint;
  process.env.KMS_KEY_ID = KEY;
  delete process.env.SECRETS_KEY_FILE;
  freshProcess();
});
after(async () => {
  await kms?.stop();
  await table?.stop();
  for (const [k, v] of [['AWS_ENDPOINT_URL_KMS', saved.endpoint], ['KMS_KEY_ID', saved.key], ['SECRETS_KEY_FILE', saved.file]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  freshProcess();
});

const noQueue = { send: async () => undefined } as never;

test('a connector secret sealed by the API path is stored as kms:, KMS saw Encrypt under KMS_KEY_ID, and it opens in another process', async () => {
  const from = kms.requests.length;
  const svc = new ConnectorService(table.store, lazySecretBox, connectorCatalog(), noQueue);
  const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
  const created = await svc.create({ accountId: 'acct-kms', userId: 'u' } as never, 'source', {
    name: 'bucket', type: 's3', config: { remote_url: 's3://bucket/in/', key: 'AKIAIOSFODNN7EXAMPLE', secret },
  });
  assert.equal((created.config as Record<string, unknown>).secret, '**********');
  const stored = await table.store.get(keys.connector('acct-kms', 'source', created.id));
  const sealed = JSON.stringify(stored);
  assert.ok(!sealed.includes(secret), 'the clear secret is not in the stored item');
  const values = [...sealed.matchAll(/"(kms:[A-Za-z0-9+/=]+)"/g)].map((m) => m[1]!);
  assert.equal(values.length, 2, `key and secret stored as kms: values: ${sealed}`);
  const encrypts = kms.requests.slice(from).filter((r) => r.operation === 'Encrypt');
  assert.ok(encrypts.length >= 1, 'Encrypt was called');
  assert.ok(encrypts.every((r) => r.body.KeyId === KEY), JSON.stringify(encrypts.map((r) => r.body.KeyId)));
  assert.ok(encrypts.some((r) => Buffer.from(String(r.body.Plaintext), 'base64').toString('utf8') === secret), 'KMS was asked to encrypt the secret itself');

  freshProcess(); // the job's Lambda: its own client, its own box
  const decryptsBefore = kms.requests.filter((r) => r.operation === 'Decrypt').length;
  const opened = await Promise.all(values.map((v) => new KmsSecretBox(KEY).open(v)));
  assert.deepEqual(opened.sort(), ['AKIAIOSFODNN7EXAMPLE', secret].sort());
  const decrypts = kms.requests.filter((r) => r.operation === 'Decrypt');
  assert.equal(decrypts.length, decryptsBefore + 2);
  assert.equal(decrypts.at(-1)!.body.KeyId, KEY);
});

test('node settings sealed where a workflow is stored open where the node runs; a changed byte or another key fails as KMS fails', async () => {
  const nodes = [{ id: 'n1', name: 'Embedder', type: 'embed', subtype: 'openai', settings: { model_name: 'text-embedding-3-small', api_key: 'sk-proj-kms-test-1234567890' } }] as never[];
  const sealed = await sealNodeSecrets(nodes, lazySecretBox);
  const apiKey = (sealed[0] as { settings: Record<string, string> }).settings.api_key!;
  assert.match(apiKey, /^kms:/);
  freshProcess();
  const opened = await openNodeSecrets(sealed, lazySecretBox);
  assert.equal((opened[0] as { settings: Record<string, string> }).settings.api_key, 'sk-proj-kms-test-1234567890');

  const raw = Buffer.from(apiKey.slice(4), 'base64');
  raw[raw.length - 1] ^= 1;
  await assert.rejects(new KmsSecretBox(KEY).open(`kms:${raw.toString('base64')}`), (e: Error) => e.name === 'InvalidCiphertextException');
  await assert.rejects(new KmsSecretBox(OTHER).open(apiKey), (e: Error) => e.name === 'IncorrectKeyException');
});
