// Workflows writing into MongoDB (the wire-protocol stand-in, through the official driver) and Redis
// (a real redis-server, through node-redis; skipped when it is not installed) through the HTTP API:
// local source → partition → chunk → embed (built-in 384-dim embedder) → destination, run twice:
// one copy of each file's records, 384-dim vectors, metadata present. Destinations that validate but
// point nowhere fail their check and their files with the store's reason; the jobs finish and free
// their slots. One stack serves both families (e2e time is scarce on CI).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { e2eFlows, stageInput, tally } from '../support/e2e-flows';
import { startMongoStandIn, type MongoStandIn } from '../../lambdas/connectors/mongodb/test-server';
import { redisServerBinary, startRedisServer, type RedisTestServer } from '../../lambdas/connectors/redis/test-server';
import { closedPort } from '../integration/connectors/helpers';
import { trustStandIns } from '../support/stand-in-ca';

const NO_REDIS = NEEDS_LOCAL || redisServerBinary().skip;
let stack: TestStack;
let mongo: MongoStandIn;
let redis: RedisTestServer | undefined;
let untrustStandIns: (() => void) | undefined;
let sourceId: string;
const inDir = join(mkdtempSync(join(tmpdir(), 'wps-kvdest-')), 'in');
const { createDestination, check, workflow, runToEnd, twice, pointNowhere } = e2eFlows(() => stack, () => sourceId);

before(async () => {
  if (NEEDS_LOCAL) return;
  stageInput(inDir);
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
  await pointNowhere(cases);
});
