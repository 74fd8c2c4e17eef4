// MongoDB destination through the registry and the official `mongodb` driver, against the local
// stand-in that speaks the wire protocol (OP_MSG, BSON, SCRAM-SHA-256) and keeps what it receives:
// documents as the platform's uploader writes them (+ record_id), replace by delete_many on
// record_id, batches, retries on throttling, refusals and failed checks in the server's words.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { configIssues } from '../../support/connector-tests';
import { checkConnection, deliverToDestination, outputConfig, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId } from '../../../lambdas/connectors/records/ids';
import { startMongoStandIn, type MongoStandIn } from '../../../lambdas/connectors/mongodb/test-server';
import { closedPort } from './helpers';
import { DIMS, element, elements, logSink, vec } from './vector-fixtures';

const PASSWORD = 'mongo-pw-secret';
let mg: MongoStandIn;
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'mongodb', { uri: mg.uri('app', PASSWORD), database: 'wf', collection: 'elements', ...over });
const mine = (sourceKey: string, coll = 'elements') => mg.documents('wf', coll).filter((d) => d.record_id === documentRecordId('src', sourceKey));
const since = (n: number) => mg.commands.slice(n).filter((c) => !['hello', 'isMaster', 'ismaster', 'saslStart', 'saslContinue', 'endSessions'].includes(c.name));

before(async () => {
  mg = await startMongoStandIn({ users: { app: { password: PASSWORD }, reader: { password: 'reader-pw', role: 'read' } } });
  mg.createCollection('wf', 'elements');
});
after(async () => {
  await mg?.stop();
});

test('config: the platform fields; the uri is a secret; uri options reaching this machine are refused', () => {
  const c = config();
  assert.equal(outputConfig('destination', 'mongodb', c).uri, '**********');
  const issue = (over: Record<string, unknown>) => configIssues(() => validateConfig('destination', 'mongodb', { uri: 'mongodb://u:p@db.example.com:27017/', database: 'd', collection: 'c', ...over })) || undefined;
  assert.equal(issue({}), undefined);
  assert.match(issue({ uri: 'http://db.example.com' })!, /body\.config\.uri/);
  assert.match(issue({ uri: 'mongodb://db.example.com/?tlsCAFile=/etc/passwd' })!, /body\.config\.uri: the uri option tlsCAFile is not supported here/);
  // -- the uri is a secret: a 422 message that quotes a piece of it shows the mask (lambdas/credentials.ts) --
  assert.match(issue({ uri: 'mongodb://db.example.com/?authMechanism=MONGODB-AWS' })!, /body\.config\.uri: authMechanism (MONGODB-AWS|\*{10}) is not supported here/);
  assert.match(issue({ uri: 'mongodb://%2Ftmp%2Fmongodb-27017.sock' })!, /body\.config\.uri: unix domain socket hosts are not supported here/);
  assert.match(issue({ uri: 'mongodb://169.254.169.254/' })!, /instance metadata address/);
  assert.match(issue({ collection: ' ' })!, /body\.config\.collection: collection must not be empty/);
  assert.match(issue({ batch_size: 0 })!, /body\.config\.batch_size/);
});

test('check: ping with the credentials, the collection exists, a harmless delete is accepted', async () => {
  const ok = await checkConnection('destination', 'mongodb', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.match(ok.reason!, /^database wf, collection elements: \d+ documents; writes accepted; /);

  const badPw = await checkConnection('destination', 'mongodb', config({ uri: mg.uri('app', 'wrong-password-123') }));
  assert.equal(badPw.status, 'FAILURE');
  assert.equal(badPw.reason, `cannot connect to 127.0.0.1:${mg.port}: Authentication failed. (AuthenticationFailed)`);

  const noColl = await checkConnection('destination', 'mongodb', config({ collection: 'absent' }));
  assert.equal(noColl.status, 'FAILURE');
  assert.equal(noColl.reason, 'collection absent does not exist in database wf (it has: elements); create it first');
  const noDb = await checkConnection('destination', 'mongodb', config({ database: 'nodb' }));
  assert.equal(noDb.reason, 'database nodb does not exist (it has no collections); create it with collection elements first');
  assert.equal(mg.hasCollection('wf', 'absent'), false, 'the check creates nothing');

  const reader = await checkConnection('destination', 'mongodb', config({ uri: mg.uri('reader', 'reader-pw') }));
  assert.equal(reader.status, 'FAILURE');
  assert.match(reader.reason!, /^collection elements refused a delete: not authorized on wf to execute command \{ delete: "elements".*\(Unauthorized\)$/);

  const down = await checkConnection('destination', 'mongodb', config({ uri: `mongodb://app:${PASSWORD}@127.0.0.1:${await closedPort()}/` }));
  assert.equal(down.status, 'FAILURE');
  assert.match(down.reason!, /^cannot connect to 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  for (const r of [badPw, noColl, reader, down]) assert.ok(!r.reason!.includes(PASSWORD) && !r.reason!.includes('wrong-password-123'), r.reason);
});

test('write: the platform\'s documents + record_id; a rewrite deletes the file\'s earlier documents first', async () => {
  const start = mg.commands.length;
  const first = await deliverToDestination('mongodb', config(), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(3) });
  assert.deepEqual(first, { written: 3, deleted: 0 });
  assert.deepEqual(since(start).map((c) => c.name), ['createIndexes', 'delete', 'insert']);
  const del = since(start).find((c) => c.name === 'delete')!;
  assert.deepEqual(del.body.deletes, [{ q: { record_id: documentRecordId('src', 'a.txt') }, limit: 0 }]);
  assert.ok(mg.indexes('wf', 'elements').some((i) => i.name === 'record_id_1' && i.key.record_id === 1));

  await deliverToDestination('mongodb', config(), { sourceId: 'src', sourceKey: 'b.txt', elements: elements(1, 'other') });
  const second = await deliverToDestination('mongodb', config(), { sourceId: 'src', sourceKey: 'a.txt', elements: [element(0, 'text 0'), element(7, 'seven')] });
  assert.deepEqual(second, { written: 2, deleted: 3 });
  const docs = mine('a.txt');
  assert.deepEqual(docs.map((d) => d.text).sort(), ['seven', 'text 0']);
  assert.equal(mine('b.txt').length, 1, 'b.txt untouched');

  const title = docs.find((d) => d.text === 'text 0')!;
  assert.equal(title._id._bsontype, 'ObjectId');
  assert.deepEqual(Object.keys(title).sort(), ['_id', 'element_id', 'embeddings', 'metadata', 'record_id', 'text', 'type']);
  assert.equal(title.type, 'Title');
  assert.equal(title.element_id, 'el-0-6');
  assert.equal(title.embeddings.length, DIMS);
  assert.deepEqual(title.embeddings.slice(0, 3), vec(0).slice(0, 3));
  assert.equal(title.metadata.filename, 'a.txt');
  assert.deepEqual(title.metadata.languages, ['eng']);
  assert.equal(title.metadata.data_source.url, 's3://b/a.txt');

  assert.equal(await removeDocumentRecords('mongodb', config(), { sourceId: 'src', sourceKey: 'b.txt' }), 1);
  assert.equal(mine('b.txt').length, 0);
});

test('batches honour batch_size; throttling (Cosmos DB RetryAfterMs, Atlas 462) and a shutdown are retried', async () => {
  const sink = logSink();
  mg.fail({ command: 'delete', code: 91, codeName: 'ShutdownInProgress', errmsg: 'The server is in quiesce mode and will shut down' });
  mg.fail({ command: 'insert', code: 16500, codeName: 'RequestRateTooLarge', errmsg: 'Request rate is large. More Request Units may be needed, so no changes were made. Please retry this request later. RetryAfterMs=700' });
  const start = mg.commands.length;
  const r = await deliverToDestination('mongodb', config({ batch_size: 2 }), { sourceId: 'src', sourceKey: 'batched.txt', elements: elements(5) }, { log: sink.log });
  assert.equal(r.written, 5);
  assert.equal(mine('batched.txt').length, 5, 'one copy after the retried attempts');
  const retries = sink.lines.filter((l) => l.msg === 'mongodb write retried');
  assert.equal(retries.length, 2, JSON.stringify(retries));
  assert.match(String(retries[0]!.fields!.error), /^cannot remove the earlier documents of the file from wf\.elements: The server is in quiesce mode and will shut down \(ShutdownInProgress\)$/);
  assert.equal(retries[1]!.fields!.delayMs, 700, 'RetryAfterMs honoured');
  assert.match(String(retries[1]!.fields!.error), /^insert into wf\.elements failed: Request rate is large\. .*RetryAfterMs=700 \(RequestRateTooLarge\)$/);
  const names = since(start).map((c) => c.name);
  const lastAttempt = since(start).slice(names.lastIndexOf('delete'));
  assert.deepEqual(lastAttempt.filter((c) => c.name === 'insert').map((c) => c.body.documents.length).sort(), [1, 2, 2]);

  // Atlas's overload error carries the driver's own retry labels: retried (by the driver or here), one copy.
  mg.fail({ command: 'insert', code: 462, codeName: 'IngressRequestRateLimitExceeded', errmsg: 'Rate limiter has rejected the request', errorLabels: ['SystemOverloadedError', 'RetryableError'] });
  const again = await deliverToDestination('mongodb', config({ batch_size: 2 }), { sourceId: 'src', sourceKey: 'batched.txt', elements: elements(5) });
  assert.deepEqual(again, { written: 5, deleted: 5 });
  assert.equal(mine('batched.txt').length, 5);
});

test('a document the server refuses fails the file with the server\'s message', async () => {
  mg.createCollection('wf', 'validated', { required: ['summary'] });
  await assert.rejects(
    deliverToDestination('mongodb', config({ collection: 'validated' }), { sourceId: 'src', sourceKey: 'bad.txt', elements: elements(2) }),
    (err: Error) => err.message === 'insert into wf.validated failed: Document failed validation (code 121)',
  );
  const reader = config({ uri: mg.uri('reader', 'reader-pw') });
  await assert.rejects(deliverToDestination('mongodb', reader, { sourceId: 'src', sourceKey: 'r.txt', elements: elements(1) }), /cannot remove the earlier documents of the file from wf\.elements: not authorized on wf/);
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS: refused before any command reaches the server', async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  const literal = config();
  const named = config({ uri: `mongodb://app:${PASSWORD}@localhost:${mg.port}/` });
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  const seen = mg.commands.length;
  try {
    assert.throws(() => config(), /body\.config\.uri: host 127\.0\.0\.1 resolves to a private network address/, 'a literal address is a 422');
    const r = await checkConnection('destination', 'mongodb', literal);
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /host 127\.0\.0\.1 resolves to a private network address \(127\.0\.0\.1\)/);
    assert.equal((await checkConnection('destination', 'mongodb', named)).status, 'FAILURE');
    // An SRV name (Atlas) has no address of its own: the driver's SRV lookup runs, its targets then resolve under the policy.
    const srv = await checkConnection('destination', 'mongodb', config({ uri: 'mongodb+srv://app:srv-secret-pw@cluster0.mongo.invalid/' }), { timeoutMs: 8000 });
    assert.match(srv.reason!, /^cannot connect to cluster0\.mongo\.invalid: querySrv E[A-Z]+ _mongodb\._tcp\.cluster0\.mongo\.invalid$/);
    await assert.rejects(deliverToDestination('mongodb', named, { sourceId: 'src', sourceKey: 'a.txt', elements: elements(1) }), /private network address/);
    // (an earlier client's endSessions may still arrive: the driver does not wait for its answer)
    assert.deepEqual(mg.commands.slice(seen).map((c) => c.name).filter((n) => n !== 'endSessions'), []);
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});
