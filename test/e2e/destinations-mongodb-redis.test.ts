// Workflows writing into MongoDB (the wire-protocol stand-in, through the official driver) and Redis
// (a real redis-server, through node-redis; skipped when it is not installed) through the HTTP API:
// local source → partition → chunk → embed (built-in 384-dim embedder) → destination, run twice:
// one copy of each file's records, 384-dim vectors, metadata present. Destinations that validate but
// point nowhere fail their check and their files with the store's reason; the jobs finish and free
// their slots. One stack serves both families (e2e time is scarce on CI).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { startMongoStandIn, type MongoStandIn } from '../../lambdas/connectors/mongodb/test-server';
import { redisServerBinary, startRedisServer, type RedisTestServer } from '../../lambdas/connectors/redis/test-server';
import { closedPort } from '../integration/connectors/helpers';
import { trustStandIns } from '../support/stand-in-ca';

const corpus = resolve(process.cwd(), '../shared/corpus/docs');
const NO_REDIS = NEEDS_LOCAL || redisServerBinary().skip;
let stack: TestStack;
let mongo: MongoStandIn;
let redis: RedisTestServer | undefined;
let untrustStandIns: (() => void) | undefined;
let sourceId: string;
const inDir = join(mkdtempSync(join(tmpdir(), 'wps-kvdest-')), 'in');

const nodes = [
  { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
  { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 500 } },
  { name: 'Embedder', type: 'embed', subtype: 'local', settings: { model_name: 'builtin-hashed-char-ngrams-384' } },
];

before(async () => {
  if (NEEDS_LOCAL) return;
  mkdirSync(join(inDir, 'sub'), { recursive: true });
  copyFileSync(join(corpus, 'fake-text.txt'), join(inDir, 'fake-text.txt'));
  copyFileSync(join(corpus, 'README.md'), join(inDir, 'sub', 'README.md'));
  mongo = await startMongoStandIn({ users: { app: { password: 'mongo-e2e-secret' } } });
  mongo.createCollection('wf', 'elements');
  untrustStandIns = trustStandIns(); // the redis-server speaks TLS only (the password goes over TLS only)
  if (!NO_REDIS) redis = await startRedisServer({ password: 'redis-e2e-secret' });
  stack = await startTestStack();
  sourceId = (await stack.call('POST', '/api/v1/sources/', { body: { name: 'in', type: 'local', config: { remote_url: inDir } } })).body.id;
});
after(async () => {
  await stack?.close();
  await Promise.all([mongo?.stop(), redis?.stop()]);
  untrustStandIns?.();
});

async function createDestination(name: string, type: string, config: Record<string, unknown>, secretFields: string[]) {
  const dest = await stack.call('POST', '/api/v1/destinations/', { body: { name, type, config } });
  assert.equal(dest.status, 200, dest.text);
  for (const f of secretFields) assert.equal(dest.body.config[f], '**********', f);
  return dest.body.id as string;
}

async function check(destinationId: string) {
  await stack.call('POST', `/api/v1/destinations/${destinationId}/connection-check`);
  return eventually(async () => {
    const r = await stack.call('GET', `/api/v1/destinations/${destinationId}/connection-check`);
    return r.body.status !== 'SCHEDULED' ? r.body : undefined;
  }, 'connection check');
}

async function workflow(name: string, destinationId: string, workflowNodes = nodes): Promise<string> {
  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: { name, workflow_type: 'custom', reprocess_all: true, workflow_nodes: workflowNodes, source_id: sourceId, destination_id: destinationId },
  });
  assert.equal(wf.status, 200, wf.text);
  return wf.body.id;
}

async function runToEnd(workflowId: string) {
  const run = await stack.call('POST', `/api/v1/workflows/${workflowId}/run`);
  assert.equal(run.status, 202, run.text);
  return eventually(async () => {
    const r = await stack.call('GET', `/api/v1/jobs/${run.body.id}`);
    return ['COMPLETED', 'FAILED', 'STOPPED'].includes(r.body.status) ? r.body : undefined;
  }, 'workflow job', 180_000);
}

/** Runs the workflow twice; the per-file record counts after each run must be equal (one copy). */
async function twice(workflowId: string, countByFile: () => Promise<Record<string, number>>) {
  const counts: Record<string, number>[] = [];
  for (let i = 0; i < 2; i++) {
    const job = await runToEnd(workflowId);
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    counts.push(await countByFile());
  }
  assert.deepEqual(Object.keys(counts[0]!).sort(), ['README.md', 'fake-text.txt']);
  for (const n of Object.values(counts[0]!)) assert.ok(n >= 1);
  assert.deepEqual(counts[1], counts[0], 'the second run replaced each file, not duplicated it');
}

function tally<T>(items: T[], fileOf: (x: T) => unknown): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of items) out[String(fileOf(x))] = (out[String(fileOf(x))] ?? 0) + 1;
  return out;
}

test('mongodb: two runs leave one copy of each file\'s documents, 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await createDestination('mg', 'mongodb', { uri: mongo.uri('app', 'mongo-e2e-secret'), database: 'wf', collection: 'elements' }, ['uri']);
  const c = await check(id);
  assert.equal(c.status, 'SUCCESS', c.reason);
  await twice(await workflow('to-mongodb', id), async () => tally(mongo.documents('wf', 'elements'), (d) => d.metadata?.filename));
  const docs = mongo.documents('wf', 'elements');
  const sample = docs.find((d) => d.metadata?.filename === 'fake-text.txt')!;
  assert.equal(sample.embeddings.length, 384);
  assert.equal(sample.type, 'CompositeElement');
  assert.equal(sample.metadata.filetype, 'text/plain');
  assert.ok(sample.record_id && sample.element_id && String(sample.text).length > 0);
  assert.equal(new Set(docs.map((d) => `${d.record_id}/${d.element_id}`)).size, docs.length, 'no element twice');
});

test('redis: two runs leave one copy of each file\'s keys, 384-dim embeddings, metadata', { skip: NO_REDIS }, async () => {
  const id = await createDestination('rd', 'redis', { host: redis!.host, port: redis!.port, password: 'redis-e2e-secret', ssl: true, database: 1, batch_size: 20 }, ['password']);
  const c = await check(id);
  assert.equal(c.status, 'SUCCESS', c.reason);
  const db = redis!.admin.duplicate({ database: 1 });
  await db.connect();
  try {
    const records = async () => {
      const keys = await db.keys('*');
      return Promise.all(keys.map(async (k) => ({ key: k, value: JSON.parse((await db.get(k))!) })));
    };
    await twice(await workflow('to-redis', id), async () => tally(await records(), (r) => r.value.metadata?.filename));
    const all = await records();
    const sample = all.find((r) => r.value.metadata?.filename === 'fake-text.txt')!;
    assert.equal(sample.key, `${sample.value.record_id}:${sample.value.element_id}`);
    assert.equal(sample.value.embeddings.length, 384);
    assert.equal(sample.value.type, 'CompositeElement');
    assert.equal(sample.value.metadata.filetype, 'text/plain');
    assert.ok(String(sample.value.text).length > 0);
  } finally {
    await db.close();
  }
});

test('destinations that point nowhere: FAILURE checks, files failed with the store\'s reason, jobs finished', { skip: NEEDS_LOCAL }, async () => {
  const port = await closedPort();
  const cases = [
    { type: 'mongodb', config: { uri: `mongodb://app:mongo-nowhere-secret@127.0.0.1:${port}/`, database: 'wf', collection: 'c' }, secret: 'mongo-nowhere-secret', reason: /cannot connect to 127\.0\.0\.1:\d+: .*ECONNREFUSED/ },
    { type: 'redis', config: { host: '127.0.0.1', port, password: 'redis-nowhere-secret', ssl: true }, secret: 'redis-nowhere-secret', reason: /cannot connect to 127\.0\.0\.1:\d+: connect ECONNREFUSED/ },
  ];
  for (const k of cases) {
    const dest = await stack.call('POST', '/api/v1/destinations/', { body: { name: `${k.type}-nowhere`, type: k.type, config: k.config } });
    assert.equal(dest.status, 200, dest.text);
    const c = await check(dest.body.id);
    assert.equal(c.status, 'FAILURE', k.type);
    assert.match(c.reason, k.reason);
    assert.ok(!c.reason.includes(k.secret), 'no secret in the reason');
    // Partition and chunk only: the failure under test is the destination's.
    const wf = await workflow(`${k.type}-nowhere`, dest.body.id, nodes.slice(0, 2));
    const job = await runToEnd(wf);
    assert.equal(job.status, 'FAILED', k.type);
    const failed = await stack.call('GET', `/api/v1/jobs/${job.id}/failed-files`);
    assert.equal(failed.status, 200);
    assert.equal(failed.body.failed_files.length, 2);
    for (const f of failed.body.failed_files) {
      assert.match(f.error, new RegExp(`${k.type} destination: `));
      assert.match(f.error, k.reason);
      assert.ok(!f.error.includes(k.secret));
    }
  }
  // The failed jobs released their run slots.
  const running = await stack.call('GET', '/api/v1/jobs/?status=IN_PROGRESS');
  assert.equal(running.status, 200, running.text);
  assert.deepEqual(running.body, []);
});
