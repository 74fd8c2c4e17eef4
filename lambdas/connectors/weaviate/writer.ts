// Writes a document's objects into a Weaviate collection as the platform's WeaviateUploader does:
// the collection is created from the platform's collection config when absent, the document's
// earlier objects are deleted by a `record_id` filter (repeated until none is left, since Weaviate
// caps one delete at QUERY_MAXIMUM_RESULTS objects), then the new objects are inserted over gRPC in
// batches. Object uuids are deterministic, so a retried batch overwrites rather than duplicates.
import type { WeaviateClient } from 'weaviate-client';
import { batches, forEachLimited } from '../records/batch';
import { RECORD_ID_FIELD } from '../records/stage';
import { withRetry } from '../records/retry';
import type { FileRecords, UploadContext, UploadResult } from '../records/types';
import { connect, retryableWeaviate, useWeaviate, weaviateMessage, type WeaviateConnection } from './client';
import { collectionName, platformCollectionConfig, weaviateObject } from './stage';

export interface WeaviateTarget extends WeaviateConnection {
  collection?: string;
}

/** Objects per insert request. The client serialises a batch one object per timer tick and polls every 500 ms, so batches up to ~400 objects cost one poll. */
export const BATCH_OBJECTS = 300;
/** Bytes per insert request: the gRPC message limit Weaviate announces is 10 MB by default. */
export const BATCH_BYTES = 8 * 1024 * 1024;
// Batches mostly wait on the client's 500 ms serialisation poll, not on the server: 4 in flight.
const CONCURRENCY = 4;
/** Delete rounds before giving up (each removes up to QUERY_MAXIMUM_RESULTS, 10,000 by default). */
const MAX_DELETE_ROUNDS = 1000;

function withClient<T>(c: WeaviateTarget, ctx: UploadContext, fn: (client: WeaviateClient) => Promise<T>): Promise<T> {
  return useWeaviate(c, fn, () => retry(c, ctx, 'connect', () => connect(c)));
}

function retry<T>(c: WeaviateTarget, ctx: UploadContext, what: string, fn: () => Promise<T>): Promise<T> {
  return withRetry(fn, {
    attempts: 5,
    signal: ctx.signal,
    retryable: retryableWeaviate,
    onRetry: (err, attempt, delayMs) => ctx.log?.(`weaviate ${what} retried`, { attempt, delayMs, error: weaviateMessage(err, c.api_key) }),
  });
}

/** Creates the collection from the platform's config unless it exists; true when it was created. */
export async function ensureCollection(client: WeaviateClient, name: string): Promise<boolean> {
  if (await client.collections.exists(name)) return false;
  try {
    await client.collections.createFromSchema(platformCollectionConfig(name) as never);
    return true;
  } catch (err) {
    // Another file of the same job may have created it in between.
    if (await client.collections.exists(name).catch(() => false)) return false;
    throw err;
  }
}

/** The collection's property names (REST), to know whether a record_id filter can match at all. */
export async function propertyNames(client: WeaviateClient, name: string): Promise<Set<string>> {
  const config = await client.collections.use(name).config.get();
  return new Set(config.properties.map((p) => p.name));
}

async function deleteRecord(client: WeaviateClient, c: WeaviateTarget, name: string, recordId: string, ctx: UploadContext): Promise<number> {
  // A user's collection without record_id holds no earlier objects of ours; Weaviate would refuse a
  // filter on an unknown property, and the insert adds the property (auto-schema).
  if (!(await retry(c, ctx, 'schema', () => propertyNames(client, name))).has(RECORD_ID_FIELD)) return 0;
  const collection = client.collections.use(name);
  const where = collection.filter.byProperty(RECORD_ID_FIELD).equal(recordId);
  let deleted = 0;
  for (let round = 0; round < MAX_DELETE_ROUNDS; round++) {
    const res = await retry(c, ctx, 'delete', () => collection.data.deleteMany(where));
    if (res.failed) throw new Error(`Weaviate failed to delete ${res.failed} earlier object(s) of record ${recordId} in ${name}`);
    deleted += res.successful;
    if (!res.successful) return deleted;
  }
  throw new Error(`objects of record ${recordId} in ${name} still remain after ${MAX_DELETE_ROUNDS} delete rounds`);
}

export async function writeDocument(c: WeaviateTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const name = collectionName(c.collection);
  const objects = file.elements.map((e) => weaviateObject(e, file.recordId));
  try {
    return await withClient(c, ctx, async (client) => {
      const created = await retry(c, ctx, 'schema', () => ensureCollection(client, name));
      if (created) ctx.log?.('weaviate collection created from the platform config', { collection: name });
      const deleted = created ? 0 : await deleteRecord(client, c, name, file.recordId, ctx);
      const collection = client.collections.use(name);
      await forEachLimited(batches(objects, { maxCount: BATCH_OBJECTS, maxBytes: BATCH_BYTES }), CONCURRENCY, async (batch) => {
        const res = await retry(c, ctx, 'insert', () => collection.data.insertMany(batch as never));
        if (res.hasErrors) {
          const messages = [...new Set(Object.values(res.errors).map((e) => e.message))];
          throw new Error(`Weaviate rejected ${Object.keys(res.errors).length} of ${batch.length} object(s) in ${name}: ${messages.slice(0, 3).join('; ')}`);
        }
      });
      return { written: objects.length, deleted };
    });
  } catch (err) {
    throw new Error(weaviateMessage(err, c.api_key));
  }
}

export async function deleteDocument(c: WeaviateTarget, recordId: string, ctx: UploadContext): Promise<number> {
  const name = collectionName(c.collection);
  try {
    return await withClient(c, ctx, async (client) => {
      if (!(await client.collections.exists(name))) return 0;
      return deleteRecord(client, c, name, recordId, ctx);
    });
  } catch (err) {
    throw new Error(weaviateMessage(err, c.api_key));
  }
}
