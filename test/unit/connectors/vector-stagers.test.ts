// The vector destinations stage elements exactly as the platform's connectors do: the platform's own
// stager fixtures (unstructured-ingest, Apache-2.0; see fixtures/platform-stagers.json) run through
// our stagers, with our documented additions: Pinecone metadata keeps `type`, Qdrant payloads carry
// `record_id`, Astra DB documents carry a uuid5 `_id`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pineconeVector } from '../../../lambdas/connectors/pinecone/writer';
import { qdrantPoint } from '../../../lambdas/connectors/qdrant/writer';
import { astraDocument, truncateBytes } from '../../../lambdas/connectors/astradb/writer';
import { enhancedElementId } from '../../../lambdas/connectors/records/ids';
import type { ElementRecord } from '../../../lambdas/connectors/records/types';

const fx = JSON.parse(readFileSync(new URL('./fixtures/platform-stagers.json', import.meta.url), 'utf8')) as {
  record_id: string;
  input: ElementRecord[];
  pinecone: Record<string, any>[];
  qdrant: Record<string, any>[];
  astradb: Record<string, any>[];
  astradb_flatten_metadata: Record<string, any>[];
};
const input = () => structuredClone(fx.input);

test('pinecone: ids, values and metadata as PineconeUploadStager (plus type)', () => {
  input().forEach((el, i) => {
    const ours = pineconeVector(el, fx.record_id);
    const expected = fx.pinecone[i]!;
    assert.equal(ours.id, expected.id);
    assert.deepEqual(ours.values, expected.values);
    const { type, ...rest } = ours.metadata as Record<string, unknown>;
    assert.equal(type, el.type);
    assert.deepEqual(rest, expected.metadata);
  });
});

test('qdrant: id, vector and payload as QdrantUploadStager (plus record_id)', () => {
  input().forEach((el, i) => {
    const ours = qdrantPoint(el, fx.record_id);
    const expected = fx.qdrant[i]!;
    assert.equal(ours.id, expected.id);
    assert.deepEqual(ours.vector, expected.vector);
    const { record_id, element_serialized, ...payload } = ours.payload;
    assert.equal(record_id, fx.record_id);
    const { element_serialized: expectedSerialized, ...expectedPayload } = expected.payload;
    assert.deepEqual(payload, expectedPayload);
    // Python writes ", "/": " separators; the JSON is the same.
    assert.deepEqual(JSON.parse(String(element_serialized)), JSON.parse(expectedSerialized));
  });
});

test('astradb: content, record_id, metadata (nested or flattened) and $vector as AstraDBUploadStager (plus _id)', () => {
  for (const [flatten, expectedDocs] of [[false, fx.astradb], [true, fx.astradb_flatten_metadata]] as const) {
    input().forEach((el, i) => {
      const { _id, ...ours } = astraDocument(el, fx.record_id, { flatten_metadata: flatten }, (v) => v);
      assert.equal(_id, enhancedElementId(el.element_id, fx.record_id));
      assert.deepEqual(ours, expectedDocs[i], `flatten_metadata=${flatten}, element ${i}`);
    });
  }
});

test('truncateBytes cuts on a character boundary', () => {
  assert.equal(truncateBytes('abc', 8000), 'abc');
  assert.equal(truncateBytes('aé', 2), 'a');
  assert.equal(truncateBytes('€€', 5), '€');
  assert.equal(Buffer.byteLength(truncateBytes('€'.repeat(4000))), 7998);
});
