// A workflow writing into IBM watsonx.data (an Iceberg table behind the REST catalog) through the HTTP
// API: local source (two corpus files) → partition → chunk → embed (built-in 384-dim embedder) →
// ibm_watsonx_s3, run twice, read back through the table's metadata chain (catalog metadata file,
// Avro manifests, Parquet via hyparquet): one copy of each file's rows, 384-dim vectors, metadata.
// Stand-ins: IAM + Iceberg REST catalog (lambdas/connectors/ibm-watsonx/test-server.ts) over the
// local S3 emulator. A destination whose table does not exist fails its check and its files with the
// catalog's reason; the job finishes and frees its slot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL } from '../support/local-stack';
import { assertSampleRow, destinationSuite, tally } from '../support/e2e-flows';
import { IAM_API_KEY, platformFields, readIcebergTable, startWatsonxStandIn, type WatsonxStandIn } from '../../lambdas/connectors/ibm-watsonx/test-server';
import { watsonxConfig } from '../support/watsonx-config';

let wx: WatsonxStandIn;
const NS = 'wf';

const config = (table: string) => watsonxConfig(wx, NS, table);

const { connect, workflow, twice, pointNowhere } = destinationSuite('wps-icebergdest-', {
  trust: true, // the stand-in serves TLS: the API key and bearer token go over TLS only
  start: async () => {
    wx = await startWatsonxStandIn();
    wx.createTable(NS, 'elements', platformFields());
  },
  stop: () => wx?.stop(),
});

test('ibm_watsonx_s3: two runs leave one copy of each file\'s rows in the current snapshot, 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await connect('watsonx', 'ibm_watsonx_s3', config('elements'), ['iam_api_key', 'secret_access_key']);
  await twice(await workflow('to-watsonx', id), async () => tally((await readIcebergTable(wx, NS, 'elements')).rows, (r) => r.filename));
  const t = await readIcebergTable(wx, NS, 'elements');
  assert.deepEqual(t.metadata.snapshots!.map((s) => s.summary.operation).sort(), ['append', 'append', 'overwrite', 'overwrite'], 'one snapshot per file per run');
  assert.equal(t.entries.length, 2, 'one live data file per document');
  assert.equal(new Set(t.rows.map((r) => r.id)).size, t.rows.length, 'no element twice');
  const sample = t.rows.find((r) => r.filename === 'fake-text.txt')!;
  assertSampleRow(sample);
});

test('ibm_watsonx_s3 pointing at a table that does not exist: FAILURE check and failed files with the catalog\'s reason, job finished', { skip: NEEDS_LOCAL }, async () => {
  // Partition and chunk only: the failure under test is the destination's.
  await pointNowhere([{
    type: 'ibm_watsonx_s3', config: config('absent'), secretFields: ['iam_api_key', 'secret_access_key'], secret: IAM_API_KEY,
    reason: /^Table 'absent' does not exist in namespace 'wf'$/,
    fileReason: /ibm_watsonx_s3 destination: load table 'wf\.absent' failed: NoSuchTableException: Table does not exist: wf\.absent \(HTTP 404\)/,
  }]);
});
