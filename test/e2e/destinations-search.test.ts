// A workflow writing into Elasticsearch (the official client against the stand-in cluster) through
// the HTTP API: local source → partition → chunk → embed (built-in 384-dim embedder) →
// elasticsearch, run twice: one copy of each file's records, 384-dim vectors, metadata present.
// An OpenSearch destination that points nowhere fails its check and its files with the reason;
// the job still finishes and frees its slot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL } from '../support/local-stack';
import { assertDocsByFile, destinationSuite, EMBED_NODES } from '../support/e2e-flows';
import { startSearchStandIn, type SearchStandIn } from '../../lambdas/connectors/elasticsearch/test-server';
import { indexBody } from '../../lambdas/connectors/elasticsearch/stage';

const KEY = 'ZTJlLWtleTpzZWNyZXQtYXBpLWtleQ==';
let es: SearchStandIn;
const { connect, workflow, runTwice, failsAndFreesSlot } = destinationSuite('wps-esdest-', {
  trust: true, // the stand-in serves TLS: the API key goes over TLS only
  start: async () => {
    es = await startSearchStandIn({ dialect: 'elasticsearch', apiKeys: { [KEY]: ['all'] } });
    es.indices.set('elements', { ...(indexBody('elasticsearch', 384) as { mappings: { properties: Record<string, unknown> } }), settings: {}, docs: new Map() });
  },
  stop: () => es?.stop(),
});

test('elasticsearch destination: two runs leave one copy of each file, 384-dim vectors and metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await connect('es', 'elasticsearch', { hosts: [es.url], index_name: 'elements', es_api_key: KEY, batch_size: 50 }, 'es_api_key');
  const counts = await runTwice(await workflow('to-es', id), () => es.docs('elements').length);
  assert.ok(counts[0]! > 2, `records written (${counts[0]})`);
  assert.equal(counts[1], counts[0], 'the second run replaced, not duplicated');
  assertDocsByFile(es.docs('elements'));
  // The rewrite removed leftovers by record_id: one delete_by_query per file per run.
  assert.equal(es.requests.filter((r) => r.path === '/elements/_delete_by_query').length, 4);
});

test('an opensearch destination that points nowhere: FAILURE check, files failed with the reason, job finished', { skip: NEEDS_LOCAL }, async () => {
  await failsAndFreesSlot({
    name: 'os-nowhere', type: 'opensearch', config: { hosts: ['https://127.0.0.1:1'], index_name: 'elements', username: 'admin', password: 'secret-pw' }, nodes: EMBED_NODES.slice(0, 2),
    checkReason: /cannot reach OpenSearch: .*ECONNREFUSED/, secret: 'secret-pw',
    fileError: /opensearch destination: .*cannot reach OpenSearch: .*ECONNREFUSED/,
  });
});
