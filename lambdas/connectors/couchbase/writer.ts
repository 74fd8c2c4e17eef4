// Writes a document's elements into a Couchbase collection as the platform's Couchbase connector
// stages them (CouchbaseUploadStager.conform_dict): one JSON document per element with `embedding`
// (the vector, or null), `text`, `metadata` (nested, as is) and `type`, plus `record_id` naming the
// source document and `element_id` (which the platform keeps only as the key).
// - key: uuid5(element_id + record_id) (the platform keys by element_id alone, so two files with the
//   same element id would overwrite each other; the enhanced id keeps files apart and a rerun lands
//   on the same keys).
// - replace: DELETE FROM <keyspace> WHERE record_id = $record_id (scan_consistency request_plus, so
//   the delete sees the previous write) before the upserts; the platform only upserts, which leaves
//   stale elements of a changed file behind. An index on record_id is created once per keyspace
//   (CREATE INDEX IF NOT EXISTS; without the privilege the delete falls back to the primary index or
//   a sequential scan, logged).
// - batches: UPSERT INTO <keyspace> (KEY, VALUE) VALUES ($1, $2), ... of batch_size documents (the
//   platform's default 50), at most 8 MiB per statement, 4 in flight, retried per keyspace rules in
//   client.ts; a document the service refuses fails the file with the service's message.
import { batches, forEachLimited } from '../records/batch';
import { enhancedElementId } from '../records/ids';
import { RECORD_ID_FIELD } from '../records/stage';
import type { ElementRecord, FileRecords, UploadContext, UploadResult } from '../records/types';
import { keyspace, keyspaceLabel, QueryError, runQuery, type CouchbaseTarget } from './client';

const MAX_STATEMENT_BYTES = 8 * 1024 * 1024;
const CONCURRENCY = 4;
export const RECORD_ID_INDEX = 'wps_record_id';

export interface CouchbaseDocument {
  key: string;
  value: Record<string, unknown>;
}

export function couchbaseDocument(element: ElementRecord, recordId: string): CouchbaseDocument {
  return {
    key: enhancedElementId(element.element_id, recordId),
    value: {
      embedding: element.embeddings ?? null,
      text: element.text ?? null,
      metadata: element.metadata ?? null,
      type: element.type ?? null,
      element_id: element.element_id,
      [RECORD_ID_FIELD]: recordId,
    },
  };
}

export const deleteStatement = (c: CouchbaseTarget) => `DELETE FROM ${keyspace(c)} WHERE ${RECORD_ID_FIELD} = $record_id`;

export function upsertStatement(c: CouchbaseTarget, count: number): string {
  const rows = Array.from({ length: count }, (_, i) => `($${2 * i + 1}, $${2 * i + 2})`);
  return `UPSERT INTO ${keyspace(c)} (KEY, VALUE) VALUES ${rows.join(', ')}`;
}

export const createIndexStatement = (c: CouchbaseTarget) => `CREATE INDEX IF NOT EXISTS \`${RECORD_ID_INDEX}\` ON ${keyspace(c)}(\`${RECORD_ID_FIELD}\`)`;

/**
 * Keyspaces whose record_id index this process has ensured, per user (one user may lack the role to
 * create it while another has it: a refusal must not stop the other's attempt).
 */
const indexed = new Set<string>();

async function ensureRecordIndex(c: CouchbaseTarget, ctx: UploadContext): Promise<void> {
  const key = `${c.connection_string}|${c.username}|${keyspaceLabel(c)}`;
  if (indexed.has(key)) return;
  try {
    await runQuery(c, createIndexStatement(c), { signal: ctx.signal });
  } catch (err) {
    // Credentials or keyspace problems surface in the delete that follows, with the service's text.
    if (!(err instanceof QueryError)) throw err;
    ctx.log?.('couchbase record_id index not created; deletes by record_id use another index or a scan', { keyspace: keyspaceLabel(c), error: err.message });
  }
  indexed.add(key);
}

/** Deletes a document's earlier elements; the number the service removed. */
export async function deleteRecords(c: CouchbaseTarget, recordId: string, ctx: UploadContext): Promise<number> {
  const r = await runQuery(c, deleteStatement(c), { named: { record_id: recordId }, requestPlus: true, signal: ctx.signal });
  return r.metrics.mutationCount ?? 0;
}

export async function writeDocument(c: CouchbaseTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const docs = file.elements.map((e) => couchbaseDocument(e, file.recordId));
  await ensureRecordIndex(c, ctx);
  let deleted: number;
  try {
    deleted = await deleteRecords(c, file.recordId, ctx);
  } catch (err) {
    throw new Error(`cannot remove the earlier documents of the file from ${keyspaceLabel(c)}: ${(err as Error).message}`);
  }
  try {
    await forEachLimited(batches(docs, { maxCount: c.batch_size, maxBytes: MAX_STATEMENT_BYTES }), CONCURRENCY, async (batch) => {
      await runQuery(c, upsertStatement(c, batch.length), {
        args: batch.flatMap((d) => [d.key, d.value]),
        signal: ctx.signal,
        onRetry: (err, attempt, delayMs) => ctx.log?.('couchbase upsert retried', { attempt, delayMs, error: (err as Error).message }),
      });
    });
  } catch (err) {
    throw new Error(`upsert into ${keyspaceLabel(c)} failed: ${(err as Error).message}`);
  }
  return { written: docs.length, deleted };
}
