// Kafka destination on Confluent Cloud (type `kafka-cloud`, fields from the platform's table:
// bootstrap_servers, port, kafka_api_key, secret, topic, batch_size, group_id). Produces one JSON
// message per element (see writer.ts for the message, the batching and what a rerun does).
// Check, as the platform's precheck: an authenticated metadata request (SASL PLAIN over TLS) listing
// the cluster's topics, which must include the topic (FAILURE naming what is missing: topics are not
// created by the service nor, on Confluent Cloud, automatically), and the topic's partitions must
// have leaders. Kafka has no harmless write, so write permission is shown by the first write.
import { defineConnector, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { addTargetIssues, describeKafkaError, kafkaClient, type KafkaTarget } from './client';
import { produceDocument } from './writer';
import { checkBatchSize, refineWith } from '../schema';

type KafkaConfig = KafkaTarget & ConnectorConfig;

const refine = refineWith<KafkaConfig>((c, ctx) => {
  addTargetIssues(c, ctx);
  checkBatchSize(c, ctx);
});

export const kafkaCloudDestination = defineConnector<KafkaConfig>({
  ...derivedShape('destination', 'kafka-cloud', refine),
  check: async (c, ctx) => {
    const kafka = await kafkaClient(c, { connectionTimeout: Math.min(10_000, Math.floor(ctx.timeoutMs / 2)), retries: 1 });
    const admin = kafka.admin();
    const onAbort = () => void admin.disconnect();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      let topics: string[];
      try {
        await admin.connect();
        topics = (await admin.listTopics()).filter((t) => t !== '__consumer_offsets');
      } catch (err) {
        throw new Error(`cannot list the cluster's topics: ${describeKafkaError(err, c)}`);
      }
      if (!topics.includes(c.topic)) {
        const has = topics.sort().slice(0, 20).join(', ');
        throw new Error(`topic ${c.topic} does not exist in the cluster (${topics.length ? `it has: ${has}${topics.length > 20 ? ', ...' : ''}` : 'it has no topics the key may see'}); create it first`);
      }
      const meta = await admin.fetchTopicMetadata({ topics: [c.topic] }).catch((err) => {
        throw new Error(`cannot read the metadata of topic ${c.topic}: ${describeKafkaError(err, c)}`);
      });
      const partitions = meta.topics[0]?.partitions ?? [];
      const leaderless = partitions.filter((p) => p.leader < 0).length;
      if (!partitions.length || leaderless) throw new Error(`topic ${c.topic} has ${leaderless} of ${partitions.length} partitions without a leader: it cannot take writes now`);
      return `topic ${c.topic}: ${partitions.length} partition${partitions.length === 1 ? '' : 's'}, all with a leader; authenticated (SASL PLAIN over TLS); write permission is shown by the first write`;
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      await admin.disconnect().catch(() => undefined);
    }
  },
  upload: (c, file, ctx) => produceDocument(c, file, ctx),
});
