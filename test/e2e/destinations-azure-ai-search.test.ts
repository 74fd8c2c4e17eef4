// A workflow writing into Azure AI Search (the official client over HTTPS against the stand-in
// service, trusted through CONNECTOR_CA_FILE) through the HTTP API: local source → partition →
// chunk → embed (built-in 384-dim embedder) → azure_ai_search, run twice: one copy of each file's
// documents, 384-dim vectors, metadata present. An index that does not exist fails the check
// saying what to create, and fails the files with the service's reason; the slot is freed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL } from '../support/local-stack';
import { assertDocsByFile, destinationSuite, EMBED_NODES } from '../support/e2e-flows';
import { setConfigEnv } from '../support/stand-in-ca';
import { platformIndexFields, selfSignedCert, startAzureSearchStandIn, type AzureSearchStandIn } from '../../lambdas/connectors/azure-ai-search/test-server';

let az: AzureSearchStandIn;
let untrustCa: (() => void) | undefined;
const { connect, workflow, runTwice, failsAndFreesSlot } = destinationSuite('wps-azsdest-', {
  start: async () => {
    const tls = selfSignedCert();
    untrustCa = setConfigEnv({ CONNECTOR_CA_FILE: tls.certFile });
    az = await startAzureSearchStandIn({ key: tls.key, cert: tls.cert });
    az.addIndex('elements', platformIndexFields(384));
  },
  stop: async () => {
    await az?.stop();
    untrustCa?.();
  },
});

test('azure_ai_search destination: two runs leave one copy of each file, 384-dim vectors and metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await connect('azs', 'azure_ai_search', { endpoint: az.endpoint, index: 'elements', key: az.adminKey }, 'key');
  const docs = az.indexes.get('elements')!.docs;
  const counts = await runTwice(await workflow('to-azs', id), () => docs.size);
  assert.ok(counts[0]! > 2, `documents written (${counts[0]})`);
  assert.equal(counts[1], counts[0], 'the second run replaced, not duplicated');
  assertDocsByFile(docs.values());
  // Each rewrite first looked up the file's earlier documents by record_id.
  const filters = az.requests.filter((r) => r.path.endsWith('/docs/search.post.search')).map((r) => r.body.filter);
  assert.equal(filters.length, 4);
  assert.ok(filters.every((f) => /^record_id eq '[0-9a-f-]{36}'$/.test(f)));
});

test('an azure_ai_search index that does not exist: FAILURE check saying what to create, files failed with the reason, job finished', { skip: NEEDS_LOCAL }, async () => {
  await failsAndFreesSlot({
    name: 'azs-absent', type: 'azure_ai_search', config: { endpoint: az.endpoint, index: 'absent', key: az.adminKey }, nodes: EMBED_NODES.slice(0, 2),
    checkReason: /index absent not found: create it first .*No index with the name 'absent'/, secret: az.adminKey,
    fileError: /azure_ai_search destination: reading the index definition: Azure AI Search answered HTTP 404: No index with the name 'absent'/,
  });
});
