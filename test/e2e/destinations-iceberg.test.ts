// A workflow writing into IBM watsonx.data (an Iceberg table behind the REST catalog) through the HTTP
// API: local source (two corpus files) → partition → chunk → embed (built-in 384-dim embedder) →
// ibm_watsonx_s3, run twice, read back through the table's metadata chain (catalog metadata file,
// Avro manifests, Parquet via hyparquet): one copy of each file's rows, 384-dim vectors, metadata.
// Stand-ins: IAM + Iceberg REST catalog (lambdas/connectors/ibm-watsonx/test-server.ts) over the
// local S3 emulator. A destination whose table does not exist fails its check and its files with the
// catalog's reason; the job finishes and frees its slot.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { assertNoJobRunning, e2eFlows, EMBED_NODES, failedFiles, stageInput } from '../support/e2e-flows';
import { trustStandIns } from '../support/stand-in-ca';
import { IAM_API_KEY, platformFields, readIcebergTable, S3_CREDENTIALS, startWatsonxStandIn, type WatsonxStandIn } from '../../lambdas/connectors/ibm-watsonx/test-server';

let stack: TestStack;
let wx: WatsonxStandIn;
let sourceId: string;
let untrust: (() => void) | undefined;
const inDir = join(mkdtempSync(join(tmpdir(), 'wps-icebergdest-')), 'in');
const { createDestination, check, workflow, runToEnd } = e2eFlows(() => stack, () => sourceId);
const NS = 'wf';

const config = (table: string) => ({
  iam_api_key: IAM_API_KEY,
  access_key_id: S3_CREDENTIALS.accessKeyId,
  secret_access_key: S3_CREDENTIALS.secretAccessKey,
  iceberg_endpoint: wx.endpoint,
  object_storage_endpoint: wx.s3Endpoint,
  object_storage_region: 'us-east-1',
  catalog: wx.catalog,
  namespace: NS,
  table,
});

before(async () => {
  if (NEEDS_LOCAL) return;
  stageInput(inDir);
  untrust = trustStandIns(); // the stand-in serves TLS: the API key and bearer token go over TLS only
  wx = await startWatsonxStandIn();
  wx.createTable(NS, 'elements', platformFields());
  stack = await startTestStack();
  sourceId = (await stack.call('POST', '/api/v1/sources/', { body: { name: 'in', type: 'local', config: { remote_url: inDir } } })).body.id;
});
after(async () => {
  await stack?.close();
  await wx?.stop();
  untrust?.();
});

test('ibm_watsonx_s3: two runs leave one copy of each file\'s rows in the current snapshot, 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await createDestination('watsonx', 'ibm_watsonx_s3', config('elements'), ['iam_api_key', 'secret_access_key']);
  const c = await check(id);
  assert.equal(c.status, 'SUCCESS', c.reason);
  const wf = await workflow('to-watsonx', id);
  const counts: Record<string, number>[] = [];
  for (let i = 0; i < 2; i++) {
    const job = await runToEnd(wf);
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    const perFile: Record<string, number> = {};
    for (const r of (await readIcebergTable(wx, NS, 'elements')).rows) perFile[r.filename] = (perFile[r.filename] ?? 0) + 1;
    counts.push(perFile);
  }
  assert.deepEqual(Object.keys(counts[0]!).sort(), ['README.md', 'fake-text.txt']);
  assert.deepEqual(counts[1], counts[0], 'the second run replaced each file, not duplicated it');
  const t = await readIcebergTable(wx, NS, 'elements');
  assert.deepEqual(t.metadata.snapshots!.map((s) => s.summary.operation).sort(), ['append', 'append', 'overwrite', 'overwrite'], 'one snapshot per file per run');
  assert.equal(t.entries.length, 2, 'one live data file per document');
  assert.equal(new Set(t.rows.map((r) => r.id)).size, t.rows.length, 'no element twice');
  const sample = t.rows.find((r) => r.filename === 'fake-text.txt')!;
  assert.equal(sample.embeddings.length, 384);
  assert.equal(sample.type, 'CompositeElement');
  assert.equal(sample.filetype, 'text/plain');
  assert.deepEqual(sample.languages, ['eng']);
  assert.ok(sample.record_id && sample.element_id && sample.text.length > 0);
});

test('ibm_watsonx_s3 pointing at a table that does not exist: FAILURE check and failed files with the catalog\'s reason, job finished', { skip: NEEDS_LOCAL }, async () => {
  const id = await createDestination('watsonx-nowhere', 'ibm_watsonx_s3', config('absent'), ['iam_api_key', 'secret_access_key']);
  const c = await check(id);
  assert.deepEqual([c.status, c.reason], ['FAILURE', "Table 'absent' does not exist in namespace 'wf'"]);
  // Partition and chunk only: the failure under test is the destination's.
  const job = await runToEnd(await workflow('watsonx-nowhere', id, EMBED_NODES.slice(0, 2)));
  assert.equal(job.status, 'FAILED');
  const failed = await failedFiles(stack, job.id);
  assert.equal(failed.length, 2);
  for (const f of failed) {
    assert.match(f.error, /ibm_watsonx_s3 destination: load table 'wf\.absent' failed: NoSuchTableException: Table does not exist: wf\.absent \(HTTP 404\)/);
    assert.ok(!f.error.includes(IAM_API_KEY));
  }
  await assertNoJobRunning(stack);
});
