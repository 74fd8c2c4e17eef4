// Writes a document's elements into a Qdrant collection as the platform's Qdrant connector stages them
// (QdrantUploadStager.conform_dict):
// - one point per element with embeddings; id uuid5(element_id + record_id) (a rerun rewrites the same
//   points); payload = `text`, `element_serialized` (the element without text and embeddings, as
//   JSON), the element flattened with "-" (lists too), and `record_id` (which the platform omits and
//   which replace needs).
// - replace: the document's earlier points are counted and deleted by a filter on record_id (wait=true)
//   before the new ones are upserted.
// - batches of batch_size (at most 16 MB per request), 4 in flight, wait=true, retried on
//   throttling/5xx; a point the collection refuses fails the document with Qdrant's message.
// - an absent collection is created with the embeddings' size and Cosine distance, plus a keyword
//   payload index on record_id for the replace filter.
import type { QdrantClient } from '@qdrant/js-client-rest';
import { batches, forEachLimited } from '../records/batch';
import { enhancedElementId } from '../records/ids';
import { RECORD_ID_FIELD, flattenDict } from '../records/stage';
import type { ElementRecord, FileRecords, UploadContext, UploadResult } from '../records/types';
import { qdrantCall, qdrantClient, type QdrantTarget } from './client';

export interface QdrantPoint {
  id: string;
  vector: number[];
  payload: Record<string, unknown>;
}

const MAX_REQUEST_BYTES = 16 * 1024 * 1024;
const CONCURRENCY = 4;
export const AUTO_CREATE_DISTANCE = 'Cosine';

export function qdrantPoint(element: ElementRecord, recordId: string): QdrantPoint {
  const { embeddings, text, ...data } = element;
  return {
    id: enhancedElementId(element.element_id, recordId),
    vector: embeddings ?? [],
    payload: {
      text: text ?? null,
      element_serialized: JSON.stringify(data),
      ...flattenDict(data, { separator: '-', flattenLists: true }),
      [RECORD_ID_FIELD]: recordId,
    },
  };
}

export function stagePoints(file: FileRecords): QdrantPoint[] {
  const points = file.elements.filter((e) => Array.isArray(e.embeddings) && e.embeddings.length).map((e) => qdrantPoint(e, file.recordId));
  if (file.elements.length && !points.length) {
    throw new Error('Qdrant stores vectors and no element has embeddings: add an embed node to the workflow');
  }
  return points;
}

const recordFilter = (recordId: string) => ({ must: [{ key: RECORD_ID_FIELD, match: { value: recordId } }] });

/** Whether the collection exists; creates it when absent and `size` is known (another writer may win the race). */
export async function ensureCollection(client: QdrantClient, c: QdrantTarget, size: number | undefined, ctx: UploadContext): Promise<boolean> {
  const exists = async () => (await qdrantCall(c.url, () => client.collectionExists(c.collection_name))).exists;
  if (await exists()) return true;
  if (!size) return false;
  ctx.log?.('qdrant collection absent: creating it', { collection: c.collection_name, size });
  try {
    await qdrantCall(c.url, () => client.createCollection(c.collection_name, { vectors: { size, distance: AUTO_CREATE_DISTANCE } }));
  } catch (err) {
    if (!(await exists())) throw new Error(`cannot create collection ${c.collection_name} (vector size ${size}): ${(err as Error).message}`);
  }
  await qdrantCall(c.url, () => client.createPayloadIndex(c.collection_name, { field_name: RECORD_ID_FIELD, field_schema: 'keyword', wait: true }));
  return true;
}

async function deleteDocument(client: QdrantClient, c: QdrantTarget, recordId: string): Promise<number> {
  const filter = recordFilter(recordId);
  const { count } = await qdrantCall(c.url, () => client.count(c.collection_name, { filter, exact: true }));
  if (count) await qdrantCall(c.url, () => client.delete(c.collection_name, { wait: true, filter }));
  return count;
}

export async function writeDocument(c: QdrantTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const points = stagePoints(file);
  const client = await qdrantClient(c);
  if (!(await ensureCollection(client, c, points[0]?.vector.length, ctx))) return { written: 0, deleted: 0 };
  let deleted: number;
  try {
    deleted = await deleteDocument(client, c, file.recordId);
  } catch (err) {
    throw new Error(`cannot remove the earlier points of the document from collection ${c.collection_name}: ${(err as Error).message}`);
  }
  try {
    await forEachLimited(batches(points, { maxCount: c.batch_size, maxBytes: MAX_REQUEST_BYTES }), CONCURRENCY, async (batch) => {
      await qdrantCall(c.url, () => client.upsert(c.collection_name, { wait: true, points: batch }), {
        signal: ctx.signal,
        onRetry: (err, attempt, delayMs) => ctx.log?.('qdrant upsert retried', { attempt, delayMs, error: (err as Error).message }),
      });
    });
  } catch (err) {
    throw new Error(`upsert into collection ${c.collection_name} failed: ${(err as Error).message}`);
  }
  return { written: points.length, deleted };
}

export async function removeDocument(c: QdrantTarget, recordId: string): Promise<number> {
  const client = await qdrantClient(c);
  if (!(await ensureCollection(client, c, undefined, {}))) return 0;
  return deleteDocument(client, c, recordId);
}
