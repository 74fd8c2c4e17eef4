// Produces a document's elements to a Kafka topic as the platform's Kafka uploader does
// (KafkaUploader.run_data / produce_batch):
// - one message per element, its value the element's JSON (type, element_id, text, metadata nested,
//   embeddings) — plus `record_id` naming the source document, also sent as a message header;
// - batches of batch_size messages (the platform's default 100), each produced and acknowledged by
//   every in-sync replica (acks=all) before the next, so a file's messages keep their order; a batch
//   also stays under MAX_BATCH_BYTES, below the brokers' default message.max.bytes (1 MB);
// - replace: a topic is an append-only log with no delete, and the platform's uploader does nothing
//   about earlier messages (it sends no key). Here each message is keyed by its element_id, so on a
//   compacted topic (cleanup.policy=compact) a rerun supersedes the earlier copy of each element;
//   on a topic with the default delete policy a rerun appends a second copy, as on the platform.
//   removeRecords is not offered (the registry reports the type cannot remove a document);
// - a message the broker refuses (MESSAGE_TOO_LARGE, TOPIC_AUTHORIZATION_FAILED, ...) fails the
//   file with Kafka's message; retriable errors are retried by kafkajs with back-off.
import { batches } from '../records/batch';
import { RECORD_ID_FIELD } from '../records/stage';
import type { FileRecords, UploadContext, UploadResult } from '../records/types';
import { describeKafkaError, kafkaClient, type KafkaTarget } from './client';

export const DEFAULT_BATCH_SIZE = 100;
export const MAX_BATCH_BYTES = 900 * 1024;

interface OutMessage {
  key: string;
  value: string;
  headers: Record<string, string>;
}

export function kafkaMessages(file: FileRecords): OutMessage[] {
  return file.elements.map((e) => ({
    key: e.element_id,
    value: JSON.stringify({ ...e, [RECORD_ID_FIELD]: file.recordId }),
    headers: { [RECORD_ID_FIELD]: file.recordId },
  }));
}

const batchSizeOf = (c: KafkaTarget) => (Number.isInteger(c.batch_size) && c.batch_size! >= 1 ? c.batch_size! : DEFAULT_BATCH_SIZE);

export async function produceDocument(c: KafkaTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const kafka = await kafkaClient(c);
  const producer = kafka.producer({ allowAutoTopicCreation: false, idempotent: false });
  const onAbort = () => void producer.disconnect();
  ctx.signal?.addEventListener('abort', onAbort, { once: true });
  const messages = kafkaMessages(file);
  let sent = 0;
  try {
    await producer.connect();
    const sizeOf = (m: unknown) => (m as OutMessage).key.length + (m as OutMessage).value.length + 100;
    for (const batch of batches(messages, { maxCount: batchSizeOf(c), maxBytes: MAX_BATCH_BYTES, sizeOf })) {
      ctx.signal?.throwIfAborted();
      await producer.send({ topic: c.topic, acks: -1, timeout: 30_000, messages: batch });
      sent += batch.length;
    }
  } catch (err) {
    const where = sent ? ` after ${sent} of ${messages.length} messages` : '';
    throw new Error(`producing to topic ${c.topic} failed${where}: ${describeKafkaError(err, c)}`);
  } finally {
    ctx.signal?.removeEventListener('abort', onAbort);
    await producer.disconnect().catch(() => undefined);
  }
  return { written: sent };
}
