// Kafka (Confluent Cloud) source through the registry and kafkajs' consumer, against the stand-in
// broker (TLS, trusted through CONNECTOR_CA_FILE, SASL PLAIN) extended with the consumer requests:
// messages are produced by kafkajs' producer, the source consumes them in its group from the committed
// offsets (Fetch rounds of at most 2 records), commits only when the run acknowledges the checkpoint
// of a complete listing, and reads a
// message again at its exact offset with a throwaway group.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFails, envScope, nothingReached } from '../../support/connector-tests';
import { acknowledgeSource, checkConnection, isStreamSource, listSourceObjects, outputConfig, readSourceObject, validateConfig } from '../../../lambdas/connectors/registry';
import { kafkaClient, type KafkaTarget } from '../../../lambdas/connectors/kafka/client';
import { selfSignedCert } from '../../../lambdas/connectors/azure-ai-search/test-server';
import { startKafkaStandIn, type KafkaStandIn } from '../../../lambdas/connectors/kafka/test-server';
import type { SourceObject } from '../../../lambdas/connectors/definition';
import { collect } from './helpers';

const KEY = 'CKEYAPPREADER01';
const SECRET = 'kafka-source-secret-789';
let kb: KafkaStandIn;
const env = envScope(['CONNECTOR_CA_FILE']);
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('source', 'kafka-cloud', { bootstrap_servers: kb.host, port: kb.port, kafka_api_key: KEY, secret: SECRET, topic: 'events', group_id: 'wf-group', num_messages_to_consume: 7, ...over });

async function produce(topic: string, messages: { partition: number; value: Buffer | string }[]) {
  const producer = (await kafkaClient(config({ topic }) as unknown as KafkaTarget)).producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages: messages.map((m) => ({ partition: m.partition, value: m.value, timestamp: String(Date.UTC(2026, 10, 25, 12, 0, 0)) })) });
  } finally {
    await producer.disconnect();
  }
}
const keys = (objs: SourceObject[]) => objs.map((o) => o.key);
/** What a job does with a stream source: list (taking the checkpoint), then acknowledge it once done. */
async function runOnce(c: ReturnType<typeof config>): Promise<SourceObject[]> {
  let checkpoint: Record<string, unknown> | undefined;
  const objs = await collect(listSourceObjects('kafka-cloud', c, { checkpoint: (v) => (checkpoint = v) }));
  if (checkpoint) await acknowledgeSource('kafka-cloud', c, checkpoint);
  return objs;
}
const fetchesSince = (from: number) => kb.requests.slice(from).filter((r) => r.api === 'Fetch');

before(async () => {
  const tls = selfSignedCert();
  env.set({ CONNECTOR_CA_FILE: tls.certFile });
  kb = await startKafkaStandIn({
    tls,
    users: { [KEY]: { secret: SECRET }, NOTOPIC: { secret: 'nt-secret', denied: ['events'] }, NOGROUP: { secret: 'ng-secret', deniedGroups: ['wf-group'] } },
    fetchMaxRecords: 2,
  });
  kb.addTopic('events', 3);
  kb.addTopic('other', 1);
  kb.addTopic('quiet', 1);
  kb.addTopic('throttled', 1);
  await produce('events', Array.from({ length: 10 }, (_, i) => ({ partition: 0, value: `This is some text for message ${i}` })));
});
after(async () => {
  await kb?.stop();
  env.restore();
});

test('config: the platform fields and defaults (group default_group_id, 100 messages); key and secret masked; a stream source', () => {
  const c = validateConfig('source', 'kafka-cloud', { bootstrap_servers: 'pkc-1.us-east-1.aws.confluent.cloud', kafka_api_key: 'k', secret: 's', topic: 't' });
  assert.equal(c.num_messages_to_consume, 100);
  assert.equal(c.port, 9092);
  const out = outputConfig('source', 'kafka-cloud', config());
  assert.equal(out.kafka_api_key, '**********');
  assert.equal(out.secret, '**********');
  assert.throws(() => config({ topic: 'bad topic!' }), /body\.config\.topic: topic must be 1 to 249/);
  assert.equal(isStreamSource('kafka-cloud'), true);
  assert.equal(isStreamSource('s3'), false);
});

test('check: authenticated metadata, topic offsets and the group; the store\'s own text on failure, never the secret', async () => {
  const ok = await checkConnection('source', 'kafka-cloud', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, 'topic events: 3 partitions, 10 messages; consumer group wf-group (new): 10 not consumed yet; authenticated (SASL PLAIN over TLS)');
  assert.ok(kb.requests.some((r) => r.api === 'OffsetFetch' && r.user === KEY && (r.detail as { group: string }).group === 'wf-group'));

  const bad = await checkConnection('source', 'kafka-cloud', config({ secret: 'wrong-secret-456' }));
  assert.equal(bad.status, 'FAILURE');
  assert.match(bad.reason!, /^cannot connect to the cluster: SASL PLAIN authentication failed: Authentication failed: Invalid username or password/);
  assert.ok(!bad.reason!.includes('wrong-secret-456') && !bad.reason!.includes(KEY));

  const missing = await checkConnection('source', 'kafka-cloud', config({ topic: 'absent' }));
  assert.equal(missing.status, 'FAILURE');
  assert.match(missing.reason!, /^cannot read the metadata of topic absent: .*\(UNKNOWN_TOPIC_OR_PARTITION\)$/);

  const denied = await checkConnection('source', 'kafka-cloud', config({ kafka_api_key: 'NOTOPIC', secret: 'nt-secret' }));
  assert.equal(denied.status, 'FAILURE');
  assert.match(denied.reason!, /^cannot read the metadata of topic events: .*\(TOPIC_AUTHORIZATION_FAILED\)$/);

  const noGroup = await checkConnection('source', 'kafka-cloud', config({ kafka_api_key: 'NOGROUP', secret: 'ng-secret' }));
  assert.equal(noGroup.status, 'FAILURE');
  assert.match(noGroup.reason!, /consumer group wf-group: .*\(GROUP_AUTHORIZATION_FAILED\)$/);
  await assert.rejects(
    runOnce(config({ kafka_api_key: 'NOGROUP', secret: 'ng-secret' })),
    /^Error: consuming topic events in group wf-group failed: Not authorized to access group: Group authorization failed \(GROUP_AUTHORIZATION_FAILED\)$/,
  );
});

test('list: num_messages_to_consume messages from the group\'s offsets over several Fetch rounds; committed when the run acknowledges; the next list goes on from there', async () => {
  const from = kb.requests.length;
  let checkpoint: Record<string, unknown> | undefined;
  const first = await collect(listSourceObjects('kafka-cloud', config(), { checkpoint: (v) => (checkpoint = v) }));
  assert.equal(kb.committed('wf-group', 'events', 0), undefined, 'listing alone commits nothing');
  assert.ok(!kb.requests.slice(from).some((r) => r.api === 'OffsetCommit'), 'no OffsetCommit during the listing');
  assert.deepEqual(checkpoint, { topic: 'events', group_id: 'wf-group', offsets: [{ partition: 0, offset: 7 }] });
  assert.deepEqual(keys(await collect(listSourceObjects('kafka-cloud', config()))), keys(first), 'not acknowledged: the next listing lists the same messages');
  await acknowledgeSource('kafka-cloud', config({ topic: 'other' }), checkpoint!);
  assert.equal(kb.committed('wf-group', 'events', 0), undefined, 'a checkpoint of another topic is not applied');
  await acknowledgeSource('kafka-cloud', config(), checkpoint!);
  assert.deepEqual(keys(first), [0, 1, 2, 3, 4, 5, 6].map((i) => `events_0_${i}`));
  const fetches = fetchesSince(from).filter((f) => (f.detail as { fetched: { records: number }[] }).fetched.some((p) => p.records > 0));
  assert.ok(fetches.length >= 3, `${fetches.length} Fetch rounds returned records`);
  const o = first[3]!;
  assert.equal(o.filename, 'events_0_3.txt');
  assert.equal(o.size, Buffer.byteLength('This is some text for message 3'));
  assert.equal(o.version, '0:3');
  assert.deepEqual(o.dataSource, {
    url: `kafka://${kb.host}:${kb.port}/events/0/3`,
    version: '0:3',
    record_locator: { topic: 'events', partition: 0, offset: 3 },
    date_created: String(Date.UTC(2026, 10, 25, 12, 0, 0) / 1000) + '.0',
  });
  assert.equal(kb.committed('wf-group', 'events', 0), 7, 'offset committed past the last message listed');
  assert.ok(kb.requests.slice(from).some((r) => r.api === 'LeaveGroup'), 'the member left the group');
  await acknowledgeSource('kafka-cloud', config(), { ...checkpoint!, offsets: [{ partition: 0, offset: 3 }] });
  assert.equal(kb.committed('wf-group', 'events', 0), 7, 'an older checkpoint never moves the group back');

  await produce('events', [
    { partition: 1, value: 'on partition one' },
    { partition: 2, value: 'on partition two' },
  ]);
  const second = await runOnce(config());
  assert.deepEqual(keys(second), ['events_0_7', 'events_0_8', 'events_0_9', 'events_1_0', 'events_2_0']);
  assert.equal(kb.committed('wf-group', 'events', 0), 10);
  assert.equal(kb.committed('wf-group', 'events', 1), 1);
  assert.equal(kb.committed('wf-group', 'events', 2), 1);

  const before = kb.requests.length;
  assert.deepEqual(await runOnce(config()), []);
  assert.ok(!kb.requests.slice(before).some((r) => r.api === 'JoinGroup'), 'nothing pending: the group is not even joined');
});

test('an abandoned listing commits nothing: the next one lists the same messages', async () => {
  await produce('other', Array.from({ length: 4 }, (_, i) => ({ partition: 0, value: `m${i}` })));
  const c = config({ topic: 'other', group_id: 'abandon-group' });
  for await (const o of listSourceObjects('kafka-cloud', c)) {
    assert.equal(o.key, 'other_0_0');
    break;
  }
  assert.equal(kb.committed('abandon-group', 'other', 0), undefined);
  assert.deepEqual(keys(await runOnce(c)), ['other_0_0', 'other_0_1', 'other_0_2', 'other_0_3']);
  assert.equal(kb.committed('abandon-group', 'other', 0), 4);
});

test('read: the exact bytes at that offset (binary too), without moving the group; an offset outside the log fails with the reason', async () => {
  const bytes = Buffer.from([0xff, 0x00, 0xfe, 0x41, 0x0a, 0xc3]);
  await produce('quiet', [{ partition: 0, value: 'first' }, { partition: 0, value: bytes }, { partition: 0, value: 'third' }]);
  const c = config({ topic: 'quiet', group_id: 'quiet-group' });
  const from = kb.requests.length;
  assert.deepEqual(Buffer.from(await readSourceObject('kafka-cloud', c, 'quiet_0_1')), bytes);
  assert.equal(Buffer.from(await readSourceObject('kafka-cloud', c, 'quiet_0_2')).toString(), 'third');
  assert.equal(Buffer.from(await readSourceObject('kafka-cloud', config(), 'events_0_8')).toString(), 'This is some text for message 8');
  const groups = kb.requests.slice(from).filter((r) => r.api === 'JoinGroup').map((r) => (r.detail as { group: string }).group);
  assert.ok(groups.length >= 3 && groups.every((g) => /^(quiet-group|wf-group)\.read\.[0-9a-f-]{36}$/.test(g)), groups.join(', '));
  assert.ok(!kb.requests.slice(from).some((r) => r.api === 'OffsetCommit'), 'reads never commit');
  assert.equal(kb.committed('quiet-group', 'quiet', 0), undefined);

  await assert.rejects(readSourceObject('kafka-cloud', c, 'quiet_0_3'), /^Error: there is no message at offset 3 of partition 0 of topic quiet \(the partition ends before offset 3\)$/);
  await assert.rejects(readSourceObject('kafka-cloud', c, 'quiet_5_0'), /topic quiet has no partition 5/);
  await assert.rejects(readSourceObject('kafka-cloud', c, 'events_0_1'), /"events_0_1" is not a message of topic quiet/);
  await assert.rejects(readSourceObject('kafka-cloud', config({ kafka_api_key: 'NOTOPIC', secret: 'nt-secret' }), 'events_0_1'), /TOPIC_AUTHORIZATION_FAILED/);
});

test('a throttled Fetch (throttle_time_ms) is waited out and fetched again; a retriable Fetch error is retried', async () => {
  await produce('throttled', Array.from({ length: 5 }, (_, i) => ({ partition: 0, value: `t${i}` })));
  kb.fail({ api: 'Fetch', errorCode: 0, throttleMs: 700, times: 1 });
  kb.fail({ api: 'Fetch', errorCode: 6, times: 1 }); // NOT_LEADER_FOR_PARTITION: kafkajs refreshes metadata
  const from = kb.requests.length;
  const listed = await runOnce(config({ topic: 'throttled', group_id: 'throttle-group' }));
  assert.deepEqual(keys(listed), [0, 1, 2, 3, 4].map((i) => `throttled_0_${i}`));
  const fetches = fetchesSince(from);
  const t = fetches.findIndex((f) => (f.detail as { throttled: boolean }).throttled);
  assert.ok(t >= 0, 'a Fetch was throttled');
  const next = fetches[t + 1]!;
  assert.ok(next.at - fetches[t]!.at >= 650, `the next Fetch came ${next.at - fetches[t]!.at} ms after the throttled one (throttle 700 ms)`);
  assert.ok(fetches.some((f) => (f.detail as { fetched: { error: number }[] }).fetched.some((p) => p.error === 6)), 'the NOT_LEADER answer was given');
  assert.equal(kb.committed('throttle-group', 'throttled', 0), 5);
});

test('a partition ending in a transaction marker (a control record, never handed to the consumer) still ends the listing; the marker is committed past', async () => {
  kb.addTopic('txn', 1);
  await produce('txn', [{ partition: 0, value: 'written in a transaction' }, { partition: 0, value: 'committed by it' }]);
  kb.markTransaction('txn', 0);
  const c = config({ topic: 'txn', group_id: 'txn-group', num_messages_to_consume: 100 });
  assert.deepEqual(keys(await runOnce(c)), ['txn_0_0', 'txn_0_1']);
  assert.equal(kb.committed('txn-group', 'txn', 0), 3, 'committed past the marker (offset 2)');
  const from = kb.requests.length;
  assert.deepEqual(await runOnce(c), []);
  assert.ok(!kb.requests.slice(from).some((r) => r.api === 'JoinGroup'), 'nothing pending');
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS: a name resolving to loopback is refused before any request', async () => {
  const named = config({ bootstrap_servers: 'localhost' });
  await nothingReached(() => kb.requests.length, async () => {
    await checkFails('source', 'kafka-cloud', named, /host localhost resolves to a private network address/, { timeoutMs: 8000 });
    await assert.rejects(runOnce(named), /private network address/);
    await assert.rejects(readSourceObject('kafka-cloud', named, 'events_0_0'), /private network address/);
  }, { message: 'nothing reached the broker' });
});
