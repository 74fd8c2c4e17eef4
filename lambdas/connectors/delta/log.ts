// The Delta Lake transaction log (PROTOCOL.md of delta-io/delta): a table is the folder's
// `_delta_log/<version, 20 digits>.json` commits (one action per line: protocol, metaData, add,
// remove, commitInfo, txn), optionally summarised by a checkpoint (`_last_checkpoint` naming a
// `<version>.checkpoint[.<part>.<parts>].parquet`). The snapshot is the replay of the checkpoint and
// the commits after it. A commit is written with put-if-absent (S3's conditional PUT): of two
// writers racing for the same version exactly one wins and the other re-reads and tries again.
import { parquetReadObjects } from 'hyparquet';
import type { DeltaStore } from './store';

export const LOG_DIR = '_delta_log/';

export interface Protocol {
  minReaderVersion: number;
  minWriterVersion: number;
  readerFeatures?: string[];
  writerFeatures?: string[];
}

export interface Metadata {
  id: string;
  name?: string | null;
  description?: string | null;
  format: { provider: string; options: Record<string, string> };
  schemaString: string;
  partitionColumns: string[];
  configuration: Record<string, string>;
  createdTime?: number;
}

export interface AddFile {
  path: string;
  partitionValues: Record<string, string | null>;
  size: number;
  modificationTime: number;
  dataChange: boolean;
  stats?: string | null;
  tags?: Record<string, string> | null;
  deletionVector?: unknown;
}

export interface RemoveFile {
  path: string;
  deletionTimestamp: number;
  dataChange: boolean;
  extendedFileMetadata?: boolean;
  partitionValues?: Record<string, string | null>;
  size?: number;
}

export interface Action {
  protocol?: Protocol;
  metaData?: Metadata;
  add?: AddFile;
  remove?: RemoveFile;
  commitInfo?: Record<string, unknown>;
  txn?: unknown;
}

export interface Snapshot {
  /** -1: no table yet. */
  version: number;
  protocol?: Protocol;
  metadata?: Metadata;
  /** Active data files by path. */
  files: Map<string, AddFile>;
}

export const commitPath = (version: number) => `${LOG_DIR}${String(version).padStart(20, '0')}.json`;

/** Writer features this writer honours (a table needing others is refused, as the protocol requires). */
const WRITER_VERSION_MAX = 2;

/** Why this writer may not write the table (protocol, deletion vectors, append-only), or undefined. */
export function writeProblem(s: Snapshot, deleting: boolean): string | undefined {
  const p = s.protocol;
  if (p && (p.minReaderVersion > 1 || p.minWriterVersion > WRITER_VERSION_MAX)) {
    const features = [...(p.readerFeatures ?? []), ...(p.writerFeatures ?? [])];
    return `the table needs Delta reader version ${p.minReaderVersion} and writer version ${p.minWriterVersion}${
      features.length ? ` (features: ${[...new Set(features)].join(', ')})` : ''
    }; this writer implements reader 1 and writer ${WRITER_VERSION_MAX}`;
  }
  if (s.metadata?.partitionColumns.length) return `the table is partitioned by ${s.metadata.partitionColumns.join(', ')}; this writer writes unpartitioned tables only`;
  if (deleting && s.metadata?.configuration['delta.appendOnly'] === 'true') return 'the table is append-only (delta.appendOnly=true): a document\'s earlier rows cannot be removed';
  return undefined;
}

function apply(s: Snapshot, a: Action): void {
  if (a.protocol) s.protocol = a.protocol;
  if (a.metaData) s.metadata = a.metaData;
  if (a.add) s.files.set(a.add.path, a.add);
  if (a.remove) s.files.delete(a.remove.path);
}

/** Replays the log: the last checkpoint (if any), then every commit after it, in order. */
export async function readSnapshot(store: DeltaStore, signal?: AbortSignal): Promise<Snapshot> {
  const s: Snapshot = { version: -1, files: new Map() };
  const last = await store.get(`${LOG_DIR}_last_checkpoint`, signal);
  if (last) {
    const cp = JSON.parse(Buffer.from(last).toString('utf8')) as { version: number; parts?: number };
    const base = `${LOG_DIR}${String(cp.version).padStart(20, '0')}.checkpoint`;
    const parts = cp.parts
      ? Array.from({ length: cp.parts }, (_, i) => `${base}.${String(i + 1).padStart(10, '0')}.${String(cp.parts).padStart(10, '0')}.parquet`)
      : [`${base}.parquet`];
    for (const part of parts) {
      const bytes = await store.get(part, signal);
      if (!bytes) throw new Error(`the checkpoint ${part} named by _last_checkpoint is missing`);
      const rows = (await parquetReadObjects({ file: toArrayBuffer(bytes) })) as Record<string, unknown>[];
      for (const row of rows) apply(s, normalise(row));
    }
    s.version = cp.version;
  }
  const commits = (await store.list(LOG_DIR, s.version >= 0 ? commitPath(s.version) : undefined, signal))
    .filter((k) => /^_delta_log\/\d{20}\.json$/.test(k))
    .sort();
  for (const key of commits) {
    const version = Number(key.slice(LOG_DIR.length, LOG_DIR.length + 20));
    if (version <= s.version) continue;
    if (version !== s.version + 1) throw new Error(`the Delta log has no commit ${s.version + 1} (next found: ${version}); it cannot be replayed`);
    const body = await store.get(key, signal);
    if (!body) throw new Error(`commit ${key} vanished while the log was read`);
    for (const line of Buffer.from(body).toString('utf8').split('\n')) if (line.trim()) apply(s, JSON.parse(line) as Action);
    s.version = version;
  }
  return s;
}

/** Checkpoint rows hold every action column, null where absent; stats as parsed JSON in some writers. */
function normalise(row: Record<string, unknown>): Action {
  const a: Action = {};
  for (const k of ['protocol', 'metaData', 'add', 'remove'] as const) if (row[k] !== null && row[k] !== undefined) (a as Record<string, unknown>)[k] = row[k];
  if (a.add) a.add = { ...a.add, partitionValues: mapOf(a.add.partitionValues) as AddFile['partitionValues'], size: Number(a.add.size), modificationTime: Number(a.add.modificationTime) };
  if (a.protocol) a.protocol = { ...a.protocol, minReaderVersion: Number(a.protocol.minReaderVersion), minWriterVersion: Number(a.protocol.minWriterVersion) };
  if (a.metaData) {
    const m = a.metaData as Metadata & { configuration?: unknown };
    a.metaData = { ...m, partitionColumns: m.partitionColumns ?? [], configuration: mapOf(m.configuration), format: m.format ?? { provider: 'parquet', options: {} } };
  }
  return a;
}

/** Parquet maps come back as objects or as [{key, value}] lists depending on the writer. */
function mapOf(v: unknown): Record<string, string> {
  if (!v) return {};
  if (Array.isArray(v)) return Object.fromEntries(v.map((e: { key: string; value: string }) => [e.key, e.value]));
  return v as Record<string, string>;
}

export function toArrayBuffer(b: Uint8Array): ArrayBuffer {
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

/** Writes commit `version`; a CommitConflict (from the store) means another writer took it. */
export async function commit(store: DeltaStore, version: number, actions: Action[], signal?: AbortSignal): Promise<void> {
  // Checkpoint values read back as BigInt (INT64 columns); JSON has only numbers.
  const body = actions.map((a) => JSON.stringify(a, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))).join('\n') + '\n';
  await store.put(commitPath(version), Buffer.from(body), { ifAbsent: true, signal });
}
