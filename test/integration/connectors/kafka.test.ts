// Kafka (Confluent Cloud) destination through the registry and kafkajs, against the local stand-in
// broker that speaks the Kafka protocol over TLS (self-signed, trusted through CONNECTOR_CA_FILE) with
// SASL PLAIN, and keeps the record batches it receives: one JSON message per element (+ record_id),
// keyed by element_id, batches of batch_size, retriable errors retried, refusals in Kafka's words.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFails, configIssues, envScope, nothingReached, withEnv } from '../../support/connector-tests';
import { checkConnection, deliverToDestination, outputConfig, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId } from '../../../lambdas/connectors/records/ids';
import { selfSignedCert } from '../../../lambdas/connectors/azure-ai-search/test-server';
import { startKafkaStandIn, type KafkaStandIn } from '../../../lambdas/connectors/kafka/test-server';
import { closedPort } from './helpers';
import { DIMS, element, elements, vec } from './vector-fixtures';

const KEY = 'CKEYAPPWRITER01';
const SECRET = 'kafka-secret-value-123';
let kb: KafkaStandIn;
const env = envScope(['CONNECTOR_CA_FILE']);
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'kafka-cloud', { bootstrap_servers: kb.host, port: kb.port, kafka_api_key: KEY, secret: SECRET, topic: 'elements', ...over });
const values = (topic = 'elements') => kb.messages(topic).map((m) => ({ ...m, json: JSON.parse(m.value!.toString('utf8')) }));
const mine = (sourceKey: string, topic = 'elements') => values(topic).filter((m) => m.json.record_id === documentRecordId('src', sourceKey));
const produces = (from: number) => kb.requests.slice(from).filter((r) => r.api === 'Produce');

before(async () => {
  const tls = selfSignedCert();
  env.set({ CONNECTOR_CA_FILE: tls.certFile });
  kb = await startKafkaStandIn({ tls, users: { [KEY]: { secret: SECRET }, READER: { secret: 'reader-secret', readOnly: ['elements'] } }, maxMessageBytes: 64 * 1024 });
  kb.addTopic('elements', 3);
  kb.addTopic('other', 1);
});
after(async () => {
  await kb?.stop();
  env.restore();
});

test('config: the platform fields; key and secret masked; topic names and literal hosts checked', () => {
  const out = outputConfig('destination', 'kafka-cloud', config());
  assert.equal(out.kafka_api_key, '**********');
  assert.equal(out.secret, '**********');
  assert.equal(config().batch_size, 100);
  const issue = (over: Record<string, unknown>) => configIssues(() => validateConfig('destination', 'kafka-cloud', { bootstrap_servers: 'pkc-1.us-east-1.aws.confluent.cloud', kafka_api_key: 'k', secret: 's', topic: 't', ...over })) || undefined;
  assert.equal(issue({}), undefined);
  assert.equal(issue({ bootstrap_servers: 'SASL_SSL://pkc-1.confluent.cloud:9092,pkc-2.confluent.cloud' }), undefined);
  assert.match(issue({ topic: 'bad topic!' })!, /body\.config\.topic: topic must be 1 to 249 letters/);
  assert.match(issue({ bootstrap_servers: '169.254.169.254' })!, /body\.config\.bootstrap_servers: host 169\.254\.169\.254 is an instance metadata address/);
  assert.match(issue({ bootstrap_servers: ' , ' })!, /bootstrap_servers must name at least one server/);
  assert.match(issue({ batch_size: 0 })!, /body\.config\.batch_size/);
});

test('check: authenticated metadata lists the topic; wrong secret, missing topic, untrusted TLS and a closed port fail with the reason', async () => {
  const ok = await checkConnection('destination', 'kafka-cloud', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, 'topic elements: 3 partitions, all with a leader; authenticated (SASL PLAIN over TLS); write permission is shown by the first write');
  const seen = kb.requests.filter((r) => r.api === 'SaslAuthenticate' || r.api === 'Metadata');
  assert.ok(seen.some((r) => r.api === 'Metadata' && r.user === KEY), 'metadata asked after SASL authentication');

  const bad = await checkConnection('destination', 'kafka-cloud', config({ secret: 'wrong-secret-456' }));
  assert.equal(bad.status, 'FAILURE');
  assert.match(bad.reason!, /^cannot list the cluster's topics: SASL PLAIN authentication failed: Authentication failed: Invalid username or password/);

  const missing = await checkConnection('destination', 'kafka-cloud', config({ topic: 'absent' }));
  assert.equal(missing.status, 'FAILURE');
  assert.equal(missing.reason, 'topic absent does not exist in the cluster (it has: elements, other); create it first');

  const untrusted = await withEnv({ CONNECTOR_CA_FILE: undefined }, () => checkConnection('destination', 'kafka-cloud', config()));
  assert.equal(untrusted.status, 'FAILURE');
  assert.match(untrusted.reason!, /self-signed certificate/);

  const down = await checkConnection('destination', 'kafka-cloud', config({ port: await closedPort() }), { timeoutMs: 8000 });
  assert.equal(down.status, 'FAILURE');
  assert.match(down.reason!, /^cannot list the cluster's topics: .*ECONNREFUSED/);
  for (const r of [bad, missing, untrusted, down]) assert.ok(!r.reason!.includes(SECRET) && !r.reason!.includes('wrong-secret-456') && !r.reason!.includes(KEY), r.reason);
});

test('write: one JSON message per element (+ record_id), keyed by element_id; a rerun appends (a topic has no delete)', async () => {
  const first = await deliverToDestination('kafka-cloud', config(), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(3) });
  assert.deepEqual(first, { written: 3 });
  const got = mine('a.txt');
  assert.equal(got.length, 3);
  const title = got.find((m) => m.json.text === 'text 0')!;
  assert.equal(title.key!.toString(), 'el-0-6');
  assert.deepEqual(title.headers, { record_id: documentRecordId('src', 'a.txt') });
  assert.deepEqual(Object.keys(title.json).sort(), ['element_id', 'embeddings', 'metadata', 'record_id', 'text', 'type']);
  assert.equal(title.json.type, 'Title');
  assert.equal(title.json.embeddings.length, DIMS);
  assert.deepEqual(title.json.embeddings.slice(0, 3), vec(0).slice(0, 3));
  assert.equal(title.json.metadata.data_source.url, 's3://b/a.txt');
  assert.deepEqual(title.json.metadata.languages, ['eng']);

  // A compacted topic keeps the last message per key: the rerun's messages carry the same keys.
  const again = await deliverToDestination('kafka-cloud', config(), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(3) });
  assert.deepEqual(again, { written: 3 });
  const keys = mine('a.txt').map((m) => m.key!.toString());
  assert.deepEqual([...new Set(keys)].sort(), ['el-0-6', 'el-1-6', 'el-2-6']);
  assert.equal(keys.length, 6);
  assert.equal(await removeDocumentRecords('kafka-cloud', config(), { sourceId: 'src', sourceKey: 'a.txt' }), undefined, 'a topic cannot remove a document');
});

test('batches honour batch_size; retriable errors (not enough replicas, with throttle time) are retried to one copy', async () => {
  let from = kb.requests.length;
  await deliverToDestination('kafka-cloud', config({ batch_size: 2 }), { sourceId: 'src', sourceKey: 'batched.txt', elements: elements(5) });
  const sizes = produces(from).map((r) => (r.detail as { records: number }[]).reduce((n, p) => n + p.records, 0));
  assert.deepEqual(sizes, [2, 2, 1]);
  assert.equal(mine('batched.txt').length, 5);

  kb.fail({ api: 'Produce', errorCode: 19, throttleMs: 200, times: 2 }); // NOT_ENOUGH_REPLICAS: retriable
  from = kb.requests.length;
  const r = await deliverToDestination('kafka-cloud', config({ topic: 'other' }), { sourceId: 'src', sourceKey: 'retried.txt', elements: elements(4) });
  assert.deepEqual(r, { written: 4 });
  assert.equal(produces(from).length, 3, 'two refused attempts, then the accepted one');
  assert.equal(mine('retried.txt', 'other').length, 4, 'one copy');
});

test('a message the broker refuses fails the file with Kafka\'s message; so does a topic the key may not write', async () => {
  const big = element(0, 'x'.repeat(80 * 1024));
  await assert.rejects(
    deliverToDestination('kafka-cloud', config(), { sourceId: 'src', sourceKey: 'big.txt', elements: [big] }),
    (err: Error) => /^producing to topic elements failed: The request included a message larger than the max message size the server will accept \(MESSAGE_TOO_LARGE\)$/.test(err.message),
  );
  assert.equal(mine('big.txt').length, 0);
  const reader = config({ kafka_api_key: 'READER', secret: 'reader-secret' });
  await assert.rejects(
    deliverToDestination('kafka-cloud', reader, { sourceId: 'src', sourceKey: 'r.txt', elements: elements(1) }),
    (err: Error) => /^producing to topic elements failed: Not authorized to access topics: \[Topic authorization failed\] \(TOPIC_AUTHORIZATION_FAILED\)$/.test(err.message),
  );
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS: a name resolving to loopback is refused before any request', async () => {
  const named = config({ bootstrap_servers: 'localhost' });
  await nothingReached(() => kb.requests.length, async () => {
    assert.throws(() => config(), /body\.config\.bootstrap_servers: host 127\.0\.0\.1 resolves to a private network address/);
    await checkFails('destination', 'kafka-cloud', named, /host localhost resolves to a private network address/, { timeoutMs: 8000 });
    await assert.rejects(deliverToDestination('kafka-cloud', named, { sourceId: 'src', sourceKey: 'a.txt', elements: elements(1) }), /private network address/);
  }, { message: 'nothing reached the broker' });
});
