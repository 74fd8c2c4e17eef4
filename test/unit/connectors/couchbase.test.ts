// Pure parts of the couchbase family: where a connection string sends Query requests, the statements
// and document shape the connector sends, and the platform's document text (Python str() of values).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyspace, queryBases } from '../../../lambdas/connectors/couchbase/client';
import { documentText, pyStr } from '../../../lambdas/connectors/couchbase/source';
import { couchbaseDocument, upsertStatement } from '../../../lambdas/connectors/couchbase/writer';

test('queryBases: couchbase:// → http :8093, couchbases:// → https :18093, KV ports mapped, other ports kept, every host in order', () => {
  assert.deepEqual(queryBases('couchbase://cb.example.com'), ['http://cb.example.com:8093']);
  assert.deepEqual(queryBases('couchbases://cb.abc.cloud.couchbase.com?ssl=no_verify'), ['https://cb.abc.cloud.couchbase.com:18093']);
  assert.deepEqual(queryBases('couchbase://a:11210,b,[fd00::1]:9093'), ['http://a:8093', 'http://b:8093', 'http://[fd00::1]:9093']);
  assert.deepEqual(queryBases('couchbases://a:11207'), ['https://a:18093']);
  assert.deepEqual(queryBases('http://q.internal:8093'), ['http://q.internal:8093']);
  for (const bad of ['cb.example.com', 'mongodb://x', 'couchbase://', 'couchbase://a:99999', 'couchbase://a/b']) assert.throws(() => queryBases(bad), bad);
});

test('statements: a backticked keyspace with _default scope/collection; one ($n, $n+1) pair per document', () => {
  const c = { connection_string: 'couchbase://x', username: 'u', password: 'p', bucket: 'my-bucket', batch_size: 10 };
  assert.equal(keyspace(c), '`my-bucket`.`_default`.`_default`');
  assert.equal(upsertStatement({ ...c, scope: 's', collection: 'c' }, 3), 'UPSERT INTO `my-bucket`.`s`.`c` (KEY, VALUE) VALUES ($1, $2), ($3, $4), ($5, $6)');
});

test('couchbaseDocument: the platform stager fields (embedding, text, metadata, type) + element_id and record_id', () => {
  const d = couchbaseDocument({ type: 'Title', element_id: 'e1', text: 'Hi', metadata: { page_number: 1 }, embeddings: [0.5] }, 'rec');
  assert.match(d.key, /^[0-9a-f]{8}-[0-9a-f]{4}-5/);
  assert.deepEqual(d.value, { embedding: [0.5], text: 'Hi', metadata: { page_number: 1 }, type: 'Title', element_id: 'e1', record_id: 'rec' });
  assert.equal(couchbaseDocument({ type: 'Title', element_id: 'e1', text: 'Hi', metadata: {} }, 'rec').value.embedding, null);
});

test('documentText: flatten_dict values as Python str(), one per line (map_cb_results)', () => {
  assert.equal(
    documentText({ id: 'x', n: 3, f: 0.25, big: 1e21, tiny: 1e-7, ok: true, no: null, tags: ['a', "it's", 2, false, null, { k: 'v' }], nested: { deep: { v: 'w' }, empty: {} } }),
    ['x', '3', '0.25', '1e+21', '1e-07', 'True', 'None', `['a', "it's", 2, False, None, {'k': 'v'}]`, 'w'].join('\n'),
  );
  assert.equal(pyStr(['line\nbreak', 'back\\slash', 'q\'"']), `['line\\nbreak', 'back\\\\slash', 'q\\'"']`);
});
