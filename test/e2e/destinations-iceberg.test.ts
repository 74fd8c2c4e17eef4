// A workflow writing into IBM watsonx.data (an Iceberg table behind the REST catalog) through the HTTP
// API: local source (two corpus files) → partition → chunk → embed (built-in 384-dim embedder) →
// ibm_watsonx_s3, run twice, read back through the table's metadata chain (catalog metadata file,
// Avro manifests, Parquet via hyparquet): one copy of each file's rows, 384-dim vectors, metadata.
// Stand-ins: IAM + Iceberg REST catalog (lambdas/connectors/ibm-watsonx/test-server.ts) over the
// local S3 emulator. A destination whose table does not exist fails its check and its files with the
// catalog's reason; the job finishes and frees its slot.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { trustStandIns } from '../support/stand-in-ca';
import { IAM_API_KEY, platformFields, readIcebergTable, S3_CREDENTIALS, startWatsonxStandIn, type WatsonxStandIn } from '../../lambdas/connectors/ibm-watsonx/test-server';

const corpus = resolve(process.cwd(), '../shared/corpus/docs');
let stack: TestStack;
let wx: WatsonxStandIn;
let sourceId: string;
let untrust: (() => void) | undefined;
const inDir = join(mkdtempSync(join(tmpdir(), 'wps-icebergdest-')), 'in');
const NS = 'wf';

const nodes = [
  { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
  { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 500 } },
  { name: 'Embedder', type: 'embed', subtype: 'local', settings: { model_name: 'builtin-hashed-char-ngrams-384' } },
];

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
  mkdirSync(join(inDir, 'sub'), { recursive: true });
  copyFileSync(join(corpus, 'fake-text.txt'), join(inDir, 'fake-text.txt'));
  copyFileSync(join(corpus, 'README.md'), join(inDir, 'sub', 'README.md'));
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

async function createDestination(name: string, cfg: Record<string, unknown>) {
  const dest = await stack.call('POST', '/api/v1/destinations/', { body: { name, type: 'ibm_watsonx_s3', config: cfg } });
  assert.equal(dest.status, 200, dest.text);
  for (const f of ['iam_api_key', 'secret_access_key']) assert.equal(dest.body.config[f], '**********', f);
  return dest.body.id as string;
}

async function check(destinationId: string) {
  await stack.call('POST', `/api/v1/destinations/${destinationId}/connection-check`);
  return eventually(async () => {
    const r = await stack.call('GET', `/api/v1/destinations/${destinationId}/connection-check`);
    return r.body.status !== 'SCHEDULED' ? r.body : undefined;
  }, 'connection check');
}

async function workflow(name: string, destinationId: string, workflowNodes = nodes): Promise<string> {
  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name, workflow_type: 'custom', reprocess_all: true, workflow_nodes: workflowNodes, source_id: sourceId, destination_id: destinationId },
  });
  assert.equal(wf.status, 200, wf.text);
  return wf.body.id;
}

async function runToEnd(workflowId: string) {
  const run = await stack.call('POST', `/api/v1/workflows/${workflowId}/run`);
  assert.equal(run.status, 202, run.text);
  return eventually(async () => {
    const r = await stack.call('GET', `/api/v1/jobs/${run.body.id}`);
    return ['COMPLETED', 'FAILED', 'STOPPED'].includes(r.body.status) ? r.body : undefined;
  }, 'workflow job', 180_000);
}

test('ibm_watsonx_s3: two runs leave one copy of each file\'s rows in the current snapshot, 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await createDestination('watsonx', config('elements'));
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
  const id = await createDestination('watsonx-nowhere', config('absent'));
  const c = await check(id);
  assert.deepEqual([c.status, c.reason], ['FAILURE', "Table 'absent' does not exist in namespace 'wf'"]);
  // Partition and chunk only: the failure under test is the destination's.
  const job = await runToEnd(await workflow('watsonx-nowhere', id, nodes.slice(0, 2)));
  assert.equal(job.status, 'FAILED');
  const failed = await stack.call('GET', `/api/v1/jobs/${job.id}/failed-files`);
  assert.equal(failed.status, 200);
  assert.equal(failed.body.failed_files.length, 2);
  for (const f of failed.body.failed_files) {
    assert.match(f.error, /ibm_watsonx_s3 destination: load table 'wf\.absent' failed: NoSuchTableException: Table does not exist: wf\.absent \(HTTP 404\)/);
    assert.ok(!f.error.includes(IAM_API_KEY));
  }
  const running = await stack.call('GET', '/api/v1/jobs/?status=IN_PROGRESS');
  assert.equal(running.status, 200, running.text);
  assert.deepEqual(running.body, []);
});
