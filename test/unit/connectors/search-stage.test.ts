// Pure parts of the search destinations: record shapes as the platform's stagers make them, the
// record query, node URLs and index names, AWS host detection, Azure EDM conversions and fitting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enhancedElementId } from '../../../lambdas/connectors/records/ids';
import { indexNameProblem, nodeUrls } from '../../../lambdas/connectors/elasticsearch/cluster';
import { detectAwsOpenSearch } from '../../../lambdas/connectors/elasticsearch/os-client';
import { indexBody, recordQuery, searchDocument } from '../../../lambdas/connectors/elasticsearch/stage';
import { azureDocument, edmDate, fieldTree, fitToTree } from '../../../lambdas/connectors/azure-ai-search/stage';

const el = { type: 'Title', element_id: 'e1', text: 'Hi', embeddings: [0.1, 0.2], extra_top: 1, metadata: { filename: 'a.txt', data_source: { url: 'u', record_locator: { path: 'p' } }, languages: ['eng'] } };

test('search documents: enhanced _id, the five fields plus record_id, metadata flattened with "-"', () => {
  const d = searchDocument(el, 'rid-1');
  assert.equal(d.id, enhancedElementId('e1', 'rid-1'));
  assert.deepEqual(d.source, {
    element_id: 'e1', embeddings: [0.1, 0.2], text: 'Hi', type: 'Title', record_id: 'rid-1',
    metadata: { filename: 'a.txt', 'data_source-url': 'u', 'data_source-record_locator-path': 'p', languages: ['eng'] },
  });
});

test('record query: phrase match on record_id, minus the ids kept', () => {
  assert.deepEqual(recordQuery('r'), { bool: { filter: [{ match_phrase: { record_id: 'r' } }] } });
  assert.deepEqual(recordQuery('r', ['a']), { bool: { filter: [{ match_phrase: { record_id: 'r' } }], must_not: [{ ids: { values: ['a'] } }] } });
});

test('created index: dense_vector (ES) or knn_vector with knn on (OpenSearch), sized to the vectors', () => {
  assert.deepEqual((indexBody('elasticsearch', 3) as any).mappings.properties.embeddings, { type: 'dense_vector', dims: 3, index: true, similarity: 'cosine' });
  assert.deepEqual((indexBody('opensearch', 3) as any).settings, { index: { knn: true } });
  assert.equal((indexBody('opensearch', undefined) as any).mappings.properties.embeddings, undefined);
});

test('node URLs, index names, AWS host detection', () => {
  assert.deepEqual(nodeUrls(['es.example.com', 'http://h:9201/', 'https://cloud.es.io'], 'https'), ['https://es.example.com:9200', 'http://h:9201', 'https://cloud.es.io']);
  assert.throws(() => nodeUrls(['https://u:p@h'], 'https'), /credentials in the URL/);
  assert.throws(() => nodeUrls(['ftp://h'], 'https'), /http:\/\/ or https:\/\//);
  assert.equal(indexNameProblem('ok-index_1'), undefined);
  assert.match(indexNameProblem('Upper')!, /lowercase/);
  assert.match(indexNameProblem('_x')!, /may not start/);
  assert.deepEqual(detectAwsOpenSearch('https://search-dom-abc.us-gov-west-1.es.amazonaws.com'), { region: 'us-gov-west-1', service: 'es' });
  assert.deepEqual(detectAwsOpenSearch('https://abc123.eu-west-1.aoss.amazonaws.com'), { region: 'eu-west-1', service: 'aoss' });
  assert.equal(detectAwsOpenSearch('https://search.example.com'), undefined);
});

test('azure documents: EDM conversions as the platform stager, fitted to the index tree', () => {
  const d = azureDocument({ ...el, metadata: { ...el.metadata, page_number: 3, last_modified: 1767323045, coordinates: { points: [[1, 2]] }, regex_metadata: { a: [] } } }, 'rid');
  assert.equal(d.id, enhancedElementId('e1', 'rid'));
  assert.equal(d.metadata.page_number, '3');
  assert.equal(d.metadata.last_modified, '2026-01-02T03:04:05.000000Z');
  assert.equal(d.metadata.coordinates.points, '[[1,2]]');
  assert.equal(d.metadata.data_source.record_locator, '{"path":"p"}');
  assert.equal(d.metadata.regex_metadata, '{"a":[]}');
  assert.equal(el.metadata.data_source.record_locator.path, 'p', 'the element itself is not changed');
  assert.equal(edmDate('2026-01-02T03:04:05.123+01:00'), '2026-01-02T02:04:05.123000Z');
  const dropped = new Set<string>();
  const tree = fieldTree([{ name: 'id' }, { name: 'text' }, { name: 'metadata', fields: [{ name: 'filename' }, { name: 'data_source', fields: [{ name: 'url' }] }] }]);
  assert.deepEqual(fitToTree(d, tree, dropped), { id: d.id, text: 'Hi', metadata: { filename: 'a.txt', data_source: { url: 'u' } } });
  assert.ok(dropped.has('embeddings') && dropped.has('metadata.data_source.record_locator') && dropped.has('extra_top'));
});
