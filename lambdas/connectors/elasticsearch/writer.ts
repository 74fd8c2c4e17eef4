// Writes a file's records into an Elasticsearch/OpenSearch index, as the platform's uploader does
// (a _bulk `index` per element under its deterministic _id), with the replace the issue asks for:
// after the new copy is written, the record's documents that the new copy no longer has are
// removed by one delete_by_query (record_id phrase match, minus the ids just written). N runs leave
// one copy, and readers never see the record empty in between.
//
// Batches: batch_size documents and batch_size_bytes per _bulk request (platform defaults: 15 MB
// for Elasticsearch, 5 MB for OpenSearch; the stores' own cap is 100 MB), num_threads requests in
// flight. A whole request answered 429/5xx is retried with back-off (Retry-After honoured); within
// a 200 answer, items refused with 429/5xx are resent, other refused items fail the file with the
// store's reason. An absent index is created with the platform's documented mapping and the
// vectors' dimension (the platform lets the cluster auto-create it untyped).
import { batches, forEachLimited } from '../records/batch';
import { withRetry } from '../records/retry';
import type { FileRecords, UploadContext, UploadResult } from '../records/types';
import { clusterStatus, describeClusterError, itemErrorText, type SearchCluster } from './cluster';
import { bulkLines, indexBody, recordQuery, searchDocument, type BulkLines, type SearchDoc } from './stage';

export interface WriteTarget {
  index: string;
  batchSize: number;
  batchBytes: number;
  concurrency: number;
}

const ITEM_ATTEMPTS = 5;
const ITEM_BASE_DELAY_MS = 500;

export async function uploadRecords(cluster: SearchCluster, t: WriteTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const docs = file.elements.map((e) => searchDocument(e, file.recordId));
  const call = <T>(what: string, fn: () => Promise<T>) => retrying(cluster, what, fn, ctx);
  await ensureIndex(cluster, t, docs, call, ctx);
  // Each document is serialized once: its NDJSON lines size the batches and go to the client as
  // they are (the clients pass string lines through untouched).
  const lines = docs.map((d) => bulkLines(t.index, d));
  const groups = [...batches(lines, { maxCount: t.batchSize, maxBytes: t.batchBytes, sizeOf: (l) => (l as BulkLines).bytes })];
  await forEachLimited(groups, t.concurrency, (group) => bulkIndex(cluster, group, call, ctx));
  const res = await call('removing the earlier copy', () => cluster.deleteByQuery(t.index, recordQuery(file.recordId, docs.map((d) => d.id))));
  if (res.failures.length) throw new Error(`${cluster.product} could not remove the earlier copy: ${JSON.stringify(res.failures[0]).slice(0, 400)}`);
  return { written: docs.length, deleted: res.deleted };
}

export async function removeRecords(cluster: SearchCluster, index: string, recordId: string, ctx: UploadContext): Promise<number> {
  const call = <T>(what: string, fn: () => Promise<T>) => retrying(cluster, what, fn, ctx);
  try {
    const res = await call('removing the records', () => cluster.deleteByQuery(index, recordQuery(recordId)));
    if (res.failures.length) throw new Error(`${cluster.product} could not remove the records: ${JSON.stringify(res.failures[0]).slice(0, 400)}`);
    return res.deleted;
  } catch (err) {
    if (clusterStatus(err) === 404) return 0; // no index: nothing to remove
    throw err;
  }
}

type Call = <T>(what: string, fn: () => Promise<T>) => Promise<T>;

async function retrying<T>(cluster: SearchCluster, what: string, fn: () => Promise<T>, ctx: UploadContext): Promise<T> {
  try {
    return await withRetry(fn, {
      signal: ctx.signal,
      onRetry: (err, attempt, delayMs) => ctx.log?.(`${cluster.dialect}: ${what} retried`, { attempt, delayMs, status: clusterStatus(err) }),
    });
  } catch (err) {
    throw Object.assign(new Error(`${what}: ${describeClusterError(err, cluster.product)}`), { storeStatus: clusterStatus(err) });
  }
}

async function ensureIndex(cluster: SearchCluster, t: WriteTarget, docs: SearchDoc[], call: Call, ctx: UploadContext): Promise<void> {
  let exists: boolean;
  try {
    exists = await call(`looking up index ${t.index}`, () => cluster.exists(t.index));
  } catch (err) {
    // A key that may write documents but not read index metadata: let the bulk requests decide.
    if (clusterStatus(err) === 403) return;
    throw err;
  }
  if (exists) return;
  const dims = docs.find((d) => Array.isArray(d.source.embeddings))?.source.embeddings as number[] | undefined;
  try {
    await call(`creating index ${t.index}`, () => cluster.createIndex(t.index, indexBody(cluster.dialect, dims?.length)));
    ctx.log?.(`${cluster.dialect} index created`, { index: t.index, dims: dims?.length ?? null });
  } catch (err) {
    // Created meanwhile by a concurrent file of the same job.
    if (clusterStatus(err) === 400 && /resource_already_exists/.test(String((err as Error).message))) return;
    throw err;
  }
}

async function bulkIndex(cluster: SearchCluster, group: BulkLines[], call: Call, ctx: UploadContext): Promise<void> {
  let pending = group;
  for (let attempt = 1; ; attempt++) {
    const ops = pending.flatMap((l) => [l.action, l.source]);
    const items = await call('writing records', () => cluster.bulk(ops));
    const again: BulkLines[] = [];
    const refused: { doc: BulkLines; status: number; text: string }[] = [];
    items.forEach((item, i) => {
      if (item.status < 300) return;
      const doc = pending[i]!;
      if (item.status === 429 || item.status >= 500) again.push(doc);
      else refused.push({ doc, status: item.status, text: itemErrorText(item.error) });
    });
    if (refused.length) {
      const first = refused[0]!;
      throw new Error(
        `${cluster.product} refused ${refused.length} of ${pending.length} records; first: element ${first.doc.elementId} (_id ${first.doc.id}): HTTP ${first.status} ${first.text}`,
      );
    }
    if (!again.length) return;
    if (attempt >= ITEM_ATTEMPTS) throw new Error(`${cluster.product} kept rejecting ${again.length} records after ${attempt} attempts (overloaded: HTTP 429/5xx per item)`);
    const delay = Math.random() * ITEM_BASE_DELAY_MS * 2 ** (attempt - 1);
    ctx.log?.(`${cluster.dialect} bulk items retried`, { items: again.length, attempt, delayMs: Math.round(delay) });
    await new Promise((r) => setTimeout(r, delay));
    ctx.signal?.throwIfAborted();
    pending = again;
  }
}
