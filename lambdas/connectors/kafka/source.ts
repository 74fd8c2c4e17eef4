// Kafka source on Confluent Cloud (type `kafka-cloud`; the platform's KafkaIndexer/KafkaDownloader):
// - a run consumes the topic in the consumer group `group_id` (the platform's default
//   "default_group_id") from the group's committed offsets (earliest where it has none), at most
//   num_messages_to_consume messages (default 100); each message is one document named
//   `<topic>_<partition>_<offset>.txt` holding the message value (the platform's download), its key
//   that name, its version "<partition>:<offset>" (a message never changes), record_locator
//   {topic, partition, offset}, date_created the message timestamp. Tombstones (no value) are
//   consumed but listed as nothing, having no content (the platform's downloader fails on them).
// - offsets: a listing commits nothing; a complete one hands its resume position (per partition,
//   just past the last message listed) to the job as a checkpoint, and the job commits it
//   (acknowledge) once it finished with every message listed: delivered, or failed and kept by the
//   service for a retry next run (IncrementalRuns). A job that dies, is cancelled, or a listing that
//   fails or is abandoned commits nothing: the next run lists the same messages again (at-least-once;
//   the incremental state skips those already delivered, same key and version). The platform
//   commits each message as it polls it, so a crash there loses the messages in flight.
// - read(key) fetches that exact offset again (consume.ts fetchOne), so reads may run anywhere, later.
// - a stream: a key not listed again has not left the topic (definition.stream).
// - check: an authenticated metadata request for the topic (its own error text:
//   UNKNOWN_TOPIC_OR_PARTITION, TOPIC_AUTHORIZATION_FAILED, SASL authentication failed), the topic's
//   offsets (ListOffsets: read access), and the group's offsets (OffsetFetch: group access).
import { defineConnector, epochSeconds, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { derivedShape } from '../types/derived';
import { refineWith } from '../schema';
import { addTargetIssues, brokersOf, CoordinatorErrors, describeKafkaError, kafkaClient, type KafkaTarget } from './client';
import { commitForward, consumeBatch, fetchOne, groupRanges, type ConsumedMessage } from './consume';

export const DEFAULT_GROUP_ID = 'default_group_id';
export const DEFAULT_MESSAGES = 100;

type KafkaSourceConfig = KafkaTarget & ConnectorConfig & { group_id?: string; num_messages_to_consume?: number };

const refine = refineWith<KafkaSourceConfig>((c, ctx) => {
  addTargetIssues(c, ctx);
  if (c.group_id !== undefined && c.group_id !== null && (typeof c.group_id !== 'string' || !c.group_id.trim() || c.group_id.length > 200)) {
    ctx.addIssue({ code: 'custom', path: ['group_id'], message: 'group_id must be a non-empty name of at most 200 characters' });
  }
});

const groupOf = (c: KafkaSourceConfig) => (typeof c.group_id === 'string' && c.group_id.trim() ? c.group_id : DEFAULT_GROUP_ID);
const limitOf = (c: KafkaSourceConfig) => (Number.isInteger(c.num_messages_to_consume) && c.num_messages_to_consume! >= 1 ? c.num_messages_to_consume! : DEFAULT_MESSAGES);

/** The document's key and name stem, as the platform's identifier. */
export const messageKey = (topic: string, partition: number, offset: number) => `${topic}_${partition}_${offset}`;

function parseKey(c: KafkaSourceConfig, key: string): { partition: number; offset: number } {
  const m = /^(.+)_(\d+)_(\d+)$/.exec(key);
  if (!m || m[1] !== c.topic) throw new Error(`${JSON.stringify(key)} is not a message of topic ${c.topic} (<topic>_<partition>_<offset>)`);
  return { partition: Number(m[2]), offset: Number(m[3]) };
}

function sourceObject(c: KafkaSourceConfig, m: ConsumedMessage): SourceObject {
  const key = messageKey(c.topic, m.partition, m.offset);
  const version = `${m.partition}:${m.offset}`;
  const b = brokersOf(c)[0]!;
  return {
    key,
    size: m.size,
    version,
    filename: `${key}.txt`,
    dataSource: {
      url: `kafka://${b.host.includes(':') ? `[${b.host}]` : b.host}:${b.port}/${encodeURIComponent(c.topic)}/${m.partition}/${m.offset}`,
      version,
      record_locator: { topic: c.topic, partition: m.partition, offset: m.offset },
      ...(Number.isFinite(m.timestamp) && m.timestamp > 0 ? { date_created: epochSeconds(m.timestamp) } : {}),
    },
  };
}

async function* listMessages(c: KafkaSourceConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  const coordinator = new CoordinatorErrors();
  const kafka = await kafkaClient(c, { coordinatorErrors: coordinator });
  const groupId = groupOf(c);
  let batch: Awaited<ReturnType<typeof consumeBatch>>;
  try {
    const ranges = await groupRanges(kafka, c.topic, groupId);
    batch = await consumeBatch(kafka, { topic: c.topic, groupId, limit: limitOf(c), ranges, signal: ctx?.signal });
  } catch (err) {
    throw new Error(`consuming topic ${c.topic} in group ${groupId} failed: ${describeKafkaError(coordinator.explain(err), c)}`);
  }
  for (const m of batch.messages) if (m.value !== null) yield sourceObject(c, m);
  // Only a complete listing says where to resume; the job commits it once it is done (acknowledge).
  if (batch.resume.length) ctx?.checkpoint?.({ topic: c.topic, group_id: groupId, offsets: batch.resume });
}

/** The run that listed up to `checkpoint` is over: the group's offsets move there (never back). */
async function acknowledge(c: KafkaSourceConfig, checkpoint: Record<string, unknown>): Promise<void> {
  const groupId = groupOf(c);
  const offsets = Array.isArray(checkpoint.offsets) ? (checkpoint.offsets as { partition: number; offset: number }[]) : [];
  // A checkpoint of another topic or group (the source was edited since the listing) is not applied.
  if (checkpoint.topic !== c.topic || checkpoint.group_id !== groupId || !offsets.length) return;
  const coordinator = new CoordinatorErrors();
  const kafka = await kafkaClient(c, { coordinatorErrors: coordinator });
  try {
    await commitForward(kafka, { topic: c.topic, groupId, offsets });
  } catch (err) {
    throw new Error(`committing the offsets of group ${groupId} on topic ${c.topic} failed: ${describeKafkaError(coordinator.explain(err), c)}`);
  }
}

async function readMessage(c: KafkaSourceConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  const { partition, offset } = parseKey(c, key);
  const coordinator = new CoordinatorErrors();
  const kafka = await kafkaClient(c, { coordinatorErrors: coordinator });
  const where = `offset ${offset} of partition ${partition} of topic ${c.topic}`;
  try {
    // Where the partition's log starts and ends now: an offset outside was deleted or never written.
    const range = (await groupRanges(kafka, c.topic)).find((r) => r.partition === partition);
    if (!range) throw new Error(`topic ${c.topic} has no partition ${partition}`);
    if (offset < range.low) throw new Error(`the message at ${where} is no longer in the topic (deleted by retention: the partition starts at offset ${range.low})`);
    if (offset >= range.high) throw new Error(`there is no message at ${where} (the partition ends before offset ${range.high})`);
    const m = await fetchOne(kafka, { topic: c.topic, groupId: groupOf(c), partition, offset, signal: ctx?.signal });
    return new Uint8Array(m.value ?? Buffer.alloc(0));
  } catch (err) {
    const msg = describeKafkaError(coordinator.explain(err), c);
    throw new Error(msg.includes(where) || msg.includes(`partition ${partition}`) ? msg : `reading ${where} failed: ${msg}`);
  }
}

export const kafkaCloudSource = defineConnector<KafkaSourceConfig>({
  ...derivedShape('source', 'kafka-cloud', refine),
  stream: true,
  check: async (c, ctx) => {
    const coordinator = new CoordinatorErrors();
    const kafka = await kafkaClient(c, { connectionTimeout: Math.min(10_000, Math.floor(ctx.timeoutMs / 2)), retries: 1, coordinatorErrors: coordinator });
    const admin = kafka.admin();
    const onAbort = () => void admin.disconnect();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const groupId = groupOf(c);
    try {
      const step = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
        try {
          return await fn();
        } catch (err) {
          throw new Error(`${what}: ${describeKafkaError(coordinator.explain(err), c)}`);
        }
      };
      await step('cannot connect to the cluster', () => admin.connect());
      const meta = await step(`cannot read the metadata of topic ${c.topic}`, () => admin.fetchTopicMetadata({ topics: [c.topic] }));
      const partitions = meta.topics[0]?.partitions.length ?? 0;
      const ends = await step(`cannot read the offsets of topic ${c.topic}`, () => admin.fetchTopicOffsets(c.topic));
      const [committed] = await step(`cannot read the offsets of consumer group ${groupId}`, () => admin.fetchOffsets({ groupId, topics: [c.topic] }));
      const described = await step(`cannot describe consumer group ${groupId}`, () => admin.describeGroups([groupId]));
      const state = described.groups[0]?.state ?? 'Dead';
      const at = new Map((committed?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
      let messages = 0;
      let waiting = 0;
      for (const e of ends) {
        const low = Number(e.low);
        const high = Number(e.high);
        messages += high - low;
        const from = at.get(e.partition) ?? -1;
        waiting += high - (from >= 0 ? Math.min(Math.max(from, low), high) : low);
      }
      return `topic ${c.topic}: ${partitions} partition${partitions === 1 ? '' : 's'}, ${messages} message${messages === 1 ? '' : 's'}; consumer group ${groupId} (${state === 'Dead' ? 'new' : state}): ${waiting} not consumed yet; authenticated (SASL PLAIN over TLS)`;
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      await admin.disconnect().catch(() => undefined);
    }
  },
  list: listMessages,
  acknowledge,
  read: readMessage,
});
