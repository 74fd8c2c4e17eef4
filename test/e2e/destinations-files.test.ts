// Workflows writing into Google Cloud Storage (the JSON-API stand-in verifying the service account
// key's signed JWT) and OneDrive (the HTTPS stand-in of Entra ID and Graph, trusted through
// CONNECTOR_CA_FILE) through the HTTP API: local source → partition → chunk → embed (built-in
// 384-dim embedder) → destination, run twice: one JSON file of elements per source file, the same
// object/file replaced by the second run, 384-dim vectors, metadata present. Destinations that validate
// but point nowhere fail their check and their files with the store's reason; the jobs finish and free
// their slots. One stack serves both families.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows, stageInput } from '../support/e2e-flows';
import { resetConfig } from '../../lambdas/config';
import { makeServiceAccount, startGcsStandIn, type GcsStandIn, type TestServiceAccount } from '../../lambdas/connectors/gcs/test-server';
import { selfSignedCert, startOneDriveStandIn, type OneDriveStandIn } from '../../lambdas/connectors/onedrive/test-server';

const UPN = 'alice@contoso.com';
const saved = { ca: process.env.CONNECTOR_CA_FILE, gcs: process.env.GCS_API_ENDPOINT, graph: process.env.GRAPH_API_ENDPOINT };
let stack: TestStack;
let gcs: GcsStandIn;
let sa: TestServiceAccount;
let od: OneDriveStandIn;
let sourceId: string;
const inDir = join(mkdtempSync(join(tmpdir(), 'wps-filedest-')), 'in');
const { createDestination, check, workflow, runToEnd, pointNowhere } = e2eFlows(() => stack, () => sourceId);

function restore(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

before(async () => {
  if (NEEDS_LOCAL) return;
  stageInput(inDir);
  sa = makeServiceAccount();
  gcs = await startGcsStandIn({ accounts: [sa], buckets: ['wf-out'] });
  const tls = selfSignedCert();
  process.env.CONNECTOR_CA_FILE = tls.certFile;
  resetConfig();
  od = await startOneDriveStandIn({ tls, users: [UPN] });
  process.env.GCS_API_ENDPOINT = gcs.url;
  process.env.GRAPH_API_ENDPOINT = od.url;
  stack = await startTestStack();
  sourceId = (await stack.call('POST', '/api/v1/sources/', { body: { name: 'in', type: 'local', config: { remote_url: inDir } } })).body.id;
});
after(async () => {
  await stack?.close();
  await Promise.all([gcs?.stop(), od?.stop()]);
  restore('CONNECTOR_CA_FILE', saved.ca);
  restore('GCS_API_ENDPOINT', saved.gcs);
  restore('GRAPH_API_ENDPOINT', saved.graph);
  resetConfig();
});

/** Two runs; after each, exactly the two files' JSON (paths given), the second run's replacing the first's. */
async function twice(workflowId: string, read: () => { path: string; data: Buffer; version: number }[], expected: string[]) {
  const versions: number[][] = [];
  for (let i = 0; i < 2; i++) {
    const job = await runToEnd(workflowId);
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    const files = read();
    assert.deepEqual(files.map((f) => f.path).sort(), expected, 'one file per source file, no copies');
    versions.push(files.sort((a, b) => a.path.localeCompare(b.path)).map((f) => f.version));
  }
  for (let k = 0; k < expected.length; k++) assert.ok(versions[1]![k]! > versions[0]![k]!, 'the second run rewrote the same file');
  const sample = JSON.parse(read().find((f) => f.path.endsWith('fake-text.txt.json'))!.data.toString('utf8'));
  assert.ok(sample.length >= 1);
  assert.equal(sample[0].embeddings.length, 384);
  assert.equal(sample[0].type, 'CompositeElement');
  assert.equal(sample[0].metadata.filetype, 'text/plain');
  assert.ok(sample[0].element_id && String(sample[0].text).length > 0);
}

test('gcs: two runs leave one <prefix><key>.json per file, 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await createDestination('gc', 'gcs', { remote_url: 'gs://wf-out/results', service_account_key: sa.keyJson }, 'service_account_key');
  const c = await check(id);
  assert.equal(c.status, 'SUCCESS', c.reason);
  const read = () => gcs.objects('wf-out').filter((o) => o.name !== 'results/_empty').map((o) => ({ path: o.name, data: o.data, version: o.generation }));
  await twice(await workflow('to-gcs', id), read, ['results/fake-text.txt.json', 'results/sub/README.md.json']);
});

test('onedrive: two runs leave one <folder>/<key>.json per file in the drive, 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await createDestination('od', 'onedrive', { authority_url: od.url, tenant: od.tenant, client_id: od.clientId, client_cred: od.clientSecret, user_pname: UPN, remote_url: 'onedrive://Results/wf' }, 'client_cred');
  const c = await check(id);
  assert.equal(c.status, 'SUCCESS', c.reason);
  const read = () => od.files(UPN).map((f) => ({ path: f.path, data: f.data, version: f.version }));
  await twice(await workflow('to-onedrive', id), read, ['Results/wf/fake-text.txt.json', 'Results/wf/sub/README.md.json']);
});

test('destinations that point nowhere: FAILURE checks, files failed with the store\'s reason, jobs finished', { skip: NEEDS_LOCAL }, async () => {
  const cases = [
    { type: 'gcs', config: { remote_url: 'gs://no-such-bucket/x', service_account_key: sa.keyJson }, secret: JSON.parse(sa.keyJson).private_key.split('\n')[1], reason: /bucket "no-such-bucket" does not exist or is not visible to the service account \(upload: The specified bucket does not exist\.\)/ },
    { type: 'onedrive', config: { authority_url: od.url, tenant: od.tenant, client_id: od.clientId, client_cred: 'onedrive-nowhere-secret', user_pname: UPN, remote_url: 'onedrive://Results/x' }, secret: 'onedrive-nowhere-secret', reason: /invalid_client: .*AADSTS7000215: Invalid client secret provided/ },
  ];
  await pointNowhere(cases);
});
