// Batching and bounded concurrency for record writes: batches honour both the config's count
// (batch_size) and a byte budget (the store's request limit), and at most `concurrency` batches
// are in flight at once.

export interface BatchLimits {
  /** Records per batch (the config's batch_size). */
  maxCount: number;
  /** Serialized bytes per batch (the store's request size limit, with headroom). */
  maxBytes?: number;
  /** Size of one item in bytes (default: its JSON length). */
  sizeOf?: (item: unknown) => number;
}

export function* batches<T>(items: readonly T[], limits: BatchLimits): Generator<T[]> {
  const maxCount = Math.max(1, Math.floor(limits.maxCount));
  const maxBytes = limits.maxBytes ?? Infinity;
  const sizeOf = limits.sizeOf ?? ((x: unknown) => Buffer.byteLength(JSON.stringify(x)));
  let batch: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = maxBytes === Infinity ? 0 : sizeOf(item);
    if (batch.length && (batch.length >= maxCount || bytes + size > maxBytes)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(item);
    bytes += size;
  }
  if (batch.length) yield batch;
}

export { forEachLimited } from '../../concurrency';
