// Planning a workflow's source run (lambdas/domain/source-state.ts IncrementalRuns.plan) on the real
// stores: the single table on dynalite and the job manifest in S3 (s3rver). The listing is a
// generator standing in for a connector, so a source of 120,000 documents costs nothing to make:
// the whole listing is planned (no cap), streamed into a JSON Lines manifest of several multipart
// parts, unchanged documents skipped, gone ones counted; a listing without end or one that fails
// half-way fails the plan and changes no state.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3RVER_CREDENTIALS, startS3 } from '../../local/emulators/s3';
import { resetClients } from '../../lambdas/adapters/aws-clients';
import { S3BlobStore } from '../../lambdas/adapters/s3-blob-store';
import { IncrementalRuns } from '../../lambdas/domain/source-state';
import { MAX_LISTED_FILE_IDS, type JobFile } from '../../lambdas/domain/job-manifest';
import type { ConnectorRuntime, ListedDocument } from '../../lambdas/domain/connectors';
import { ConnectorFailure } from '../../lambdas/errors';
import { startTestTable } from '../support/dynamo';
import { keys } from '../../lambdas/data/keys';

let table: Awaited<ReturnType<typeof startTestTable>>;
let s3: Awaited<ReturnType<typeof startS3>>;
let blobs: S3BlobStore;

before(async () => {
  table = await startTestTable('wps-plan');
  s3 = await startS3({ dataDir: mkdtempSync(join(tmpdir(), 'wps-plan-s3-')), buckets: ['plan-bucket'] });
  Object.assign(process.env, { AWS_ENDPOINT_URL_S3: s3.endpoint, AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey });
  resetClients();
  blobs = new S3BlobStore('plan-bucket');
});
after(async () => {
  await s3?.stop();
  await table?.stop();
});

/** A source whose listing is `docs` (any iterable); nothing else is used by planning. */
function sourceOf(docs: () => AsyncIterable<ListedDocument> | Iterable<ListedDocument>): ConnectorRuntime {
  const no = () => {
    throw new Error('not used by planning');
  };
  return {
    listSource: async function* () {
      yield* docs();
    },
    readSource: no,
    writeDestination: no,
    deliver: no,
    removeDocument: no,
  };
}

const doc = (i: number, version = 'v1'): ListedDocument => ({
  key: `dir/doc-${i}.txt`,
  size: i,
  version,
  dataSource: { url: `s3://bucket/dir/doc-${i}.txt`, version, record_locator: { protocol: 's3', remote_file_path: 's3://bucket/dir/' } },
});
const run = { workflowId: 'wf-1', sourceId: 'src-1', destinationId: 'dst-1', reprocessAll: false };

test('a source of 120,000 documents is planned whole: streamed manifest, unchanged skipped, gone counted', async () => {
  const N = 120_000;
  const runs = new IncrementalRuns(table.store, blobs, sourceOf(function* () {
    for (let i = 0; i < N; i++) yield doc(i, i === 1 ? 'v2' : 'v1');
  }));
  const at = new Date().toISOString();
  for (const [key, version] of [['dir/doc-0.txt', 'v1'], ['dir/doc-1.txt', 'v1'], ['dir/gone.txt', 'v1']] as const) {
    await runs.states.record('acct', run.workflowId, { docKey: key, version, sourceId: run.sourceId, destinationId: run.destinationId, lastJobId: 'job-0' }, at);
  }

  const planned = await runs.plan('acct', 'job-1', run);
  assert.equal(planned.manifest.fileCount, N - 1, 'every document but the unchanged one');
  assert.equal(planned.manifest.inputFileIds.length, MAX_LISTED_FILE_IDS);
  assert.deepEqual(planned.fields, { srcListed: N, srcUnchanged: 1, srcToRemove: 1, srcRemoved: 0, srcRemovedFromDestination: 0, reprocessAll: false });
  assert.ok((await blobs.size(planned.manifest.manifestKey))! > 8 * 1024 * 1024, 'bigger than one part: written as a multipart upload');

  let count = 0;
  let first: JobFile | undefined;
  const ids = new Set<string>();
  for await (const line of blobs.lines(planned.manifest.manifestKey)) {
    const f = JSON.parse(line) as JobFile;
    first ??= f;
    ids.add(f.fileId);
    count++;
  }
  assert.equal(count, N - 1);
  assert.equal(ids.size, N - 1, 'file ids are unique');
  assert.deepEqual(first && { ...first, fileId: 'x' }, {
    fileId: 'x',
    filename: 'doc-1.txt',
    size: 1,
    sourceKey: 'dir/doc-1.txt',
    version: 'v2',
    dataSource: { url: 's3://bucket/dir/doc-1.txt', version: 'v2', record_locator: { protocol: 's3', remote_file_path: 's3://bucket/dir/' } },
  });
  assert.deepEqual(planned.manifest.inputFileIds[0], first!.fileId);

  // the gone document is removed at the end of the run; it was listed in its own object
  const removedCalls: string[] = [];
  const withRemoval = new IncrementalRuns(table.store, blobs, {
    ...sourceOf(() => []),
    removeDocument: async (_a, _d, d) => {
      removedCalls.push(d.sourceKey);
      return 1;
    },
  });
  await table.store.put({ ...keys.job('acct', 'job-1'), entity: 'job', createdAt: new Date().toISOString(), id: 'job-1', workflowId: run.workflowId, destinationId: run.destinationId, srcToRemove: 1 });
  await withRemoval.removeGone('acct', (await table.store.get(keys.job('acct', 'job-1')))!, async () => undefined);
  assert.deepEqual(removedCalls, ['dir/gone.txt']);
  assert.equal(await runs.states.get('acct', run.workflowId, 'dir/gone.txt'), undefined);
});

test('a listing without end, or one repeating its pages, fails the plan at the limit', async () => {
  const endless = new IncrementalRuns(table.store, blobs, sourceOf(function* () {
    for (let i = 0; ; i++) yield doc(i);
  }));
  await assert.rejects(endless.plan('acct', 'job-2', { ...run, workflowId: 'wf-2' }, 5_000), (err: Error) => err instanceof ConnectorFailure && /listed more than 5,000 documents/.test(err.message));

  const repeating = new IncrementalRuns(table.store, blobs, sourceOf(function* () {
    for (;;) yield* [doc(1), doc(2)];
  }));
  await assert.rejects(repeating.plan('acct', 'job-3', { ...run, workflowId: 'wf-3' }, 5_000), /listed more than 5,000 documents/);

  // a repeat within the limit counts once
  const twice = new IncrementalRuns(table.store, blobs, sourceOf(() => [doc(1), doc(2), doc(1)]));
  const planned = await twice.plan('acct', 'job-4', { ...run, workflowId: 'wf-4' }, 5_000);
  assert.equal(planned.manifest.fileCount, 2);
  assert.equal(planned.fields.srcListed, 2);
});

test('a listing that fails half-way fails the plan and changes no state', async () => {
  const runs = new IncrementalRuns(table.store, blobs, sourceOf(async function* () {
    for (let i = 0; i < 20_000; i++) yield doc(i);
    throw new Error('page 21 of the listing: 401 token revoked');
  }));
  await runs.states.record('acct', 'wf-5', { docKey: 'dir/doc-1.txt', version: 'v0', sourceId: run.sourceId, destinationId: run.destinationId, lastJobId: 'job-0' }, new Date().toISOString());
  await assert.rejects(runs.plan('acct', 'job-5', { ...run, workflowId: 'wf-5' }), /token revoked/);
  assert.equal((await runs.states.load('acct', 'wf-5')).length, 1);
  assert.equal((await runs.states.get('acct', 'wf-5', 'dir/doc-1.txt'))?.version, 'v0');
  assert.equal(await blobs.exists('jobs/job-5/manifest.jsonl'), false, 'the aborted multipart upload left no manifest');
});

// A stream source (kafka) through plan and settleStream: the listing hands a checkpoint, only a
// finished run acknowledges it, and what the run did not deliver comes back first next run.
test('a stream source: acknowledged only by a finished run; undelivered documents kept and listed first next run; delivered ones dropped', async () => {
  let offset = 0; // the stream's acknowledged position
  const produced = [0, 1, 2, 3].map((i) => doc(100 + i));
  const acks: Record<string, unknown>[] = [];
  const runtime: ConnectorRuntime = {
    ...sourceOf(() => []),
    listSource: async function* (_a, _s, opts) {
      yield* produced.slice(offset);
      opts?.onCheckpoint?.({ offset: produced.length });
    },
    sourceIsStream: async () => true,
    acknowledgeSource: async (_a, _s, checkpoint) => {
      acks.push(checkpoint);
      offset = Number(checkpoint.offset);
    },
  };
  const runs = new IncrementalRuns(table.store, blobs, runtime);
  const wf = { ...run, workflowId: 'wf-stream' };
  const at = new Date().toISOString();
  const job = async (jobId: string) => {
    const planned = await runs.plan('acct', jobId, wf);
    return { ...keys.job('acct', jobId), entity: 'Job', createdAt: at, id: jobId, workflowId: wf.workflowId, sourceId: wf.sourceId, manifestKey: planned.manifest.manifestKey, fileCount: planned.manifest.fileCount, ...planned.fields };
  };
  const files = async (j: { manifestKey: string }) => {
    const out: JobFile[] = [];
    for await (const line of blobs.lines(j.manifestKey)) out.push(JSON.parse(line) as JobFile);
    return out;
  };
  const deliver = (jobId: string, key: string) => runs.states.record('acct', wf.workflowId, { docKey: key, version: 'v1', sourceId: wf.sourceId, destinationId: wf.destinationId, lastJobId: jobId }, at);

  // job-a dies after delivering doc-100: never settled, nothing acknowledged
  const a = await job('job-a');
  assert.deepEqual(a.srcCheckpoint, { offset: 4 });
  await deliver('job-a', 'dir/doc-100.txt');
  assert.equal(acks.length, 0);

  // job-b lists the same documents again (the position did not move); doc-100 is skipped as delivered
  const b = await job('job-b');
  assert.deepEqual((await files(b)).map((f) => f.sourceKey), ['dir/doc-101.txt', 'dir/doc-102.txt', 'dir/doc-103.txt']);
  await deliver('job-b', 'dir/doc-101.txt');
  await deliver('job-b', 'dir/doc-103.txt');
  assert.equal(await runs.settleStream('acct', b, at), undefined);
  assert.deepEqual(acks, [{ offset: 4 }], 'acknowledged once the run finished');
  assert.deepEqual((await runs.retries.load('acct', wf.workflowId)).map((k) => [k.doc.key, k.jobId, k.attempts]), [['dir/doc-102.txt', 'job-b', 1]]);
  assert.equal((await runs.states.load('acct', wf.workflowId)).length, 3, 'kept documents are not delivered states');

  // job-c: nothing new on the stream; the kept document comes back, with its data_source
  produced.push(doc(104));
  const c = await job('job-c');
  const cFiles = await files(c);
  assert.deepEqual(cFiles.map((f) => [f.sourceKey, f.retry]), [['dir/doc-102.txt', 1], ['dir/doc-104.txt', undefined]]);
  assert.deepEqual(cFiles[0]!.dataSource, doc(102).dataSource);
  assert.equal(c.srcRetried, 1);
  await deliver('job-c', 'dir/doc-102.txt');
  await runs.settleStream('acct', c, at);
  assert.deepEqual((await runs.retries.load('acct', wf.workflowId)).map((k) => [k.doc.key, k.attempts]), [['dir/doc-104.txt', 1]], 'the retried one delivered: dropped; the new failure kept');

  // a kept document delivered by a run that died before settling is dropped at the next plan
  await deliver('job-x', 'dir/doc-104.txt');
  const d = await job('job-d');
  assert.equal(d.fileCount, 0);
  assert.deepEqual(await runs.retries.load('acct', wf.workflowId), []);

  // an acknowledgement that fails is reported, not thrown
  const failing = new IncrementalRuns(table.store, blobs, { ...runtime, acknowledgeSource: async () => { throw new Error('group is rebalancing'); } });
  assert.match((await failing.settleStream('acct', c, at))!, /listed again next run.*group is rebalancing/);
});
