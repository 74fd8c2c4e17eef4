// Test-only: S3 for Delta tables (the local S3 emulator, s3rver, with put-if-absent) and a reader
// that is independent of the writer: it replays the JSON log by itself and reads the active
// Parquet files with DuckDB (read_parquet; DuckDB's delta extension is not installable offline).
// Imported only by tests and benches.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import { startS3, S3RVER_CREDENTIALS } from '../../../local/emulators/s3';

export const S3_CREDENTIALS = S3RVER_CREDENTIALS;

type Credentials = { accessKeyId: string; secretAccessKey: string };

/** A client of the emulator; `credentials`: the local stack's per-start ones, when it is that emulator. */
export function s3Admin(endpoint: string, credentials: Credentials = S3RVER_CREDENTIALS): S3Client {
  return new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1', credentials });
}

export async function createBucket(endpoint: string, bucket: string, credentials?: Credentials): Promise<void> {
  const s3 = s3Admin(endpoint, credentials);
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    s3.destroy();
  }
}

/** A private s3rver with `buckets`, and AWS_ENDPOINT_URL_S3 pointing at it until stop(). */
export async function startDeltaS3(buckets: string[]): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'wps-delta-s3-'));
  const s3 = await startS3({ dataDir: dir, buckets });
  const previous = process.env.AWS_ENDPOINT_URL_S3;
  process.env.AWS_ENDPOINT_URL_S3 = s3.endpoint;
  return {
    endpoint: s3.endpoint,
    stop: async () => {
      if (previous === undefined) delete process.env.AWS_ENDPOINT_URL_S3;
      else process.env.AWS_ENDPOINT_URL_S3 = previous;
      await s3.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface DeltaReadBack {
  version: number;
  /** Every action of every commit, in order. */
  commits: Record<string, any>[][];
  schema: { name: string; type: unknown }[];
  activeFiles: string[];
  rows: Record<string, any>[];
}

/** The table at s3://bucket/prefix as a Delta reader sees it (JSON commits only; no checkpoints). */
export async function readDeltaTable(endpoint: string, bucket: string, prefix: string, credentials?: Credentials): Promise<DeltaReadBack> {
  const s3 = s3Admin(endpoint, credentials);
  const dir = mkdtempSync(join(tmpdir(), 'wps-delta-read-'));
  try {
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}_delta_log/` }));
    const logKeys = (listed.Contents ?? []).map((o) => o.Key!).filter((k) => /\d{20}\.json$/.test(k)).sort();
    const get = async (key: string) => Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToByteArray());
    const commits: Record<string, any>[][] = [];
    const active = new Set<string>();
    let schemaString = '{"fields":[]}';
    for (const key of logKeys) {
      const actions = (await get(key)).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      commits.push(actions);
      for (const a of actions) {
        if (a.add) active.add(a.add.path);
        if (a.remove) active.delete(a.remove.path);
        if (a.metaData) schemaString = a.metaData.schemaString;
      }
    }
    const activeFiles = [...active].sort();
    const local = await Promise.all(
      activeFiles.map(async (p, i) => {
        const file = join(dir, `${i}.parquet`);
        writeFileSync(file, await get(prefix + p));
        return file;
      }),
    );
    let rows: Record<string, any>[] = [];
    if (local.length) {
      const db = await DuckDBInstance.create(':memory:');
      const conn = await db.connect();
      try {
        const list = local.map((f) => `'${f}'`).join(', ');
        rows = (await conn.runAndReadAll(`SELECT * FROM read_parquet([${list}], union_by_name = true)`)).getRowObjectsJson() as Record<string, any>[];
      } finally {
        conn.closeSync();
        db.closeSync();
      }
    }
    return { version: logKeys.length - 1, commits, schema: JSON.parse(schemaString).fields, activeFiles, rows };
  } finally {
    s3.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
