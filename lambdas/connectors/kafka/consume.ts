// Reading a topic with kafkajs' consumer, for the kafka-cloud source (source.ts):
// - consumeBatch: what the group has not consumed yet, from its committed offsets (earliest where it
//   has none, as the platform's auto.offset.reset=earliest), at most `limit` messages; the end is
//   known up front (each partition's high watermark when the call starts, from ListOffsets), so a
//   listing ends when every partition assigned to us reached it, not after idle polls. It commits
//   nothing: `resume` says where the group would go on from (just past what was handed out), and the
//   caller commits it with commitForward once it is done with those messages.
// - fetchOne: one message at a given partition and offset, for read(): a consumer in a throwaway
//   group named `<group_id>.read.<uuid>` (a Confluent ACL on the prefix `<group_id>` covers it) that
//   seeks there and never commits, so reads never move the workflow's group, and concurrent reads
//   (other processes) never rebalance each other. kafkajs has no group-less fetch in its API.
import { randomUUID } from 'node:crypto';
import type { Consumer, Kafka, KafkaMessage } from 'kafkajs';

export interface ConsumedMessage {
  partition: number;
  offset: number;
  timestamp: number;
  size: number;
  /** null for a tombstone (a message without value). */
  value: Buffer | null;
}

export interface PartitionRange {
  partition: number;
  /** Where the group resumes: its committed offset, else the partition's first offset. */
  from: number;
  /** The partition's high watermark (next offset to be written). */
  high: number;
  low: number;
  committed?: number;
}

/** Where the group stands on each partition of the topic (offsets, high watermarks); no group: the log's bounds. */
export async function groupRanges(kafka: Kafka, topic: string, groupId?: string): Promise<PartitionRange[]> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(topic);
    const [committed] = groupId ? await admin.fetchOffsets({ groupId, topics: [topic] }) : [];
    const byPartition = new Map((committed?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
    return ends
      .map((e) => {
        const low = Number(e.low);
        const high = Number(e.high);
        const c = byPartition.get(e.partition);
        const has = c !== undefined && c >= 0;
        // A committed offset below the log start (messages deleted by retention) resumes at the start.
        return { partition: e.partition, low, high, from: has ? Math.min(Math.max(c, low), high) : low, ...(has ? { committed: c } : {}) };
      })
      .sort((a, b) => a.partition - b.partition);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

export interface ConsumedBatch {
  messages: ConsumedMessage[];
  /** Per partition that moved, the offset the group resumes from once these messages are done. */
  resume: { partition: number; offset: number }[];
}

const toConsumed = (partition: number, m: KafkaMessage): ConsumedMessage => ({
  partition,
  offset: Number(m.offset),
  timestamp: Number(m.timestamp),
  size: m.value?.length ?? 0,
  value: m.value,
});

/** Settles when told to, failing on a consumer crash, an abort or `idleMs` without progress. */
function watch(consumer: Consumer, signal: AbortSignal | undefined, idleMs: number) {
  let settle!: { resolve: () => void; reject: (e: unknown) => void };
  const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  let timer: NodeJS.Timeout | undefined;
  const progress = () => {
    clearTimeout(timer);
    timer = setTimeout(() => settle.reject(new Error(`the consumer made no progress for ${idleMs / 1000} s`)), idleMs);
  };
  progress();
  const onAbort = () => settle.reject(signal!.reason ?? new Error('aborted'));
  signal?.addEventListener('abort', onAbort, { once: true });
  const offCrash = consumer.on(consumer.events.CRASH, (e) => settle.reject(e.payload.error));
  const guarded = done.finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    offCrash();
  });
  guarded.catch(() => undefined); // settled before it is awaited (a crash while connecting): not unhandled
  return { done: guarded, progress, resolve: () => settle.resolve(), reject: (e: unknown) => settle.reject(e) };
}

/** Up to `limit` messages the group has not consumed, from its committed offsets. */
export async function consumeBatch(
  kafka: Kafka,
  opts: { topic: string; groupId: string; limit: number; ranges: PartitionRange[]; signal?: AbortSignal; idleMs?: number },
): Promise<ConsumedBatch> {
  const { topic, limit } = opts;
  const end = new Map(opts.ranges.map((r) => [r.partition, r.high]));
  const pending = opts.ranges.filter((r) => r.from < r.high);
  if (!pending.length) return { messages: [], resume: [] };

  const consumer = kafka.consumer({ groupId: opts.groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 1000, sessionTimeout: 30_000, heartbeatInterval: 3000 });
  const taken = new Map<number, ConsumedMessage[]>();
  let count = 0;
  // Where the consumer is in each partition. Batches of control records (transaction markers) or
  // aborted messages never reach eachBatch but do end a batch: the position comes from that event.
  const position = new Map(pending.map((r) => [r.partition, r.from]));
  let assigned: number[] | undefined;
  const w = watch(consumer, opts.signal, opts.idleMs ?? 60_000);
  const lastTaken = (p: number) => taken.get(p)?.at(-1)?.offset;
  const finished = () => count >= limit || (assigned !== undefined && assigned.every((p) => (position.get(p) ?? 0) >= (end.get(p) ?? 0)));
  const check = () => void (finished() && w.resolve());
  consumer.on(consumer.events.GROUP_JOIN, (e) => {
    // Partitions another member of the group holds are not waited for.
    assigned = (e.payload.memberAssignment[topic] ?? []).filter((p) => position.has(p));
    w.progress();
    check();
  });
  consumer.on(consumer.events.END_BATCH_PROCESS, (e) => {
    const { partition, lastOffset } = e.payload;
    position.set(partition, Math.max(position.get(partition) ?? 0, Number(lastOffset) + 1));
    w.progress();
    check();
  });
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false, // (kafkajs fetches on from the offsets it resolved; only commit() commits)
      eachBatch: async ({ batch }) => {
        const p = batch.partition;
        for (const m of batch.messages) {
          const offset = Number(m.offset);
          // Only what this call set out to read: past the high watermark is for the next run.
          if (count >= limit || offset >= (end.get(p) ?? 0) || offset <= (lastTaken(p) ?? -1)) continue;
          if (!taken.has(p)) taken.set(p, []);
          taken.get(p)!.push(toConsumed(p, m));
          count++;
        }
      },
    });
    await w.done;
  } finally {
    w.resolve(); // stops the watch (a no-op once it settled)
    await consumer.disconnect().catch(() => undefined);
  }
  // Where the group resumes next time: just past the last message handed out; when the listing read
  // its partitions to the end (limit not reached), past any transaction markers after it too.
  const resumeAt = (p: number): number | undefined => {
    const last = lastTaken(p);
    if (count < limit) return Math.min(position.get(p) ?? 0, end.get(p) ?? 0);
    return last === undefined ? undefined : last + 1;
  };
  return {
    messages: [...taken.values()].flat().sort((a, b) => a.partition - b.partition || a.offset - b.offset),
    resume: pending.flatMap(({ partition, from }) => {
      const at = resumeAt(partition);
      return at !== undefined && at > from ? [{ partition, offset: at }] : [];
    }),
  };
}

/**
 * Commits the group's offsets on `topic` where they move forward (a position already past, by a
 * later run, is left alone). Through kafkajs' admin setOffsets, which needs the group to have no
 * running member: a listing of the same group running at that moment fails the commit (the caller
 * says so; the messages are then listed again and skipped as delivered).
 */
export async function commitForward(kafka: Kafka, opts: { topic: string; groupId: string; offsets: { partition: number; offset: number }[] }): Promise<number> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    const [current] = await admin.fetchOffsets({ groupId: opts.groupId, topics: [opts.topic] });
    const at = new Map((current?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
    const forward = opts.offsets.filter((o) => o.offset > (at.get(o.partition) ?? -1));
    if (forward.length) await admin.setOffsets({ groupId: opts.groupId, topic: opts.topic, partitions: forward.map((o) => ({ partition: o.partition, offset: String(o.offset) })) });
    return forward.length;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** The message at `offset` of `partition`, read by a throwaway group that seeks there. */
export async function fetchOne(
  kafka: Kafka,
  opts: { topic: string; groupId: string; partition: number; offset: number; signal?: AbortSignal; idleMs?: number },
): Promise<ConsumedMessage> {
  const { topic, partition, offset } = opts;
  const consumer = kafka.consumer({ groupId: `${opts.groupId}.read.${randomUUID()}`, allowAutoTopicCreation: false, maxWaitTimeInMs: 1000, sessionTimeout: 30_000 });
  const w = watch(consumer, opts.signal, opts.idleMs ?? 60_000);
  let found: ConsumedMessage | undefined;
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: false });
    await consumer.run({
      autoCommit: false, // (kafkajs fetches on from the offsets it resolved; only commit() commits)
      eachBatch: async ({ batch }) => {
        if (batch.partition !== partition || found) return;
        const m = batch.messages.find((x) => Number(x.offset) === offset);
        if (m) {
          found = toConsumed(partition, m);
          w.resolve();
        } else if (batch.messages.some((x) => Number(x.offset) > offset)) {
          // The log skips the offset: compaction removed it, or it held a transaction marker.
          w.reject(new Error(`partition ${partition} of topic ${topic} has no message at offset ${offset} any more (compacted away or a transaction marker)`));
        }
      },
    });
    consumer.seek({ topic, partition, offset: String(offset) });
    await w.done;
    return found!;
  } finally {
    w.resolve();
    await consumer.disconnect().catch(() => undefined);
  }
}
