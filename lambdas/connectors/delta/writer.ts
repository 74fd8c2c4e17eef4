// One document's write into the Delta table, as one Delta transaction: the document's earlier rows
// removed (the platform's DeltaTable.delete(record_id = ...) followed by an append) and its new rows
// added, committed atomically as the next version. Each document's rows go to a data file of their
// own whose stats (numRecords, min/max record_id) say so, so removing a document is a `remove` of
// its files; a file that mixes documents (written by another engine, or without stats) is rewritten
// without the document's rows (copy-on-write, as Delta's DELETE does). A lost race for the version
// (another writer committed first) re-reads the log and plans again, as delta-rs retries the
// platform's commit conflicts.
import { randomUUID } from 'node:crypto';
import { parquetReadObjects } from 'hyparquet';
import { RECORD_ID_FIELD } from '../records/stage';
import type { FileRecords, UploadContext, UploadResult } from '../records/types';
import { commit, commitPath, readSnapshot, toArrayBuffer, writeProblem, type Action, type AddFile, type Snapshot } from './log';
import { CommitConflict, DeltaStore, type DeltaTarget } from './store';
import { conform, mergeSchema, parseSchema, schemaString, stageRows, toParquet, writable, type Field, type Row } from './table';

const COMMIT_ATTEMPTS = 10;
const ENGINE = 'workflow-processing-service';

interface Stats {
  numRecords?: number;
  minValues?: Record<string, unknown>;
  maxValues?: Record<string, unknown>;
}

function statsOf(a: AddFile): Stats | undefined {
  try {
    return a.stats ? (JSON.parse(a.stats) as Stats) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `rows` as a new data file of the table; its `add` action. */
async function addFile(store: DeltaStore, fields: Field[], rows: Row[], recordId: string | undefined, signal?: AbortSignal): Promise<AddFile> {
  const bytes = toParquet(fields, rows);
  const path = `part-00000-${randomUUID()}-c000.snappy.parquet`;
  await store.put(path, bytes, { signal });
  const stats: Stats & { nullCount?: Record<string, number> } = { numRecords: rows.length };
  if (recordId !== undefined) {
    stats.minValues = { [RECORD_ID_FIELD]: recordId };
    stats.maxValues = { [RECORD_ID_FIELD]: recordId };
    stats.nullCount = { [RECORD_ID_FIELD]: 0 };
  }
  return { path, partitionValues: {}, size: bytes.byteLength, modificationTime: Date.now(), dataChange: true, stats: JSON.stringify(stats) };
}

/** The actions that remove `recordId`'s rows from the snapshot, and how many rows they remove. */
async function planRemoval(store: DeltaStore, snap: Snapshot, fields: Field[], recordId: string, signal?: AbortSignal): Promise<{ actions: Action[]; removed: number }> {
  const actions: Action[] = [];
  let removed = 0;
  const now = Date.now();
  const remove = (a: AddFile) => actions.push({ remove: { path: a.path, deletionTimestamp: now, dataChange: true, extendedFileMetadata: true, partitionValues: a.partitionValues, size: a.size } });
  for (const a of snap.files.values()) {
    const s = statsOf(a);
    const min = s?.minValues?.[RECORD_ID_FIELD];
    const max = s?.maxValues?.[RECORD_ID_FIELD];
    if (typeof min === 'string' && typeof max === 'string') {
      if (recordId < min || recordId > max) continue;
      if (min === recordId && max === recordId && !a.deletionVector) {
        remove(a);
        removed += s?.numRecords ?? 0;
        continue;
      }
    }
    // Mixed or unknown content: read the file and keep the other documents' rows.
    const bytes = await store.get(a.path, signal);
    if (!bytes) throw new Error(`data file ${a.path} of the table is missing`);
    const rows = (await parquetReadObjects({ file: toArrayBuffer(bytes) })) as Row[];
    const keep = rows.filter((r) => r[RECORD_ID_FIELD] !== recordId);
    if (keep.length === rows.length) continue;
    const cols = fields.filter((f) => rows.some((r) => f.name in r));
    const unsupported = cols.filter((f) => !writable(f));
    if (unsupported.length) throw new Error(`data file ${a.path} mixes documents and has columns of types this writer cannot rewrite (${unsupported.map((f) => f.name).join(', ')})`);
    remove(a);
    removed += rows.length - keep.length;
    if (keep.length) actions.push({ add: await addFile(store, cols, keep.map((r) => Object.fromEntries(cols.map((f) => [f.name, conform(f, r[f.name], r.element_id)]))), undefined, signal) });
  }
  return { actions, removed };
}

/** Writes (or, with no elements, removes) a document's rows in one commit; retried on a lost race. */
export async function replaceDocument(c: DeltaTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const store = new DeltaStore(c);
  try {
    const staged = stageRows(file);
    for (let attempt = 1; ; attempt++) {
      const snap = await readSnapshot(store, ctx.signal);
      const exists = snap.version >= 0;
      const problem = writeProblem(snap, exists);
      if (problem) throw new Error(problem);
      const { fields, added, used } = mergeSchema(parseSchema(snap.metadata?.schemaString), staged);
      const rows = staged.map((r) => Object.fromEntries(used.map((f) => [f.name, conform(f, r[f.name], r.element_id)])));
      const removal = exists ? await planRemoval(store, snap, fields, file.recordId, ctx.signal) : { actions: [], removed: 0 };
      if (!rows.length && !removal.actions.length) return { written: 0, deleted: 0 };
      // Names this attempt in its commit: a conditional PUT retried by the SDK after a lost answer
      // finds its own commit there, which is a success and not a conflict.
      const txnId = randomUUID();
      const actions: Action[] = [
        { commitInfo: { txnId, timestamp: Date.now(), operation: rows.length ? 'WRITE' : 'DELETE', operationParameters: { mode: 'Append', predicate: `${RECORD_ID_FIELD} = '${file.recordId}'` }, engineInfo: ENGINE } },
      ];
      if (!exists) {
        actions.push({ protocol: { minReaderVersion: 1, minWriterVersion: 2 } });
        actions.push({ metaData: { id: randomUUID(), format: { provider: 'parquet', options: {} }, schemaString: schemaString(fields), partitionColumns: [], configuration: {}, createdTime: Date.now() } });
      } else if (added.length) {
        actions.push({ metaData: { ...snap.metadata!, schemaString: schemaString(fields) } });
      }
      actions.push(...removal.actions);
      if (rows.length) actions.push({ add: await addFile(store, used, rows, file.recordId, ctx.signal) });
      try {
        await commit(store, snap.version + 1, actions, ctx.signal);
        return { written: rows.length, deleted: removal.removed };
      } catch (err) {
        if (!(err instanceof CommitConflict)) throw err;
        const there = await store.get(commitPath(snap.version + 1), ctx.signal);
        if (there && Buffer.from(there).toString('utf8').includes(txnId)) return { written: rows.length, deleted: removal.removed };
        if (attempt >= COMMIT_ATTEMPTS) throw new Error(`gave up after ${attempt} commit conflicts with other writers of the table`);
        // The files this attempt uploaded are not in the log: remove them (best effort) and plan again.
        await Promise.all(actions.filter((a) => a.add).map((a) => store.delete(a.add!.path).catch(() => undefined)));
        ctx.log?.('delta_table commit conflict; retrying', { attempt, version: snap.version + 1 });
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 200 * attempt));
      }
    }
  } finally {
    store.close();
  }
}
