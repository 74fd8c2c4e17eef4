// Writes a document's elements into Redis as the platform's Redis uploader does (RedisUploader):
// - one key per element holding the element as JSON (type, element_id, text, metadata nested,
//   embeddings as an array) plus `record_id`: a RedisJSON document (JSON.SET key $ ...) when the
//   server has the module, else a JSON string (SET), the platform's fallback;
// - key `<record_id>:<element_id>` (the platform uses `<key_prefix><element_id>`; the record id in
//   front makes a file's keys findable, and two files' equal elements distinct);
// - replace: the file's earlier keys are found by SCAN MATCH `<record_id>:*` (COUNT 1000; SCAN walks
//   the whole database, so the cost grows with its size), the new records are written (same
//   element, same key: overwritten in place), then the earlier keys no longer written are UNLINKed:
//   N runs leave one copy, and readers never see the file missing;
// - batches of batch_size records in one MULTI/EXEC each (as the platform's transaction pipelines),
//   at most 16 MiB per batch, 4 in flight on the connection; a whole-file retry on BUSY, LOADING,
//   TRYAGAIN, failovers, provider request limits and dropped connections; a refused command (OOM,
//   NOPERM, READONLY, ...) fails the file with the server's reply.
import { batches, forEachLimited } from '../records/batch';
import { withRetry } from '../records/retry';
import { RECORD_ID_FIELD } from '../records/stage';
import type { FileRecords, UploadContext, UploadResult } from '../records/types';
import { describeRedisError, isRetryable, RedisStoreError, retryableRedis, withRedis, type Redis, type RedisTarget } from './client';

const MAX_BATCH_BYTES = 16 * 1024 * 1024;
const CONCURRENCY = 4;
const SCAN_COUNT = 1000;
const UNLINK_CHUNK = 1000;

export const recordKey = (recordId: string, elementId: string) => `${recordId}:${elementId}`;

/** SCAN MATCH pattern for a record id, glob characters escaped (record ids are UUIDs, but stay safe). */
export const recordPattern = (recordId: string) => `${recordId.replace(/[*?[\]\\]/g, (ch) => `\\${ch}`)}:*`;

/** Whether the server has RedisJSON: JSON.GET of an absent key answers nil with it, "unknown command" without. */
export async function hasRedisJson(client: Redis): Promise<boolean> {
  try {
    await client.sendCommand(['JSON.GET', `wps-probe:${process.pid}`]);
    return true;
  } catch (err) {
    if (/unknown command/i.test((err as Error).message)) return false;
    throw err;
  }
}

async function recordKeys(client: Redis, recordId: string): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const batch of client.scanIterator({ MATCH: recordPattern(recordId), COUNT: SCAN_COUNT })) for (const k of batch) keys.add(String(k));
  return keys;
}

async function unlinkAll(client: Redis, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += UNLINK_CHUNK) await client.unlink(keys.slice(i, i + UNLINK_CHUNK));
}

function fail(prefix: string, err: unknown, c: RedisTarget): RedisStoreError {
  if (err instanceof RedisStoreError) return err;
  return new RedisStoreError(`${prefix}${describeRedisError(err, c)}`, retryableRedis(err));
}

export async function writeDocument(c: RedisTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  // Later elements with the same id win, as the platform's SET of the same key does.
  const records = new Map<string, string>();
  for (const e of file.elements) records.set(recordKey(file.recordId, e.element_id), JSON.stringify({ ...e, [RECORD_ID_FIELD]: file.recordId }));
  const entries = [...records.entries()];
  return withRetry(
    () =>
      withRedis(c, { signal: ctx.signal }, async (client) => {
        let json: boolean;
        let earlier: Set<string>;
        try {
          json = await hasRedisJson(client);
          earlier = await recordKeys(client, file.recordId);
        } catch (err) {
          throw fail('cannot find the earlier records of the file: ', err, c);
        }
        try {
          await forEachLimited(batches(entries, { maxCount: c.batch_size, maxBytes: MAX_BATCH_BYTES, sizeOf: (x) => (x as [string, string])[1].length }), CONCURRENCY, async (batch) => {
            const multi = client.multi();
            for (const [key, value] of batch) multi.addCommand(json ? ['JSON.SET', key, '$', value] : ['SET', key, value]);
            await multi.exec();
          });
        } catch (err) {
          throw fail('write refused: ', err, c);
        }
        const leftovers = [...earlier].filter((k) => !records.has(k));
        try {
          await unlinkAll(client, leftovers);
        } catch (err) {
          throw fail('cannot remove the earlier records of the file: ', err, c);
        }
        return { written: entries.length, deleted: earlier.size };
      }),
    {
      attempts: 5,
      signal: ctx.signal,
      retryable: isRetryable,
      onRetry: (err, attempt, delayMs) => ctx.log?.('redis write retried', { attempt, delayMs, error: (err as Error).message }),
    },
  );
}

export async function removeDocument(c: RedisTarget, recordId: string, ctx: UploadContext): Promise<number> {
  return withRetry(
    () =>
      withRedis(c, { signal: ctx.signal }, async (client) => {
        try {
          const keys = [...(await recordKeys(client, recordId))];
          await unlinkAll(client, keys);
          return keys.length;
        } catch (err) {
          throw fail('cannot remove the records of the file: ', err, c);
        }
      }),
    { attempts: 5, signal: ctx.signal, retryable: isRetryable },
  );
}
