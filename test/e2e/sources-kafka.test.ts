// Kafka (Confluent Cloud) source through the whole local stack (HTTP API, jobs, state machine), against
// the Kafka-protocol stand-in broker (SASL PLAIN over TLS, consumer groups, Fetch rounds of 2 records):
// kafka-cloud → partition (fast) → local folder. Run 1 processes the N messages the group had not
// consumed, each element carrying the message's data_source; more messages are produced; run 2
// processes only those (the group's committed offsets moved on), and leaves run 1's documents alone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows } from '../support/e2e-flows';
import { resetConfig } from '../../lambdas/config';
import { selfSignedCert } from '../../lambdas/connectors/azure-ai-search/test-server';
import { kafkaClient } from '../../lambdas/connectors/kafka/client';
import { startKafkaStandIn, type KafkaStandIn } from '../../lambdas/connectors/kafka/test-server';

let stack: TestStack;
const flows = e2eFlows(() => stack);
let kb: KafkaStandIn;
const base = mkdtempSync(join(tmpdir(), 'wps-src-kafka-'));
const savedCa = process.env.CONNECTOR_CA_FILE;
const creds = { kafka_api_key: 'E2EREADER', secret: 'kafka-e2e-source-secret' };

async function produce(values: string[]) {
  const producer = (await kafkaClient({ bootstrap_servers: kb.host, port: kb.port, topic: 'notes', ...creds })).producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    await producer.send({ topic: 'notes', acks: -1, messages: values.map((value, i) => ({ value, partition: i % 2 })) });
  } finally {
    await producer.disconnect();
  }
}

before(async () => {
  if (NEEDS_LOCAL) return;
  const tls = selfSignedCert();
  process.env.CONNECTOR_CA_FILE = tls.certFile;
  resetConfig();
  kb = await startKafkaStandIn({ tls, users: { [creds.kafka_api_key]: { secret: creds.secret } }, fetchMaxRecords: 2 });
  kb.addTopic('notes', 2);
  stack = await startTestStack();
});
after(async () => {
  await stack?.close();
  await kb?.stop();
  rmSync(base, { recursive: true, force: true });
  if (savedCa === undefined) delete process.env.CONNECTOR_CA_FILE;
  else process.env.CONNECTOR_CA_FILE = savedCa;
  resetConfig();
});

async function runToEnd(workflowId: string) {
  const { job, details } = await flows.runCompleted(workflowId);
  return { ...details, id: job.id };
}

const written = (dir: string) => readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.json')).sort();

let secondRun: any;

test('kafka-cloud source: run 1 processes the messages not yet consumed, run 2 only the ones produced since', { skip: NEEDS_LOCAL }, async () => {
  await produce(['Message zero is about kettles.', 'Message one is about teapots.', 'Message two is about cups.', 'Message three is about saucers.', 'Message four is about spoons.']);
  const src = await stack.call('POST', '/api/v1/sources/', {
    body: { name: 'notes', type: 'kafka-cloud', config: { bootstrap_servers: kb.host, port: kb.port, ...creds, topic: 'notes', group_id: 'e2e-group', num_messages_to_consume: 4 } },
  });
  assert.equal(src.status, 200, src.text);
  assert.equal(src.body.config.secret, '**********');
  const check = await stack.call('POST', `/api/v1/sources/${src.body.id}/connection-check`);
  assert.ok(check.status < 300, check.text);
  const outDir = mkdtempSync(join(base, 'out-'));
  const dest = await stack.call('POST', '/api/v1/destinations/', { body: { name: 'out', type: 'local', config: { remote_url: outDir } } });
  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: {
      name: 'wf-kafka', workflow_type: 'custom', source_id: src.body.id, destination_id: dest.body.id,
      workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
    },
  });
  assert.equal(wf.status, 200, wf.text);

  const first = await runToEnd(wf.body.id);
  assert.equal(first.source_documents.listed, 4, JSON.stringify(first.source_documents));
  assert.equal(first.source_documents.processed, 4, JSON.stringify(first.source_documents));
  const run1 = written(outDir);
  assert.equal(run1.length, 4, run1.join(','));
  const elements = run1.flatMap((f) => JSON.parse(readFileSync(join(outDir, f), 'utf8')) as any[]);
  for (const e of elements) {
    const ds = e.metadata.data_source;
    assert.ok(ds?.url && ds.version && ds.record_locator && ds.date_created && ds.date_processed, JSON.stringify(e.metadata));
    assert.equal(e.metadata.filename, `notes_${ds.record_locator.partition}_${ds.record_locator.offset}.txt`);
    assert.equal(ds.version, `${ds.record_locator.partition}:${ds.record_locator.offset}`);
  }
  assert.ok(elements.some((e) => e.text === 'Message zero is about kettles.'), JSON.stringify(elements.map((e) => e.text)));
  assert.equal(kb.committed('e2e-group', 'notes', 0)! + kb.committed('e2e-group', 'notes', 1)!, 4, 'the group committed the 4 messages listed');

  await produce(['Message five is about forks.', 'Message six is about knives.']);
  secondRun = { ...(await runToEnd(wf.body.id)), workflowId: wf.body.id, outDir };
  assert.equal(secondRun.source_documents.listed, 3, JSON.stringify(secondRun.source_documents));
  assert.equal(secondRun.source_documents.processed, 3, JSON.stringify(secondRun.source_documents));
  const added = written(outDir).filter((f) => !run1.includes(f));
  assert.equal(added.length, 3, added.join(','));
  const textsOf = (files: string[]) => files.flatMap((f) => (JSON.parse(readFileSync(join(outDir, f), 'utf8')) as any[]).map((e) => e.text));
  const texts = textsOf(added);
  assert.ok(texts.includes('Message five is about forks.') && texts.includes('Message six is about knives.'), texts.join(' | '));
  const all = [...textsOf(run1), ...texts];
  assert.equal(new Set(all).size, 7, `every message processed once over the two runs: ${all.join(' | ')}`);
  assert.equal(all.length, 7);
});

// Run 2 lists only the new messages; run 1's documents are still in the topic: the planner reads
// definition.stream (IncrementalRuns.plan), so they do not count as gone from the source.
test('kafka-cloud source: documents of earlier runs are not "gone from the source"', { skip: NEEDS_LOCAL }, () => {
  assert.ok(secondRun, 'the two runs ran');
  assert.equal(secondRun.source_documents.gone_from_source, 0, JSON.stringify(secondRun.source_documents));
  assert.equal(secondRun.source_documents.removed, 0, JSON.stringify(secondRun.source_documents));
});

// A message whose processing fails is not lost: the listing does not commit, the job does once it is
// done, and it keeps the failed message for the next run (the group has moved past it: the stream will
// not list it again). Offset 5 of partition 0 is made unreadable at the broker (a Fetch starting
// exactly there fails; the listing's Fetch rounds start at even offsets, a read seeks to it exactly).
test('kafka-cloud source: a message that failed is processed again by the next run, then never again', { skip: NEEDS_LOCAL }, async () => {
  assert.ok(secondRun, 'the two runs ran');
  const wfId = secondRun.workflowId as string;
  const outDir = secondRun.outDir as string;
  const before = written(outDir);
  await produce(['Message seven is about plates.', 'Message eight is about bowls.', 'Message nine is about jugs.']);
  kb.unreadable('notes', 0, 5);
  const third = await runToEnd(wfId);
  assert.equal(third.source_documents.listed, 3, JSON.stringify(third.source_documents));
  assert.equal(third.processing_status, 'COMPLETED_WITH_ERRORS', JSON.stringify(third));
  const failed = (await stack.call('GET', `/api/v1/jobs/${third.id}/failed-files`)).body.failed_files;
  assert.deepEqual(failed.map((f: any) => f.document), ['notes_0_5.txt'], JSON.stringify(failed));
  assert.equal(kb.committed('e2e-group', 'notes', 0), 6, 'the job committed past every message it listed, the failed one included');
  assert.equal(kb.committed('e2e-group', 'notes', 1), 4);
  assert.equal(written(outDir).length, before.length + 2);

  kb.readable('notes', 0, 5);
  const fourth = await runToEnd(wfId);
  assert.equal(fourth.processing_status, 'SUCCESS', JSON.stringify(fourth));
  assert.equal(fourth.source_documents.retried_from_earlier_runs, 1, JSON.stringify(fourth.source_documents));
  assert.equal(fourth.source_documents.processed, 1, JSON.stringify(fourth.source_documents));
  const added = written(outDir).filter((f) => !before.includes(f));
  const texts = added.flatMap((f) => (JSON.parse(readFileSync(join(outDir, f), 'utf8')) as any[]).map((e) => e.text));
  assert.ok(texts.includes('Message nine is about jugs.'), texts.join(' | '));

  const fifth = await runToEnd(wfId);
  assert.equal(fifth.source_documents.listed, 0, JSON.stringify(fifth.source_documents));
  assert.equal(fifth.source_documents.processed, 0, JSON.stringify(fifth.source_documents));
});
