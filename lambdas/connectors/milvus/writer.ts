// Writes a document's rows into a Milvus collection as the platform's MilvusUploader does: the
// collection must exist (the platform never creates it), the document's earlier rows are deleted with
// the expression `<record_id_key> == "<record id>"`, then the rows are inserted — fitted to the
// collection (with a dynamic field, `languages` goes back to a list; without one, fields the schema
// lacks are dropped, auto-id primary keys left to Milvus). Inserts are batched (count and bytes, under
// Milvus' 64 MB gRPC request limit) with bounded concurrency; rate limits are retried with back-off.
import type { MilvusClient } from '@zilliz/milvus2-sdk-node';
import { batches, forEachLimited } from '../records/batch';
import { withRetry } from '../records/retry';
import type { FileRecords, UploadContext, UploadResult } from '../records/types';
import { assertOk, connect, MilvusError, milvusMessage, retryableMilvus, type MilvusConnection } from './client';
import { exprString, milvusRows, type MilvusStageOptions } from './stage';

export interface MilvusTarget extends MilvusConnection, MilvusStageOptions {
  collection_name: string;
}

export const BATCH_ROWS = 1000;
export const BATCH_BYTES = 16 * 1024 * 1024;
const CONCURRENCY = 2;

export interface CollectionInfo {
  fields: { name: string; data_type: string; dim?: number; autoID?: boolean; is_primary_key?: boolean }[];
  dynamic: boolean;
}

export async function describe(client: MilvusClient, c: MilvusTarget): Promise<CollectionInfo> {
  const res = (await client.describeCollection({ collection_name: c.collection_name })) as any;
  const s = res.status ?? {};
  if (s.error_code !== 'Success') {
    if (/can't find collection|collection not found/i.test(String(s.reason))) throw new MilvusError(`Collection '${c.collection_name}' does not exist`, s);
    assertOk(res, `describe collection ${c.collection_name}`);
  }
  return {
    fields: (res.schema?.fields ?? []).map((f: any) => ({ name: f.name, data_type: String(f.data_type), dim: f.dim ? Number(f.dim) : undefined, autoID: Boolean(f.autoID), is_primary_key: Boolean(f.is_primary_key) })),
    dynamic: Boolean(res.schema?.enable_dynamic_field),
  };
}

/** Why the collection cannot hold these records by record id, or undefined when it can. */
export function recordKeyProblem(info: CollectionInfo, c: MilvusTarget): string | undefined {
  if (info.dynamic || info.fields.some((f) => f.name === c.record_id_key)) return undefined;
  return `collection ${c.collection_name} has no field ${c.record_id_key} and no dynamic field, so a rewrite cannot delete a document's earlier rows by ${c.record_id_key}`;
}

function fit(rows: Record<string, unknown>[], info: CollectionInfo): Record<string, unknown>[] {
  if (info.dynamic) {
    return rows.map((r) => {
      if (typeof r.languages !== 'string') return r;
      try {
        return { ...r, languages: JSON.parse(r.languages) };
      } catch {
        return r;
      }
    });
  }
  const names = new Set(info.fields.filter((f) => !f.autoID).map((f) => f.name));
  return rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => names.has(k))));
}

async function withClient<T>(c: MilvusTarget, fn: (client: MilvusClient) => Promise<T>): Promise<T> {
  const client = await connect(c);
  try {
    return await fn(client);
  } catch (err) {
    throw new Error(milvusMessage(err, c));
  } finally {
    await client.closeConnection().catch(() => undefined);
  }
}

function retry<T>(c: MilvusTarget, ctx: UploadContext, what: string, fn: () => Promise<T>): Promise<T> {
  return withRetry(fn, {
    attempts: 5,
    signal: ctx.signal,
    retryable: retryableMilvus,
    onRetry: (err, attempt, delayMs) => ctx.log?.(`milvus ${what} retried`, { attempt, delayMs, error: milvusMessage(err, c) }),
  });
}

async function deleteRecord(client: MilvusClient, c: MilvusTarget, recordId: string, ctx: UploadContext): Promise<number> {
  const filter = `${c.record_id_key} == ${exprString(recordId)}`;
  const res = await retry(c, ctx, 'delete', async () => assertOk((await client.delete({ collection_name: c.collection_name, filter })) as any, `delete ${filter}`));
  return Number((res as { delete_cnt?: unknown }).delete_cnt ?? 0);
}

export async function writeDocument(c: MilvusTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const rows = milvusRows(file.elements, file.recordId, c);
  return withClient(c, async (client) => {
    const info = await retry(c, ctx, 'describe', () => describe(client, c));
    const problem = recordKeyProblem(info, c);
    if (problem) throw new Error(problem);
    const deleted = await deleteRecord(client, c, file.recordId, ctx);
    const fitted = fit(rows, info);
    await forEachLimited(batches(fitted, { maxCount: BATCH_ROWS, maxBytes: BATCH_BYTES }), CONCURRENCY, async (batch) => {
      const res = (await retry(c, ctx, 'insert', async () =>
        assertOk((await client.insert({ collection_name: c.collection_name, data: batch as never })) as any, `insert into ${c.collection_name}`),
      )) as { err_index?: number[] };
      if (res.err_index?.length) throw new Error(`Milvus failed to insert ${res.err_index.length} of ${batch.length} row(s) into ${c.collection_name}`);
    });
    return { written: fitted.length, deleted };
  });
}

export async function deleteDocument(c: MilvusTarget, recordId: string, ctx: UploadContext): Promise<number> {
  return withClient(c, async (client) => {
    const info = await describe(client, c);
    if (recordKeyProblem(info, c)) return 0;
    return deleteRecord(client, c, recordId, ctx);
  });
}
