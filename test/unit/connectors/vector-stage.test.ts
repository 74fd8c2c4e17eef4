// Pure parts of the weaviate-cloud and milvus families: where the Weaviate client connects for a
// cluster_url (as connectToWeaviateCloud derives it), collection names as the platform formats them,
// and the platform stagers' value conversions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endpointsOf } from '../../../lambdas/connectors/weaviate/client';
import { collectionName, rfc3339, weaviateObject } from '../../../lambdas/connectors/weaviate/stage';
import { exprString, milvusRow, milvusRows } from '../../../lambdas/connectors/milvus/stage';

test('weaviate endpoints: cloud hosts get grpc-<host>:443, weaviate.network <id>.grpc.<rest>, explicit ports one gateway', () => {
  assert.deepEqual(endpointsOf('abc123.c0.europe-west3.gcp.weaviate.cloud'), {
    cloud: true, http: { host: 'abc123.c0.europe-west3.gcp.weaviate.cloud', port: 443, secure: true }, grpc: { host: 'grpc-abc123.c0.europe-west3.gcp.weaviate.cloud', port: 443, secure: true },
  });
  assert.equal(endpointsOf('https://my-sandbox.weaviate.network').grpc.host, 'my-sandbox.grpc.weaviate.network');
  assert.deepEqual(endpointsOf('http://10.0.0.5:8080'), { cloud: false, http: { host: '10.0.0.5', port: 8080, secure: false }, grpc: { host: '10.0.0.5', port: 8080, secure: false } });
  assert.throws(() => endpointsOf('https://'), /not a host name or URL|names no host/);
});

test('collection names as the platform formats them', () => {
  assert.equal(collectionName(undefined), 'Unstructuredautocreated');
  assert.equal(collectionName('my-docs.v2'), 'My_docs_v2');
  assert.throws(() => collectionName('_x'), /must start with a letter/);
});

test('weaviate staging: dates RFC 3339 with microseconds, epoch seconds too; empty links kept as a list', () => {
  assert.equal(rfc3339('2026-01-02T03:04:05Z'), '2026-01-02T03:04:05.000000Z');
  assert.equal(rfc3339(1767323045.5), '2026-01-02T03:04:05.500000Z');
  assert.equal(rfc3339('not a date'), undefined);
  const o = weaviateObject({ type: 'T', element_id: 'e', text: 'x', metadata: { links: [], last_modified: '2026-01-02', regex_metadata: { a: [1] }, empty: null } }, 'r');
  assert.deepEqual(o.properties.metadata, { links: [], last_modified: '2026-01-02T00:00:00.000000Z', regex_metadata: '{"a":[1]}' });
  assert.equal(o.vectors, undefined, 'no embedding, no vector');
});

test('milvus staging: flattening, defaults, JSON and date columns, record id under record_id_key', () => {
  const el = { type: 'T', element_id: 'e', text: 'x', metadata: { languages: ['eng'], data_source: { date_created: '1700000000', permissions_data: [{ a: 1 }] }, none: null }, embeddings: [1] };
  assert.deepEqual(milvusRow(el, 'rid', { record_id_key: 'doc_id' }), {
    type: 'T', element_id: 'e', text: 'x', embeddings: [1], languages: '["eng"]', data_source_date_created: 1700000000,
    data_source_permissions_data: '[{"a":1}]', is_continuation: false, record_id: 'rid', doc_id: 'rid',
  });
  assert.equal(milvusRows([{ type: 'T', element_id: 'e', text: '', metadata: {} }], 'rid', { record_id_key: 'record_id' }).length, 0, 'no embedding, no row');
  assert.equal(exprString('a"b\\c'), '"a\\"b\\\\c"');
});
