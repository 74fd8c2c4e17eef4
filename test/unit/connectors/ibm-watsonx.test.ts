// Pure parts of the ibm_watsonx_s3 family: 63-bit Iceberg ids through JSON and Avro without rounding,
// the Avro container header carrying Iceberg's field ids, endpoint URLs as the platform builds them,
// tables this writer refuses, values refused by a column's type.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeContainer, encodeContainer, MANIFEST_FILE_SCHEMA, manifestFileType, type ManifestFile } from '../../../lambdas/connectors/ibm-watsonx/avro';
import { endpointUrl, parseJsonLongs, stringifyJsonLongs, type TableMetadata } from '../../../lambdas/connectors/ibm-watsonx/catalog';
import { cast, fitRows } from '../../../lambdas/connectors/ibm-watsonx/table';
import { tableProblem } from '../../../lambdas/connectors/ibm-watsonx/writer';

test('JSON: snapshot ids beyond 2^53 survive a parse and a stringify exactly; digits inside strings untouched', () => {
  const text = '{"current-snapshot-id":7000000000000000001,"refs":{"main":{"snapshot-id":9223372036854775807}},"doc":"id 1234567890123456789, ok","n":12,"f":1.5}';
  const v = parseJsonLongs(text);
  assert.equal(v['current-snapshot-id'], 7000000000000000001n);
  assert.equal(v.refs.main['snapshot-id'], 9223372036854775807n);
  assert.equal(v.doc, 'id 1234567890123456789, ok');
  assert.equal(v.n, 12);
  assert.equal(stringifyJsonLongs(v), text);
});

test('Avro: a manifest list round-trips 63-bit ids, and its header schema carries the field ids', async () => {
  const m: ManifestFile = { manifest_path: 's3://b/m.avro', manifest_length: 10n, partition_spec_id: 0, content: 0, sequence_number: 3n, min_sequence_number: 1n, added_snapshot_id: 9223372036854775807n, added_files_count: 1, existing_files_count: 0, deleted_files_count: 0, added_rows_count: 5n, existing_rows_count: 0n, deleted_rows_count: 0n, partitions: null, key_metadata: null };
  const bytes = await encodeContainer(manifestFileType, MANIFEST_FILE_SCHEMA, [m], { 'format-version': '2', 'snapshot-id': '9223372036854775807' });
  const back = await decodeContainer<ManifestFile>(bytes, manifestFileType);
  assert.equal(back.records[0]!.added_snapshot_id, 9223372036854775807n);
  assert.equal(back.metadata['format-version'], '2');
  const schema = JSON.parse(back.metadata['avro.schema']!);
  assert.deepEqual(schema.fields.slice(0, 3).map((f: any) => [f.name, f['field-id']]), [['manifest_path', 500], ['manifest_length', 501], ['partition_spec_id', 502]]);
});

test('endpoints: https:// added to a bare host as the platform does; a written scheme kept', () => {
  assert.equal(endpointUrl('us-south.lakehouse.cloud.ibm.com/'), 'https://us-south.lakehouse.cloud.ibm.com');
  assert.equal(endpointUrl('http://127.0.0.1:9000'), 'http://127.0.0.1:9000');
});

test('tables refused: format v1 and partitioned tables, with the reason', () => {
  const base = { 'format-version': 2, 'default-spec-id': 0, 'partition-specs': [{ 'spec-id': 0, fields: [] }] } as unknown as TableMetadata;
  assert.equal(tableProblem(base), undefined);
  assert.match(tableProblem({ ...base, 'format-version': 1 })!, /format version 1; this writer writes format version 2/);
  assert.match(tableProblem({ ...base, 'partition-specs': [{ 'spec-id': 0, fields: [{}] }] })!, /partitioned/);
});

test('values cast to the column type; a value that does not fit, or a null in a required column, refuses the record', () => {
  const long = { id: 1, name: 'n', required: false, type: 'long' };
  assert.equal(cast(long, '42', 'e'), 42n);
  assert.throws(() => cast(long, 'x', 'e1'), /element e1\): column n is long in the table schema, the value "x" does not fit/);
  assert.throws(() => cast({ ...long, required: true }, null, 'e2'), /column n is a required long/);
  const list = { id: 2, name: 'v', required: false, type: { type: 'list', 'element-id': 3, element: 'float', 'element-required': false } };
  assert.deepEqual(cast(list, [1, 2], 'e'), [1, 2]);
  const struct = { id: 4, name: 's', required: false, type: { type: 'struct', fields: [] } };
  assert.throws(() => cast(struct, 'x', 'e3'), /cannot be written by this writer/);
  const fitted = fitRows([long, struct], [{ n: 1, other: 'dropped', element_id: 'e' }]);
  assert.deepEqual([fitted.columns.map((c) => c.name), fitted.dropped.sort()], [['n'], ['element_id', 'other']]);
});
