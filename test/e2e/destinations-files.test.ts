// Workflows writing into Google Cloud Storage (the JSON-API stand-in verifying the service account
// key's signed JWT) and OneDrive (the HTTPS stand-in of Entra ID and Graph, trusted through
// CONNECTOR_CA_FILE) through the HTTP API: local source → partition → chunk → embed (built-in
// 384-dim embedder) → destination, run twice: one JSON file of elements per source file, the same
// object/file replaced by the second run, 384-dim vectors, metadata present. Destinations that validate
// but point nowhere fail their check and their files with the store's reason; the jobs finish and free
// their slots. One stack serves both families.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL } from '../support/local-stack';
import { destinationSuite } from '../support/e2e-flows';
import { setConfigEnv } from '../support/stand-in-ca';
import { makeServiceAccount, startGcsStandIn, type GcsStandIn, type TestServiceAccount } from '../../lambdas/connectors/gcs/test-server';
import { selfSignedCert, startOneDriveStandIn, type OneDriveStandIn } from '../../lambdas/connectors/onedrive/test-server';

const UPN = 'alice@contoso.com';
let gcs: GcsStandIn;
let sa: TestServiceAccount;
let od: OneDriveStandIn;
let restoreEnv: (() => void)[] = [];
const { connect, workflow, runTwice, pointNowhere } = destinationSuite('wps-filedest-', {
  start: async () => {
    sa = makeServiceAccount();
    gcs = await startGcsStandIn({ accounts: [sa], buckets: ['wf-out'] });
    const tls = selfSignedCert();
    restoreEnv.push(setConfigEnv({ CONNECTOR_CA_FILE: tls.certFile }));
    od = await startOneDriveStandIn({ tls, users: [UPN] });
    restoreEnv.push(setConfigEnv({ GCS_API_ENDPOINT: gcs.url, GRAPH_API_ENDPOINT: od.url }));
  },
  stop: async () => {
    await Promise.all([gcs?.stop(), od?.stop()]);
    for (const restore of restoreEnv.reverse()) restore();
    restoreEnv = [];
  },
});

/** Two runs; after each, exactly the two files' JSON (paths given), the second run's replacing the first's. */
async function twice(workflowId: string, read: () => { path: string; data: Buffer; version: number }[], expected: string[]) {
  const versions = await runTwice(workflowId, () => {
    const files = read();
    assert.deepEqual(files.map((f) => f.path).sort(), expected, 'one file per source file, no copies');
    return files.sort((a, b) => a.path.localeCompare(b.path)).map((f) => f.version);
  });
  for (let k = 0; k < expected.length; k++) assert.ok(versions[1]![k]! > versions[0]![k]!, 'the second run rewrote the same file');
  const sample = JSON.parse(read().find((f) => f.path.endsWith('fake-text.txt.json'))!.data.toString('utf8'));
  assert.ok(sample.length >= 1);
  assert.equal(sample[0].embeddings.length, 384);
  assert.equal(sample[0].type, 'CompositeElement');
  assert.equal(sample[0].metadata.filetype, 'text/plain');
  assert.ok(sample[0].element_id && String(sample[0].text).length > 0);
}

test('gcs: two runs leave one <prefix><key>.json per file, 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await connect('gc', 'gcs', { remote_url: 'gs://wf-out/results', service_account_key: sa.keyJson }, 'service_account_key');
  const read = () => gcs.objects('wf-out').filter((o) => o.name !== 'results/_empty').map((o) => ({ path: o.name, data: o.data, version: o.generation }));
  await twice(await workflow('to-gcs', id), read, ['results/fake-text.txt.json', 'results/sub/README.md.json']);
});

test('onedrive: two runs leave one <folder>/<key>.json per file in the drive, 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await connect('od', 'onedrive', { authority_url: od.url, tenant: od.tenant, client_id: od.clientId, client_cred: od.clientSecret, user_pname: UPN, remote_url: 'onedrive://Results/wf' }, 'client_cred');
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
