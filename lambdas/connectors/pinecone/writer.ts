// Writes a document's elements into a Pinecone index as the platform's Pinecone connector does
// (PineconeUploadStager / PineconeUploader):
// - one vector per element that has embeddings; id `<record_id>#<uuid5(element_id+record_id)>`,
//   so a document's vectors share an id prefix; metadata = the allowed element fields (plus `type`,
//   which the issue asks for), flattened with "-" (lists too), nulls dropped, dropped whole when it
//   exceeds Pinecone's 40 KB per vector; `record_id` always kept.
// - replace: the document's earlier vectors are removed first: on serverless indexes by listing the
//   id prefix `<record_id>#` and deleting those ids, on pod indexes by a metadata filter on record_id.
// - batches of batch_size (at most 1000 vectors and 2 MB per upsert), 4 in flight, each retried on
//   throttling/5xx; a vector the index refuses fails the document with Pinecone's message.
// - an index that does not exist is created (serverless, aws us-east-1, cosine, the embeddings'
//   dimension), as the platform's create_destination does, and waited for until ready.
import type { Index, IndexModel, Pinecone, PineconeRecord, RecordMetadata } from '@pinecone-database/pinecone';
import { batches, forEachLimited } from '../records/batch';
import { enhancedElementId } from '../records/ids';
import { RECORD_ID_FIELD, flattenDict } from '../records/stage';
import type { ElementRecord, FileRecords, UploadContext, UploadResult } from '../records/types';
import { formatIndexName, indexKind, isNotFound, pineconeCall, pineconeClient, pineconeMessage, type PineconeTarget } from './client';

/** Fields copied into Pinecone metadata (platform: ALLOWED_FIELDS, plus `type`). */
export const PINECONE_METADATA_FIELDS = [
  'element_id', 'text', 'type', 'parent_id', 'category_depth', 'emphasized_text_tags', 'emphasized_text_contents', 'coordinates',
  'last_modified', 'page_number', 'filename', 'is_continuation', 'link_urls', 'link_texts', 'text_as_html', 'entities',
] as const;
export const MAX_METADATA_BYTES = 40_960;
const MAX_UPSERT_BYTES = 2 * 1024 * 1024 - 100;
const MAX_UPSERT_VECTORS = 1000;
const MAX_DELETE_IDS = 1000;
const CONCURRENCY = 4;
/** Where the platform creates an index it needs (create_destination defaults). */
export const AUTO_CREATE_SPEC = { serverless: { cloud: 'aws' as const, region: 'us-east-1' } };
const READY_TIMEOUT_MS = 300_000;

/** One element as a Pinecone vector (platform: PineconeUploadStager.conform_dict). */
export function pineconeVector(element: ElementRecord, recordId: string): PineconeRecord {
  const { embeddings, metadata = {}, ...top } = element;
  const { data_source = {}, coordinates = {}, ...meta } = metadata as Record<string, unknown>;
  const allowed = new Set<string>(PINECONE_METADATA_FIELDS);
  const picked: Record<string, unknown> = {};
  for (const source of [top, meta, data_source as object, coordinates as object]) {
    for (const [k, v] of Object.entries(source)) if (allowed.has(k)) picked[k] = v;
  }
  let md = flattenDict(picked, { separator: '-', flattenLists: true, removeNone: true }) as RecordMetadata;
  if (Buffer.byteLength(JSON.stringify(md)) > MAX_METADATA_BYTES) md = {};
  md[RECORD_ID_FIELD] = recordId;
  return { id: `${recordId}#${enhancedElementId(element.element_id, recordId)}`, values: embeddings ?? [], metadata: md };
}

/** The vectors of a document: elements without embeddings are skipped, as the platform does. */
export function stageVectors(file: FileRecords): PineconeRecord[] {
  const vectors = file.elements.filter((e) => Array.isArray(e.embeddings) && e.embeddings.length).map((e) => pineconeVector(e, file.recordId));
  if (file.elements.length && !vectors.length) {
    throw new Error('Pinecone stores vectors and no element has embeddings: add an embed node to the workflow');
  }
  return vectors;
}

interface Opened {
  pc: Pinecone;
  model: IndexModel;
  index: Index;
}

async function describe(pc: Pinecone, name: string, attempts = 5): Promise<IndexModel | undefined> {
  try {
    return await pineconeCall(() => pc.describeIndex(name), { attempts });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw new Error(`cannot describe index ${name}: ${pineconeMessage(err)}`);
  }
}

function open(pc: Pinecone, model: IndexModel, namespace: string): Opened {
  if (!model.host) throw new Error(`index ${model.name} has no host yet (state ${model.status?.state ?? 'unknown'})`);
  return { pc, model, index: pc.index({ host: model.host, namespace }) };
}

const READY_POLL_MS = 1000;
const TERMINAL_STATES = new Set(['InitializationFailed', 'Terminating', 'Disabled']);

/** Describes until the index is ready (a new index, ours or one another file of the job created). */
async function waitUntilReady(pc: Pinecone, name: string, first: IndexModel | undefined, ctx: UploadContext): Promise<IndexModel> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let model = first;
  for (;;) {
    if (model?.status?.ready && model.host) return model;
    const state = model?.status?.state ?? 'absent';
    if (TERMINAL_STATES.has(state)) throw new Error(`index ${name} will not become ready (state ${state})`);
    if (Date.now() > deadline) throw new Error(`index ${name} was not ready within ${READY_TIMEOUT_MS / 1000} s (state ${state})`);
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
    ctx.signal?.throwIfAborted();
    model = await describe(pc, name);
  }
}

/** The index, created when absent and `dimension` is known (another writer may create it first). */
async function openIndex(c: PineconeTarget, dimension: number | undefined, ctx: UploadContext): Promise<Opened | undefined> {
  const pc = await pineconeClient(c.api_key, ctx.signal);
  const name = formatIndexName(c.index_name);
  let model = await describe(pc, name);
  if (!model) {
    if (!dimension) return undefined;
    ctx.log?.('pinecone index absent: creating it', { index: name, dimension });
    try {
      // A conflict means another writer created it first: fine, it is waited for below.
      model = (await pineconeCall(() => pc.createIndex({ name, dimension, metric: 'cosine', spec: AUTO_CREATE_SPEC, suppressConflicts: true }))) || undefined;
    } catch (err) {
      throw new Error(`cannot create index ${name} (dimension ${dimension}): ${pineconeMessage(err)}`);
    }
  }
  return open(pc, await waitUntilReady(pc, name, model, ctx), c.namespace);
}

/** Removes a document's vectors; returns how many (undefined when the index cannot tell: pod filter delete). */
async function deleteDocument(o: Opened, c: PineconeTarget, recordId: string): Promise<number | undefined> {
  const kind = indexKind(o.model);
  if (kind === 'pod') {
    await pineconeCall(() => o.index.deleteMany({ filter: { [RECORD_ID_FIELD]: { $eq: recordId } } }));
    return undefined;
  }
  // All ids first, then the deletes: deleting between pages must not move the list's cursor.
  const ids: string[] = [];
  let token: string | undefined;
  do {
    const page = await pineconeCall(() => o.index.listPaginated({ prefix: `${recordId}#`, limit: 100, paginationToken: token }));
    for (const v of page.vectors ?? []) if (v.id) ids.push(v.id);
    token = page.pagination?.next;
  } while (token);
  for (let i = 0; i < ids.length; i += MAX_DELETE_IDS) {
    const chunk = ids.slice(i, i + MAX_DELETE_IDS);
    await pineconeCall(() => o.index.deleteMany({ ids: chunk }));
  }
  return ids.length;
}

export async function writeDocument(c: PineconeTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const vectors = stageVectors(file);
  const o = await openIndex(c, vectors[0]?.values?.length, ctx);
  if (!o) return { written: 0, deleted: 0 };
  let deleted: number | undefined;
  try {
    deleted = await deleteDocument(o, c, file.recordId);
  } catch (err) {
    throw new Error(`cannot remove the earlier vectors of the document from index ${o.model.name}: ${pineconeMessage(err)}`);
  }
  const maxCount = Math.min(c.batch_size, MAX_UPSERT_VECTORS);
  try {
    await forEachLimited(batches(vectors, { maxCount, maxBytes: MAX_UPSERT_BYTES }), CONCURRENCY, async (batch) => {
      await pineconeCall(() => o.index.upsert({ records: batch }), {
        signal: ctx.signal,
        onRetry: (err, attempt, delayMs) => ctx.log?.('pinecone upsert retried', { attempt, delayMs, error: pineconeMessage(err) }),
      });
    });
  } catch (err) {
    throw new Error(`upsert into index ${o.model.name} failed: ${pineconeMessage(err)}`);
  }
  return { written: vectors.length, ...(deleted === undefined ? {} : { deleted }) };
}

export async function removeDocument(c: PineconeTarget, recordId: string, ctx: UploadContext): Promise<number | undefined> {
  const o = await openIndex(c, undefined, ctx);
  if (!o) return 0;
  return deleteDocument(o, c, recordId);
}

export { describe as describeIndex };
