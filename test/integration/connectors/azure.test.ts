// Azure Blob connector through the real @azure/storage-blob SDK against Azurite (started in-process
// by local/emulators/azurite.ts on a free port): checks with each credential form, each FAILURE
// reason, and the runtime list/read/write round trip.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AccountSASPermissions,
  AccountSASResourceTypes,
  AccountSASServices,
  BlobServiceClient,
  StorageSharedKeyCredential,
  generateAccountSASQueryParameters,
} from '@azure/storage-blob';
import { createRequire } from 'node:module';
import { startAzurite } from '../../../local/emulators/azurite';
import {
  SECRET_MASK,
  checkConnection,
  listSourceObjects,
  outputConfig,
  readSourceObject,
  validateConfig,
  writeDestinationObject,
} from '../../../lambdas/connectors/registry';
import { blackHole, closedPort, collect, tempDir, text, untext } from './helpers';

const dir = tempDir('azure-connector');
let az: Awaited<ReturnType<typeof startAzurite>>;
let service: BlobServiceClient;
const savedEndpoint = process.env.AZURE_STORAGE_BLOB_ENDPOINT;

before(async () => {
  az = await startAzurite({ dataDir: dir.path });
  // account_name + account_key / sas_token configs reach the emulator through this template
  process.env.AZURE_STORAGE_BLOB_ENDPOINT = az.endpoint.replace(az.accountName, '{account}');
  service = BlobServiceClient.fromConnectionString(az.connectionString);
  await service.createContainer('inputs');
  await service.createContainer('outputs');
  const inputs = service.getContainerClient('inputs');
  for (const [k, body] of [
    ['docs/a.txt', 'alpha'],
    ['docs/sub/b.txt', 'bravo!'],
    ['other/c.txt', 'charlie'],
  ] as const) {
    await inputs.getBlockBlobClient(k).upload(body, body.length);
  }
});

after(async () => {
  if (savedEndpoint === undefined) delete process.env.AZURE_STORAGE_BLOB_ENDPOINT;
  else process.env.AZURE_STORAGE_BLOB_ENDPOINT = savedEndpoint;
  await az?.stop();
  dir.remove();
});

const src = (extra: Record<string, unknown> = {}) =>
  validateConfig('source', 'azure', { remote_url: 'az://inputs/docs', connection_string: az.connectionString, ...extra });
const dst = (extra: Record<string, unknown> = {}) =>
  validateConfig('destination', 'azure', { remote_url: 'az://outputs/results', connection_string: az.connectionString, ...extra });

function accountSas(): string {
  return generateAccountSASQueryParameters(
    {
      expiresOn: new Date(Date.now() + 3600_000),
      permissions: AccountSASPermissions.parse('rwl'),
      resourceTypes: AccountSASResourceTypes.parse('sco').toString(),
      services: AccountSASServices.parse('b').toString(),
    },
    new StorageSharedKeyCredential(az.accountName, az.accountKey),
  ).toString();
}

test('the emulator launcher reports a usable endpoint and account, with telemetry off', async () => {
  assert.match(az.endpoint, /^http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1$/);
  const { AzuriteTelemetryClient } = createRequire(import.meta.url)('azurite/dist/src/common/Telemetry') as {
    AzuriteTelemetryClient: { enableTelemetry?: boolean; initialized?: boolean };
  };
  assert.equal(AzuriteTelemetryClient.enableTelemetry, false);
  assert.notEqual(AzuriteTelemetryClient.initialized, true);
  const names: string[] = [];
  for await (const c of service.listContainers()) names.push(c.name);
  assert.deepEqual(names.sort(), ['inputs', 'outputs']);
});

test('responses mask connection_string, account_key and sas_token', () => {
  const out = outputConfig('source', 'azure', src({ account_name: 'acc', account_key: 'k', sas_token: 's' }));
  assert.equal(out.connection_string, SECRET_MASK);
  assert.equal(out.account_key, SECRET_MASK);
  assert.equal(out.sas_token, SECRET_MASK);
  assert.equal(out.account_name, 'acc');
  assert.equal(out.recursive, true);
});

test('check SUCCESS with a connection string, an account key and a SAS token', async () => {
  assert.deepEqual(await checkConnection('source', 'azure', src()), { status: 'SUCCESS' });
  assert.deepEqual(await checkConnection('destination', 'azure', dst()), { status: 'SUCCESS' });
  const keyed = { remote_url: 'az://inputs/docs', account_name: az.accountName, account_key: az.accountKey };
  assert.deepEqual(await checkConnection('source', 'azure', validateConfig('source', 'azure', keyed)), { status: 'SUCCESS' });
  const sas = { remote_url: 'az://outputs', account_name: az.accountName, sas_token: `?${accountSas()}` };
  assert.deepEqual(await checkConnection('destination', 'azure', validateConfig('destination', 'azure', sas)), { status: 'SUCCESS' });
  const abfs = { remote_url: `abfs://inputs@${az.accountName}.dfs.core.windows.net/docs`, account_key: az.accountKey };
  assert.deepEqual(await checkConnection('source', 'azure', validateConfig('source', 'azure', abfs)), { status: 'SUCCESS' });
});

test('check FAILURE with a reason: wrong container', async () => {
  const s = await checkConnection('source', 'azure', src({ remote_url: 'az://missing-container/x' }));
  assert.equal(s.status, 'FAILURE');
  assert.match(s.reason!, /container "missing-container" does not exist/);
  const d = await checkConnection('destination', 'azure', dst({ remote_url: 'az://missing-container' }));
  assert.equal(d.status, 'FAILURE');
  assert.match(d.reason!, /container "missing-container" does not exist/);
});

test('check FAILURE with a reason: wrong key, bad SAS, no credentials', async () => {
  const wrongKey = Buffer.alloc(64, 7).toString('base64');
  const k = await checkConnection('source', 'azure', validateConfig('source', 'azure', { remote_url: 'az://inputs', account_name: az.accountName, account_key: wrongKey }));
  assert.equal(k.status, 'FAILURE');
  assert.match(k.reason!, /access to container "inputs" denied/);
  const badSas = accountSas().replace(/sig=[^&]+/, 'sig=AAAA');
  const s = await checkConnection('destination', 'azure', validateConfig('destination', 'azure', { remote_url: 'az://outputs', account_name: az.accountName, sas_token: badSas }));
  assert.equal(s.status, 'FAILURE');
  assert.match(s.reason!, /denied/);
  const none = await checkConnection('source', 'azure', validateConfig('source', 'azure', { remote_url: 'az://inputs' }));
  assert.equal(none.status, 'FAILURE');
  assert.match(none.reason!, /no credentials/);
});

test('check FAILURE with a reason: unreachable and hung endpoints', async () => {
  const port = await closedPort();
  const conn = az.connectionString.replace(/BlobEndpoint=[^;]+/, `BlobEndpoint=http://127.0.0.1:${port}/${az.accountName}`);
  const down = await checkConnection('source', 'azure', src({ connection_string: conn }));
  assert.equal(down.status, 'FAILURE');
  assert.match(down.reason!, /ECONNREFUSED/);
  const hole = await blackHole();
  try {
    const hung = az.connectionString.replace(/BlobEndpoint=[^;]+/, `BlobEndpoint=http://127.0.0.1:${hole.port}/${az.accountName}`);
    const r = await checkConnection('destination', 'azure', dst({ connection_string: hung }), { timeoutMs: 500 });
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /timed out/);
  } finally {
    await hole.close();
  }
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS refuses a connection string pointing at a private address', async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  try {
    const r = await checkConnection('source', 'azure', src());
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /private network address/);
    await assert.rejects(collect(listSourceObjects('azure', src())), /private network address/);
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});

test('list relative to the prefix, recursive by default, flat with recursive: false', async () => {
  const listed = await collect(listSourceObjects('azure', src()));
  assert.deepEqual(listed.map(({ key, size }) => ({ key, size })), [
    { key: 'a.txt', size: 5 },
    { key: 'sub/b.txt', size: 6 },
  ]);
  for (const o of listed) assert.ok(o.version, 'the blob etag is the version');
  const flat = await collect(listSourceObjects('azure', src({ recursive: false })));
  assert.deepEqual(flat.map(({ key, size }) => ({ key, size })), [{ key: 'a.txt', size: 5 }]);
  assert.ok(flat[0]!.version);
  const all = await collect(listSourceObjects('azure', src({ remote_url: 'az://inputs' })));
  assert.deepEqual(all.map((o) => o.key), ['docs/a.txt', 'docs/sub/b.txt', 'other/c.txt']);
});

test('read returns the bytes; write lands under the destination prefix', async () => {
  assert.equal(untext(await readSourceObject('azure', src(), 'sub/b.txt')), 'bravo!');
  await writeDestinationObject('azure', dst(), 'job-1/out.json', text('{"ok":true}'));
  const buf = await service.getContainerClient('outputs').getBlobClient('results/job-1/out.json').downloadToBuffer();
  assert.equal(buf.toString(), '{"ok":true}');
  await assert.rejects(readSourceObject('azure', src(), 'nope.txt'), /download on container "inputs" failed/);
  await assert.rejects(writeDestinationObject('azure', dst(), 'a/../../x', text('x')), /invalid object key/);
});
