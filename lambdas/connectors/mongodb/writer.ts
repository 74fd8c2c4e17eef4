// Writes a document's elements into a MongoDB collection as the platform's MongoDB uploader does
// (MongoDBUploader.run_data):
// - one document per element, the element as is (type, element_id, text, metadata nested,
//   embeddings as an array of doubles) plus `record_id` naming the source document; `_id` is the
//   driver's ObjectId, as the platform leaves it;
// - replace: delete_many({record_id}) before insert_many. The platform deletes only when an index on
//   record_id exists; here the index is created (createIndexes is idempotent; a user without the
//   createIndex privilege gets a log line and an unindexed delete), so N runs always leave one copy;
// - batches of batch_size documents (the platform's default 100; the driver further splits by
//   MongoDB's 48 MB message limit), at most 16 MiB of JSON per batch, 4 in flight;
// - a failure mid-write retries the whole file (throttling, elections, network), whose delete first
//   removes any partial insert; a document the server refuses fails the file with its errmsg.
import type { Collection } from 'mongodb';
import { batches, forEachLimited } from '../records/batch';
import { withRetry } from '../records/retry';
import { RECORD_ID_FIELD } from '../records/stage';
import type { ElementRecord, FileRecords, UploadContext, UploadResult } from '../records/types';
import { isRetryable, toStoreError, withMongo, type MongoTarget } from './client';

export const DEFAULT_BATCH_SIZE = 100;
const MAX_BATCH_BYTES = 16 * 1024 * 1024;
const CONCURRENCY = 4;
export const RECORD_ID_INDEX = `${RECORD_ID_FIELD}_1`;

export function mongoDocument(element: ElementRecord, recordId: string): Record<string, unknown> {
  return { ...element, [RECORD_ID_FIELD]: recordId };
}

/** BSON size of a document, estimated without serializing its vector (a double is ≤ 14 bytes with its array key). */
function estimatedBytes(doc: unknown): number {
  const { embeddings, ...rest } = doc as { embeddings?: unknown[] };
  return JSON.stringify(rest).length + (Array.isArray(embeddings) ? embeddings.length * 14 : 0);
}

const batchSizeOf = (c: MongoTarget) => (Number.isInteger(c.batch_size) && c.batch_size! >= 1 ? c.batch_size! : DEFAULT_BATCH_SIZE);

async function ensureRecordIndex(coll: Collection, ctx: UploadContext): Promise<void> {
  try {
    await coll.createIndex({ [RECORD_ID_FIELD]: 1 }, { name: RECORD_ID_INDEX });
  } catch (err) {
    ctx.log?.('mongodb record_id index not created; deletes by record_id scan the collection', { collection: coll.collectionName, error: (err as Error).message });
  }
}

export async function writeDocument(c: MongoTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  return withRetry(
    () =>
      withMongo(c, { signal: ctx.signal }, async (client) => {
        const coll = client.db(c.database).collection(c.collection);
        await ensureRecordIndex(coll, ctx);
        let deleted: number;
        try {
          deleted = (await coll.deleteMany({ [RECORD_ID_FIELD]: file.recordId })).deletedCount;
        } catch (err) {
          throw toStoreError(err, c.uri, `cannot remove the earlier documents of the file from ${c.database}.${c.collection}: `);
        }
        // Staged per attempt: the driver sets _id on the objects it inserts.
        const docs = file.elements.map((e) => mongoDocument(e, file.recordId));
        try {
          await forEachLimited(batches(docs, { maxCount: batchSizeOf(c), maxBytes: MAX_BATCH_BYTES, sizeOf: estimatedBytes }), CONCURRENCY, async (batch) => {
            await coll.insertMany(batch, { ordered: true });
          });
        } catch (err) {
          throw toStoreError(err, c.uri, `insert into ${c.database}.${c.collection} failed: `);
        }
        return { written: docs.length, deleted };
      }).catch((err) => {
        throw toStoreError(err, c.uri);
      }),
    {
      attempts: 5,
      signal: ctx.signal,
      retryable: isRetryable,
      onRetry: (err, attempt, delayMs) => ctx.log?.('mongodb write retried', { attempt, delayMs, error: (err as Error).message }),
    },
  );
}

export async function removeDocument(c: MongoTarget, recordId: string, ctx: UploadContext): Promise<number> {
  return withRetry(
    () =>
      withMongo(c, { signal: ctx.signal }, async (client) => (await client.db(c.database).collection(c.collection).deleteMany({ [RECORD_ID_FIELD]: recordId })).deletedCount).catch((err) => {
        throw toStoreError(err, c.uri);
      }),
    { attempts: 5, signal: ctx.signal, retryable: isRetryable },
  );
}
