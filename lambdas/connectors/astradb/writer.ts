// Writes a document's elements into an Astra DB collection as the platform's Astra DB connector does
// (AstraDBUploadStager / AstraDBUploader):
// - one document per element with embeddings: `content` (the text, cut to 8000 UTF-8 bytes),
//   `record_id`, `$vector` (binary-encoded unless binary_encode_vectors is false) and `metadata` = the
//   element without text and embeddings (its own `metadata` nested, or merged in with
//   flatten_metadata), text_as_html cut to 8000 bytes, orig_elements decoded into original_elements
//   (text and bulky fields dropped). Unlike the platform, `_id` is set: uuid5(element_id + record_id),
//   so a retried insertMany cannot leave duplicates.
// - replace: deleteMany on record_id first (the client pages through the Data API's 20-per-call deletes).
// - insertMany in batches of batch_size (at most 100 documents, the Data API's limit), unordered,
//   4 in flight, retried on throttling/5xx; a document the collection refuses fails the file with the
//   Data API's message.
// - an absent collection is created with the embeddings' dimension and the cosine metric (platform:
//   create_destination).
import type { Collection, Db } from '@datastax/astra-db-ts';
import { decodeOrigElements } from '../../engine/chunking/orig-elements';
import { batches, forEachLimited } from '../records/batch';
import { enhancedElementId } from '../records/ids';
import { RECORD_ID_FIELD } from '../records/stage';
import type { ElementRecord, FileRecords, UploadContext, UploadResult } from '../records/types';
import { astraCall, astraMessage, astraSdk, errorCodes, keyspaceOf, openDb, type AstraTarget } from './client';

export const MAX_CONTENT_BYTES = 8000;
const MAX_INSERT_DOCS = 100;
const MAX_REQUEST_BYTES = 5 * 1024 * 1024;
const CONCURRENCY = 4;
export const AUTO_CREATE_METRIC = 'cosine';
/** Fields of the original elements dropped from original_elements (platform: format_and_truncate_orig_elements). */
const ORIG_DROPPED = ['image_base64', 'text_as_html', 'table_as_cells', 'link_urls', 'link_texts', 'link_start_indexes', 'emphasized_text_contents'];

/** A string cut to at most `max` UTF-8 bytes without splitting a character (platform: truncate_string_bytes). */
export function truncateBytes(s: string, max = MAX_CONTENT_BYTES): string {
  const buf = Buffer.from(s, 'utf8');
  if (buf.length <= max) return s;
  let end = max;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}

function originalElements(encoded: unknown): Record<string, unknown>[] {
  if (typeof encoded !== 'string' || !encoded) return [];
  return decodeOrigElements(encoded).map((el) => {
    const { text: _text, metadata = {}, ...rest } = el as unknown as Record<string, unknown> & { metadata?: Record<string, unknown> };
    const md = { ...metadata };
    for (const k of ORIG_DROPPED) delete md[k];
    return { ...rest, metadata: md };
  });
}

/** Wraps an embedding for the client: a DataAPIVector (sent as {$binary}) or the plain array. */
export type VectorOf = (embeddings: number[]) => unknown;

export function astraDocument(element: ElementRecord, recordId: string, opts: Pick<AstraTarget, 'flatten_metadata'>, vectorOf: VectorOf): Record<string, unknown> {
  const { text, embeddings, metadata: rawMetadata = {}, ...rest } = element;
  const metadata: Record<string, unknown> = { ...rawMetadata };
  if (typeof metadata.text_as_html === 'string') metadata.text_as_html = truncateBytes(metadata.text_as_html);
  metadata.original_elements = originalElements(metadata.orig_elements);
  delete metadata.orig_elements;
  return {
    _id: enhancedElementId(element.element_id, recordId),
    content: typeof text === 'string' ? truncateBytes(text) : text ?? null,
    [RECORD_ID_FIELD]: recordId,
    metadata: opts.flatten_metadata ? { ...rest, ...metadata } : { ...rest, metadata },
    $vector: vectorOf(embeddings ?? []),
  };
}

export function stageDocuments(file: FileRecords, c: AstraTarget, vectorOf: VectorOf): Record<string, unknown>[] {
  const byId = new Map<string, Record<string, unknown>>();
  for (const e of file.elements) {
    if (!Array.isArray(e.embeddings) || !e.embeddings.length) continue;
    const doc = astraDocument(e, file.recordId, c, vectorOf);
    byId.set(String(doc._id), doc); // a repeated element_id is one document, as an upsert would leave it
  }
  if (file.elements.length && !byId.size) {
    throw new Error('Astra DB collections here store vectors and no element has embeddings: add an embed node to the workflow');
  }
  return [...byId.values()];
}

const dimensionOf = (docs: Record<string, unknown>[]) => (docs[0]?.$vector as { length?: number } | undefined)?.length;

/**
 * The collection handle. astra-db-ts sends every `$vector` as `{$binary}`; with binary_encode_vectors
 * false a path codec (consulted before the client's own) keeps plain arrays as JSON arrays.
 */
async function collectionOf(db: Db, c: AstraTarget): Promise<Collection> {
  if (c.binary_encode_vectors) return db.collection(c.collection_name);
  const { CollectionCodecs } = await astraSdk();
  const plainVectors = CollectionCodecs.forPath(['$vector'], { serialize: (val, ctx) => (Array.isArray(val) ? ctx.done(val) : ctx.nevermind()) });
  return db.collection(c.collection_name, { serdes: { codecs: [plainVectors] } });
}

/** Whether the collection exists; creates it when absent and `dimension` is known. */
export async function ensureCollection(db: Db, c: AstraTarget, dimension: number | undefined, ctx: UploadContext): Promise<boolean> {
  const listed = async () => (await astraCall(() => db.listCollections({ nameOnly: true }))).includes(c.collection_name);
  if (await listed()) return true;
  if (!dimension) return false;
  ctx.log?.('astra collection absent: creating it', { collection: c.collection_name, keyspace: keyspaceOf(c), dimension });
  try {
    await astraCall(() => db.createCollection(c.collection_name, { vector: { dimension, metric: AUTO_CREATE_METRIC } }));
  } catch (err) {
    if (!(await listed())) throw new Error(`cannot create collection ${c.collection_name} (dimension ${dimension}) in keyspace ${keyspaceOf(c)}: ${astraMessage(err)}`);
  }
  return true;
}

async function deleteDocument(coll: Collection, recordId: string): Promise<number> {
  const res = await astraCall(() => coll.deleteMany({ [RECORD_ID_FIELD]: { $eq: recordId } }));
  return res.deletedCount;
}

/** One batch; on a retry, documents an earlier attempt already inserted (same _id) count as written. */
async function insertBatch(coll: Collection, batch: Record<string, unknown>[], ctx: UploadContext): Promise<void> {
  let attempt = 0;
  await astraCall(
    async () => {
      attempt++;
      try {
        await coll.insertMany(batch, { ordered: false, chunkSize: batch.length, concurrency: 1 });
      } catch (err) {
        const codes = errorCodes(err);
        if (attempt > 1 && codes.length && codes.every((code) => code === 'DOCUMENT_ALREADY_EXISTS')) return;
        throw err;
      }
    },
    { signal: ctx.signal, onRetry: (err, n, delayMs) => ctx.log?.('astra insertMany retried', { attempt: n, delayMs, error: (err as Error).message }) },
  );
}

export async function writeDocument(c: AstraTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const { DataAPIVector } = await astraSdk();
  const docs = stageDocuments(file, c, (v) => (c.binary_encode_vectors ? new DataAPIVector(v) : v));
  const db = await openDb(c, ctx.signal);
  if (!(await ensureCollection(db, c, dimensionOf(docs), ctx))) return { written: 0, deleted: 0 };
  const coll = await collectionOf(db, c);
  let deleted: number;
  try {
    deleted = await deleteDocument(coll, file.recordId);
  } catch (err) {
    throw new Error(`cannot remove the earlier documents of the file from collection ${c.collection_name}: ${(err as Error).message}`);
  }
  const maxCount = Math.min(c.batch_size, MAX_INSERT_DOCS);
  try {
    await forEachLimited(batches(docs, { maxCount, maxBytes: MAX_REQUEST_BYTES, sizeOf: approxBytes }), CONCURRENCY, (batch) => insertBatch(coll, batch, ctx));
  } catch (err) {
    throw new Error(`insertMany into collection ${c.collection_name} failed: ${(err as Error).message}`);
  }
  return { written: docs.length, deleted };
}

export async function removeDocument(c: AstraTarget, recordId: string, ctx: UploadContext): Promise<number> {
  const db = await openDb(c, ctx.signal);
  if (!(await ensureCollection(db, c, undefined, ctx))) return 0;
  return deleteDocument(db.collection(c.collection_name), recordId);
}

/** Serialized size of a staged document (a binary vector is 4 bytes per float, base64-encoded). */
function approxBytes(doc: unknown): number {
  const d = doc as Record<string, unknown>;
  const v = d.$vector;
  const binary = v !== null && typeof v === 'object' && !Array.isArray(v);
  const vectorBytes = binary ? Math.ceil(((v as { length: number }).length * 4) / 3) * 4 + 16 : 0;
  return Buffer.byteLength(JSON.stringify({ ...d, $vector: binary ? null : v })) + vectorBytes;
}
