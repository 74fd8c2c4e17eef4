// Workflows writing into Kafka (Confluent Cloud: the Kafka-protocol stand-in broker, SASL PLAIN over
// TLS, through kafkajs) and Snowflake (the REST stand-in running the SQL on PGlite, through the
// official snowflake-sdk) through the HTTP API: local source → partition → chunk → embed (built-in
// 384-dim embedder) → destination, run twice. Snowflake: one copy of each file's rows, 384-dim
// vectors, metadata. Kafka: a topic is append-only (as on the platform), so the second run appends;
// its messages carry the same keys (element ids), so a compacted topic keeps one copy of each.
// Destinations that validate but point nowhere fail their check and their files with the store's
// reason; the jobs finish and free their slots. One stack serves both families.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL } from '../support/local-stack';
import { assertSampleRow, destinationSuite, tally } from '../support/e2e-flows';
import { setConfigEnv } from '../support/stand-in-ca';
import { selfSignedCert } from '../../lambdas/connectors/azure-ai-search/test-server';
import { startKafkaStandIn, type KafkaStandIn } from '../../lambdas/connectors/kafka/test-server';
import { platformElementsTable, startSnowflakeStandIn, type SnowflakeStandIn } from '../../lambdas/connectors/snowflake/test-server';
import { closedPort } from '../integration/connectors/helpers';

let kafka: KafkaStandIn;
let snow: SnowflakeStandIn;
let untrustCa: (() => void) | undefined;
const { connect, workflow, runToEnd, twice, pointNowhere } = destinationSuite('wps-ksdest-', {
  start: async () => {
    const tls = selfSignedCert();
    untrustCa = setConfigEnv({ CONNECTOR_CA_FILE: tls.certFile });
    kafka = await startKafkaStandIn({ tls, users: { E2EKEY: { secret: 'kafka-e2e-secret' } } });
    kafka.addTopic('elements', 3);
    snow = await startSnowflakeStandIn({ tls, account: 'myorg-e2e', users: { app: { password: 'snow-e2e-secret' } }, database: 'WF', schema: 'PUBLIC' });
    await snow.ddl(platformElementsTable('elements', 384));
  },
  stop: async () => {
    await Promise.all([kafka?.stop(), snow?.stop()]);
    untrustCa?.();
  },
});

test('snowflake: two runs leave one copy of each file\'s rows, 384-dim vectors, metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await connect('sf', 'snowflake', { account: 'myorg-e2e', user: 'app', password: 'snow-e2e-secret', host: snow.host, port: snow.port, database: 'WF', schema: 'PUBLIC', role: 'SYSADMIN', batch_size: 20 }, ['password']);
  await twice(await workflow('to-snowflake', id), async () => tally(await snow.rows('elements'), (r) => r.filename));
  const rows = await snow.rows('elements');
  const sample = rows.find((r) => r.filename === 'fake-text.txt')!;
  assertSampleRow(sample);
  assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, 'no element twice');
});

test('kafka-cloud: one JSON message per element with its 384-dim vector and metadata; a rerun appends under the same keys', { skip: NEEDS_LOCAL }, async () => {
  const id = await connect('kc', 'kafka-cloud', { bootstrap_servers: kafka.host, port: kafka.port, kafka_api_key: 'E2EKEY', secret: 'kafka-e2e-secret', topic: 'elements', batch_size: 20 }, ['kafka_api_key', 'secret']);
  const wf = await workflow('to-kafka', id);
  const messages = () => kafka.messages('elements').map((m) => ({ key: m.key!.toString(), json: JSON.parse(m.value!.toString()) }));
  const first = await runToEnd(wf);
  assert.equal(first.status, 'COMPLETED', JSON.stringify(first));
  const once = tally(messages(), (m) => m.json.metadata?.filename);
  assert.deepEqual(Object.keys(once).sort(), ['README.md', 'fake-text.txt']);
  const second = await runToEnd(wf);
  assert.equal(second.status, 'COMPLETED', JSON.stringify(second));
  const all = messages();
  assert.deepEqual(tally(all, (m) => m.json.metadata?.filename), Object.fromEntries(Object.entries(once).map(([f, n]) => [f, 2 * n])), 'append-only: the rerun appended');
  const latest = new Map(all.map((m) => [m.key, m]));
  assert.deepEqual(tally([...latest.values()], (m) => m.json.metadata?.filename), once, 'one message per key: a compacted topic keeps one copy');
  const sample = all.find((m) => m.json.metadata?.filename === 'fake-text.txt')!;
  assert.equal(sample.key, sample.json.element_id);
  assert.equal(sample.json.embeddings.length, 384);
  assert.equal(sample.json.type, 'CompositeElement');
  assert.equal(sample.json.metadata.filetype, 'text/plain');
  assert.ok(sample.json.record_id && String(sample.json.text).length > 0);
});

test('destinations that point nowhere: FAILURE checks, files failed with the store\'s reason, jobs finished', { skip: NEEDS_LOCAL }, async () => {
  const port = await closedPort();
  const cases = [
    { type: 'snowflake', config: { account: 'myorg-e2e', user: 'app', password: 'snow-nowhere-secret', host: '127.0.0.1', port, database: 'WF', schema: 'PUBLIC', role: 'R' }, secret: 'snow-nowhere-secret', reason: /cannot log in to 127\.0\.0\.1: .*ECONNREFUSED/ },
    { type: 'kafka-cloud', config: { bootstrap_servers: '127.0.0.1', port, kafka_api_key: 'NOWHEREKEY', secret: 'kafka-nowhere-secret', topic: 'elements' }, secret: 'kafka-nowhere-secret', reason: /ECONNREFUSED/ },
  ];
  await pointNowhere(cases);
});
