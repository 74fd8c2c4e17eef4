// Writes a file's records into a user-created Azure AI Search index, as the platform's uploader
// does (documents fitted to the index's fields, uploaded in batches of batch_size, the record's
// earlier documents found by a `record_id eq '<id>'` filter and deleted), in an order that keeps
// readers from seeing the record empty: the earlier keys are listed first, the new copy is uploaded
// (deterministic keys overwrite in place), then only the keys the new copy no longer has are
// deleted. Without a filterable record_id field the platform skips the delete; so does this writer
// (keys are deterministic, so a rewrite still never duplicates).
//
// Limits: at most 1000 actions and 16 MB per indexing request (Azure); batch_size (default 100,
// as the platform) and a 15 MB byte budget apply, 4 requests in flight. A request answered
// 429/503 is retried with back-off (Retry-After honoured); items answered 422/503 (index busy) are
// resent; any other refused item fails the file with the service's message.
import type { SearchIndex } from '@azure/search-documents';
import { batches, forEachLimited } from '../records/batch';
import { withRetry } from '../records/retry';
import { RECORD_ID_FIELD } from '../records/stage';
import type { FileRecords, UploadContext, UploadResult } from '../records/types';
import { azureStatus, describeAzureError, type AzureSearch, type Doc } from './client';
import { azureDocument, fieldTree, fitToTree, type IndexField } from './stage';

export const MAX_BATCH = 1000;
const MAX_BYTES = 15_000_000;
const CONCURRENCY = 4;
const ITEM_ATTEMPTS = 5;

export interface IndexShape {
  key: string;
  /** record_id exists and is filterable: earlier documents can be found. */
  canReplace: boolean;
  vectorDims?: number;
}

export function indexShape(index: SearchIndex): IndexShape {
  const fields = index.fields as (IndexField & { key?: boolean; filterable?: boolean; vectorSearchDimensions?: number })[];
  const key = fields.find((f) => f.key)?.name;
  if (!key) throw new Error(`index ${index.name} has no key field`);
  const rid = fields.find((f) => f.name === RECORD_ID_FIELD);
  return { key, canReplace: Boolean(rid?.filterable), vectorDims: fields.find((f) => f.name === 'embeddings')?.vectorSearchDimensions };
}

function odataString(v: string): string {
  return `'${v.replace(/'/g, "''")}'`;
}

async function call<T>(what: string, fn: () => Promise<T>, ctx: UploadContext): Promise<T> {
  try {
    return await withRetry(fn, {
      signal: ctx.signal,
      onRetry: (err, attempt, delayMs) => ctx.log?.(`azure_ai_search: ${what} retried`, { attempt, delayMs, status: azureStatus(err) }),
    });
  } catch (err) {
    throw new Error(`${what}: ${describeAzureError(err)}`);
  }
}

export async function uploadRecords(search: AzureSearch, batchSize: number, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const index = await call('reading the index definition', () => search.getIndex(ctx.signal), ctx);
  const shape = indexShape(index);
  const tree = fieldTree(index.fields as IndexField[]);
  const dropped = new Set<string>();
  const docs = file.elements.map((e) => {
    const d = fitToTree(azureDocument(e, file.recordId), tree, dropped);
    if (shape.key !== 'id') d[shape.key] = azureDocument(e, file.recordId).id;
    return d;
  });
  if (dropped.size) ctx.log?.('azure_ai_search fields dropped to fit the index', { index: index.name, dropped: [...dropped].sort() });
  const earlier = shape.canReplace ? await call('finding the earlier copy', () => search.keys(`${RECORD_ID_FIELD} eq ${odataString(file.recordId)}`, shape.key, ctx.signal), ctx) : [];
  if (!shape.canReplace) ctx.log?.('azure_ai_search index has no filterable record_id; replacing by key only', { index: index.name });

  const groups = [...batches(docs, { maxCount: Math.min(batchSize, MAX_BATCH), maxBytes: MAX_BYTES })];
  await forEachLimited(groups, CONCURRENCY, (group) => indexBatch(search, 'upload', group, shape.key, ctx));
  const keep = new Set(docs.map((d) => String(d[shape.key])));
  const stale = earlier.filter((k) => !keep.has(k)).map((k) => ({ [shape.key]: k }));
  for (const group of batches(stale, { maxCount: MAX_BATCH })) await indexBatch(search, 'delete', group, shape.key, ctx);
  return { written: docs.length, deleted: stale.length };
}

export async function removeRecords(search: AzureSearch, recordId: string, ctx: UploadContext): Promise<number | undefined> {
  const shape = indexShape(await call('reading the index definition', () => search.getIndex(ctx.signal), ctx));
  if (!shape.canReplace) return undefined;
  const keys = await call('finding the records', () => search.keys(`${RECORD_ID_FIELD} eq ${odataString(recordId)}`, shape.key, ctx.signal), ctx);
  for (const group of batches(keys.map((k) => ({ [shape.key]: k })), { maxCount: MAX_BATCH })) await indexBatch(search, 'delete', group, shape.key, ctx);
  return keys.length;
}

async function indexBatch(search: AzureSearch, action: 'upload' | 'delete', group: Doc[], key: string, ctx: UploadContext): Promise<void> {
  let pending = group;
  for (let attempt = 1; ; attempt++) {
    const results = await call(action === 'upload' ? 'uploading documents' : 'deleting earlier documents', () => search.index(pending.map((doc) => ({ action, doc })), ctx.signal), ctx);
    const byKey = new Map(results.map((r) => [r.key, r]));
    const again: Doc[] = [];
    const refused: { key: string; statusCode: number; message: string }[] = [];
    for (const doc of pending) {
      const r = byKey.get(String(doc[key]));
      if (!r || r.succeeded) continue;
      if (r.statusCode === 422 || r.statusCode === 503 || r.statusCode === 429) again.push(doc);
      else refused.push({ key: r.key, statusCode: r.statusCode, message: r.errorMessage ?? 'no message' });
    }
    if (refused.length) {
      const first = refused[0]!;
      throw new Error(`Azure AI Search refused ${refused.length} of ${pending.length} documents; first: key ${first.key}: [${first.statusCode}] ${first.message}`);
    }
    if (!again.length) return;
    if (attempt >= ITEM_ATTEMPTS) throw new Error(`Azure AI Search kept refusing ${again.length} documents as busy after ${attempt} attempts`);
    const delay = Math.random() * 500 * 2 ** (attempt - 1);
    ctx.log?.('azure_ai_search documents retried', { documents: again.length, attempt, delayMs: Math.round(delay) });
    await new Promise((r) => setTimeout(r, delay));
    pending = again;
  }
}
