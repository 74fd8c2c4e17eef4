// One document's write into the Iceberg table, as the platform's uploader does it in one pyiceberg
// transaction: delete(EqualTo(record_id_key, record id)) then append(rows), committed through the
// REST catalog and retried on commit conflicts (max_retries attempts, random wait). pyiceberg's
// delete is copy-on-write (it writes no delete files): a data file whose rows all belong to the
// document is dropped, a file that mixes documents is rewritten without the document's rows, files
// whose record_id bounds exclude the document are not read. Here the delete and the append are one
// snapshot (operation overwrite, or append/delete when only one side has work) in one commit:
// requirements assert-table-uuid and assert-ref-snapshot-id(main) (what pyiceberg sends), updates
// add-snapshot and set-snapshot-ref(main). A 409 reloads the table and plans again. A table without
// the record id column is appended to without a delete (the platform logs a warning and does so).
// Format v2, unpartitioned tables with data files only; others are refused with the reason.
import { randomInt, randomUUID } from 'node:crypto';
import { parquetReadObjects } from 'hyparquet';
import { RECORD_ID_FIELD } from '../records/stage';
import type { FileRecords, UploadContext, UploadResult } from '../records/types';
import { decodeContainer, encodeContainer, MANIFEST_ENTRY_SCHEMA, MANIFEST_FILE_SCHEMA, manifestEntryType, manifestFileType, type DataFile, type ManifestEntry, type ManifestFile } from './avro';
import { CommitConflict, IcebergCatalog, type IcebergField, type Snapshot, type TableMetadata, type WatsonxTarget } from './catalog';
import { ObjectStore } from './store';
import { fitRows, stageRows, toParquet, writableField, type Row } from './table';

const big = (v: bigint | number | null | undefined) => (v === null || v === undefined ? undefined : BigInt(v));

export function currentSchema(meta: TableMetadata): IcebergField[] {
  const s = meta.schemas.find((x) => x['schema-id'] === meta['current-schema-id']);
  if (!s) throw new Error(`the table's metadata has no schema ${meta['current-schema-id']}`);
  return s.fields;
}

/** The main branch's snapshot (none for an empty table). */
export function currentSnapshot(meta: TableMetadata): Snapshot | undefined {
  const id = big(meta.refs?.main?.['snapshot-id'] ?? meta['current-snapshot-id']);
  if (id === undefined || id === -1n) return undefined;
  const snap = meta.snapshots?.find((s) => BigInt(s['snapshot-id']) === id);
  if (!snap) throw new Error(`the table's metadata has no snapshot ${id}`);
  return snap;
}

/** Why this writer cannot write the table, if it cannot. */
export function tableProblem(meta: TableMetadata): string | undefined {
  if (meta['format-version'] !== 2) return `the table is Iceberg format version ${meta['format-version']}; this writer writes format version 2 tables`;
  const spec = meta['partition-specs']?.find((s) => s['spec-id'] === (meta['default-spec-id'] ?? 0));
  if (spec && spec.fields.length) return 'the table is partitioned; this writer writes unpartitioned tables';
  return undefined;
}

const dataDir = (meta: TableMetadata) => (meta.properties?.['write.data.path'] ?? `${meta.location.replace(/\/+$/, '')}/data`).replace(/\/+$/, '');
const metadataDir = (meta: TableMetadata) => (meta.properties?.['write.metadata.path'] ?? `${meta.location.replace(/\/+$/, '')}/metadata`).replace(/\/+$/, '');

/** The manifests of a snapshot (its manifest list). */
export async function readManifestList(store: ObjectStore, snap: Snapshot, signal?: AbortSignal): Promise<ManifestFile[]> {
  return (await decodeContainer<ManifestFile>(await store.get(snap['manifest-list'], signal), manifestFileType)).records;
}

/** A manifest's entries, sequence numbers inherited from the manifest list where the entry has none. */
export async function readManifest(store: ObjectStore, m: ManifestFile, signal?: AbortSignal): Promise<ManifestEntry[]> {
  const { records } = await decodeContainer<ManifestEntry>(await store.get(m.manifest_path, signal), manifestEntryType);
  return records.map((e) => ({
    ...e,
    snapshot_id: e.snapshot_id ?? m.added_snapshot_id,
    sequence_number: e.sequence_number ?? (e.status === 1 ? m.sequence_number : null),
    file_sequence_number: e.file_sequence_number ?? (e.status === 1 ? m.sequence_number : null),
  }));
}

/** The file's record_id bounds, when it has them (single-value serialisation of a string: UTF-8). */
function bounds(f: DataFile, fieldId: number): { lo?: string; hi?: string } {
  const find = (list: DataFile['lower_bounds']) => list?.find((b) => b.key === fieldId)?.value.toString('utf8');
  return { lo: find(f.lower_bounds), hi: find(f.upper_bounds) };
}

interface Plan {
  manifests: ManifestFile[];
  added: DataFile[];
  removedFiles: number;
  removedRows: number;
  uploaded: string[];
}

async function writeDataFile(store: ObjectStore, meta: TableMetadata, fields: IcebergField[], rows: Row[], recordIdField: IcebergField | undefined, signal?: AbortSignal): Promise<DataFile> {
  const { rows: cast, columns } = fitRows(fields, rows);
  const bytes = toParquet(columns, cast);
  const path = `${dataDir(meta)}/00000-0-${randomUUID()}.parquet`;
  await store.put(path, bytes, signal);
  const ids = recordIdField ? cast.map((r) => r[recordIdField.name]).filter((v): v is string => typeof v === 'string').sort() : [];
  const bound = (v: string | undefined) => (recordIdField && v !== undefined ? [{ key: recordIdField.id, value: Buffer.from(v, 'utf8') }] : null);
  return {
    content: 0,
    file_path: path,
    file_format: 'PARQUET',
    partition: {},
    record_count: BigInt(cast.length),
    file_size_in_bytes: BigInt(bytes.byteLength),
    lower_bounds: bound(ids[0]),
    upper_bounds: bound(ids[ids.length - 1]),
    key_metadata: null,
    split_offsets: null,
    equality_ids: null,
    sort_order_id: null,
  };
}

/** Removes the document's rows from the snapshot's files: which manifests stay, which are rewritten. */
async function planRemoval(store: ObjectStore, meta: TableMetadata, snap: Snapshot, snapshotId: bigint, seq: bigint, fields: IcebergField[], recordIdField: IcebergField, recordId: string, plan: Plan, signal?: AbortSignal): Promise<void> {
  for (const m of await readManifestList(store, snap, signal)) {
    if (m.content !== 0) throw new Error('the table has delete files (merge-on-read deletes); this writer rewrites data files only and cannot apply them');
    const entries = (await readManifest(store, m, signal)).filter((e) => e.status !== 2);
    const touched = new Set<ManifestEntry>();
    for (const e of entries) {
      const { lo, hi } = bounds(e.data_file, recordIdField.id);
      if ((lo !== undefined && recordId < lo) || (hi !== undefined && recordId > hi)) continue;
      if (lo === recordId && hi === recordId) {
        touched.add(e);
        plan.removedRows += Number(e.data_file.record_count);
        continue;
      }
      const rows = (await parquetReadObjects({ file: toArrayBuffer(await store.get(e.data_file.file_path, signal)) })) as Row[];
      const keep = rows.filter((r) => r[recordIdField.name] !== recordId);
      if (keep.length === rows.length) continue;
      touched.add(e);
      plan.removedRows += rows.length - keep.length;
      if (keep.length) {
        const unwritable = fields.filter((f) => !writableField(f) && keep.some((r) => r[f.name] !== null && r[f.name] !== undefined));
        if (unwritable.length) throw new Error(`data file ${e.data_file.file_path} mixes documents and has columns of types this writer cannot rewrite (${unwritable.map((f) => f.name).join(', ')})`);
        const f = await writeDataFile(store, meta, fields, keep, recordIdField, signal);
        plan.uploaded.push(f.file_path);
        plan.added.push(f);
      }
    }
    if (!touched.size) {
      // A manifest left with only the deleted entries of an earlier snapshot is not carried on.
      if (entries.length) plan.manifests.push(m);
      continue;
    }
    plan.removedFiles += touched.size;
    const rewritten: ManifestEntry[] = entries.map((e) => ({ ...e, status: touched.has(e) ? 2 : 0, snapshot_id: touched.has(e) ? snapshotId : e.snapshot_id }));
    const kept = entries.filter((e) => !touched.has(e));
    plan.manifests.push(
      await writeManifest(store, meta, rewritten, {
        added_snapshot_id: snapshotId,
        sequence_number: seq,
        min_sequence_number: kept.reduce((min, e) => (e.sequence_number! < min ? e.sequence_number! : min), seq),
      }, signal),
    );
    plan.uploaded.push(plan.manifests[plan.manifests.length - 1]!.manifest_path);
  }
}

async function writeManifest(store: ObjectStore, meta: TableMetadata, entries: ManifestEntry[], head: Pick<ManifestFile, 'added_snapshot_id' | 'sequence_number' | 'min_sequence_number'>, signal?: AbortSignal): Promise<ManifestFile> {
  const schema = meta.schemas.find((s) => s['schema-id'] === meta['current-schema-id'])!;
  const bytes = await encodeContainer(manifestEntryType, MANIFEST_ENTRY_SCHEMA, entries, {
    schema: JSON.stringify(schema),
    'schema-id': String(meta['current-schema-id']),
    'partition-spec': '[]',
    'partition-spec-id': String(meta['default-spec-id'] ?? 0),
    'format-version': '2',
    content: 'data',
  });
  const path = `${metadataDir(meta)}/${randomUUID()}-m0.avro`;
  await store.put(path, bytes, signal);
  const count = (s: number) => entries.filter((e) => e.status === s);
  const rows = (s: number) => count(s).reduce((n, e) => n + e.data_file.record_count, 0n);
  return {
    manifest_path: path,
    manifest_length: BigInt(bytes.byteLength),
    partition_spec_id: meta['default-spec-id'] ?? 0,
    content: 0,
    ...head,
    added_files_count: count(1).length,
    existing_files_count: count(0).length,
    deleted_files_count: count(2).length,
    added_rows_count: rows(1),
    existing_rows_count: rows(0),
    deleted_rows_count: rows(2),
    partitions: [],
    key_metadata: null,
  };
}

export function toArrayBuffer(b: Uint8Array): ArrayBuffer {
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

/** Writes (or, with no elements, removes) a document's rows in one commit; retried on a conflict. */
export async function replaceDocument(c: WatsonxTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const catalog = new IcebergCatalog(c);
  const store = new ObjectStore(c);
  const staged = stageRows(file);
  const attempts = Math.max(1, c.max_retries ?? 50);
  try {
    for (let attempt = 1; ; attempt++) {
      const { metadata: meta } = await catalog.loadTable(ctx.signal, ctx.log);
      const problem = tableProblem(meta);
      if (problem) throw new Error(problem);
      const fields = currentSchema(meta);
      const recordIdField = fields.find((f) => f.name === (c.record_id_key ?? RECORD_ID_FIELD));
      if (!recordIdField) ctx.log?.("ibm_watsonx_s3: the table has no record id column; appending without deleting the document's earlier rows", { column: c.record_id_key ?? RECORD_ID_FIELD });
      const snap = currentSnapshot(meta);
      const seq = (big(meta['last-sequence-number']) ?? 0n) + 1n;
      const snapshotId = BigInt(randomInt(1, 2 ** 47)) * 64n + BigInt(randomInt(0, 64));
      const plan: Plan = { manifests: [], added: [], removedFiles: 0, removedRows: 0, uploaded: [] };
      try {
        if (snap && recordIdField) await planRemoval(store, meta, snap, snapshotId, seq, fields, recordIdField, file.recordId, plan, ctx.signal);
        else if (snap) plan.manifests.push(...(await readManifestList(store, snap, ctx.signal)).filter((m) => m.added_files_count + m.existing_files_count > 0));
        if (staged.length) {
          const f = await writeDataFile(store, meta, fields, staged, recordIdField, ctx.signal);
          plan.uploaded.push(f.file_path);
          plan.added.push(f);
        }
        if (!plan.added.length && !plan.removedFiles) return { written: 0, deleted: 0 };
        if (plan.added.length) {
          const entries: ManifestEntry[] = plan.added.map((data_file) => ({ status: 1, snapshot_id: snapshotId, sequence_number: null, file_sequence_number: null, data_file }));
          const m = await writeManifest(store, meta, entries, { added_snapshot_id: snapshotId, sequence_number: seq, min_sequence_number: seq }, ctx.signal);
          plan.uploaded.push(m.manifest_path);
          plan.manifests.unshift(m);
        }
        const listPath = `${metadataDir(meta)}/snap-${snapshotId}-${attempt}-${randomUUID()}.avro`;
        const parent = snap ? BigInt(snap['snapshot-id']) : undefined;
        await store.put(
          listPath,
          await encodeContainer(manifestFileType, MANIFEST_FILE_SCHEMA, plan.manifests, {
            'snapshot-id': String(snapshotId),
            'parent-snapshot-id': parent === undefined ? 'null' : String(parent),
            'sequence-number': String(seq),
            'format-version': '2',
          }),
          ctx.signal,
        );
        plan.uploaded.push(listPath);
        const total = (k: 'files' | 'rows') => plan.manifests.reduce((n, m) => n + (k === 'files' ? BigInt(m.added_files_count + m.existing_files_count) : m.added_rows_count + m.existing_rows_count), 0n);
        const written = staged.length;
        const operation = plan.removedFiles ? (written ? 'overwrite' : 'delete') : 'append';
        const snapshot = {
          'snapshot-id': snapshotId,
          ...(parent !== undefined ? { 'parent-snapshot-id': parent } : {}),
          'sequence-number': seq,
          'timestamp-ms': Date.now(),
          'manifest-list': listPath,
          summary: {
            operation,
            'added-data-files': String(plan.added.length),
            'added-records': String(plan.added.reduce((n, f) => n + f.record_count, 0n)),
            'deleted-data-files': String(plan.removedFiles),
            'deleted-records': String(plan.removedRows),
            'total-data-files': String(total('files')),
            'total-records': String(total('rows')),
            'total-delete-files': '0',
          },
          'schema-id': meta['current-schema-id'],
        };
        await catalog.commit(
          [
            { type: 'assert-table-uuid', uuid: meta['table-uuid'] },
            { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': parent ?? null },
          ],
          [
            { action: 'add-snapshot', snapshot },
            { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': snapshotId },
          ],
          ctx.signal,
          ctx.log,
        );
        return { written, deleted: plan.removedRows };
      } catch (err) {
        // The files of a failed attempt are in no snapshot: remove them (best effort).
        await Promise.all(plan.uploaded.map((p) => store.delete(p).catch(() => undefined)));
        if (!(err instanceof CommitConflict)) throw err;
        if (attempt >= attempts) throw new Error(`gave up after ${attempt} commit conflicts with other writers of the table: ${err.message}`);
        ctx.log?.('ibm_watsonx_s3 commit conflict; retrying', { attempt });
        // pyiceberg's retry waits a random time up to a second (tenacity wait_random).
        await new Promise((r) => setTimeout(r, Math.random() * 1000));
      }
    }
  } finally {
    store.close();
  }
}
