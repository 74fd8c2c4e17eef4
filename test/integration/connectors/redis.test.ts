// Redis destination through the registry and the official client (node-redis), against a REAL
// redis-server (Debian's, started on a free loopback port; the tests skip when it is not
// installed): records as the platform's uploader writes them (+ record_id), replace through SCAN on
// the record id, MULTI/EXEC batches of batch_size (seen with MONITOR), BUSY retried, refusals
// and failed checks in the server's words, TLS on by default (the server listens with TLS only,
// trusted through CONNECTOR_CA_FILE; a password never goes over a plain connection).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { configIssues } from '../../support/connector-tests';
import { checkConnection, deliverToDestination, outputConfig, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId } from '../../../lambdas/connectors/records/ids';
import { redisServerBinary, startRedisServer, type RedisTestServer } from '../../../lambdas/connectors/redis/test-server';
import { startJsonProxy } from '../../../lambdas/connectors/redis/test-json-proxy';
import { closedPort } from './helpers';
import { trustStandIns } from '../../support/stand-in-ca';
import { DIMS, element, elements, logSink, vec } from './vector-fixtures';

const { skip } = redisServerBinary();
const ADMIN_PW = 'redis-admin-secret';
let rs: RedisTestServer;
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'redis', { host: rs.host, port: rs.port, password: ADMIN_PW, ssl: true, batch_size: 50, ...over });
const rid = (sourceKey: string) => documentRecordId('src', sourceKey);
const keysOf = async (sourceKey: string) => (await rs.admin.keys(`${rid(sourceKey)}:*`)).sort();

let untrustStandIns: (() => void) | undefined;
before(async () => {
  if (skip) return;
  untrustStandIns = trustStandIns(); // the server speaks TLS only (the password goes over TLS only)
  rs = await startRedisServer({ password: ADMIN_PW });
  await rs.admin.sendCommand(['ACL', 'SETUSER', 'reader', 'on', '>reader-pw', '~*', '+@read', '+ping', '+select', '+info']);
});
after(async () => {
  untrustStandIns?.();
  await rs?.stop();
});

test('config: the platform fields and defaults (ssl on); password and uri are secrets; odd uris and clear text with a password refused', { skip }, () => {
  const c = validateConfig('destination', 'redis', { host: 'cache.example.com', password: 'pw', uri: 'rediss://:pw@cache.example.com:6380/2' });
  assert.deepEqual([c.port, c.database, c.ssl, c.batch_size], [6379, 0, true, 100]);
  const out = outputConfig('destination', 'redis', c);
  assert.equal(out.password, '**********');
  assert.equal(out.uri, '**********');
  const issue = (over: Record<string, unknown>) => configIssues(() => validateConfig('destination', 'redis', { host: 'cache.example.com', ...over })) || undefined;
  assert.match(issue({ uri: 'unix:///var/run/redis.sock' })!, /body\.config\.uri: uri scheme unix: is not supported/);
  assert.match(issue({ uri: 'redis://169.254.169.254:6379' })!, /body\.config\.uri: .*instance metadata address/);
  assert.match(issue({ host: '169.254.169.254' })!, /body\.config\.host: .*instance metadata address/);
  assert.match(issue({ batch_size: 0 })!, /body\.config\.batch_size/);
  assert.match(issue({ password: 'pw', ssl: false })!, /^body\.config\.ssl: ssl turns TLS off, which would send the password in clear text/);
  assert.match(issue({ uri: 'redis://:pw@cache.example.com:6379' })!, /^body\.config\.uri: uri is a plain redis:\/\/ URL, which would send the password in clear text: use rediss:\/\//);
  assert.match(issue({ uri: 'REDIS://user:pw@cache.example.com', ssl: true })!, /^body\.config\.uri: .*clear text/);
  assert.equal(issue({ ssl: false }), undefined, 'clear text without a password');
  assert.equal(issue({ uri: 'redis://cache.example.com:6379', password: 'pw' }), undefined, 'the uri is used, without a password: the password field is not sent');
});

test('check: AUTH, SELECT, PING and a harmless write; failures carry the server\'s reply', { skip }, async () => {
  const ok = await checkConnection('destination', 'redis', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.match(ok.reason!, new RegExp(`^127\\.0\\.0\\.1:${rs.port} db 0 over TLS: PING answered PONG; writes accepted; \\d+ keys; records are stored as JSON strings \\(no RedisJSON module\\)$`));
  const viaUri = await checkConnection('destination', 'redis', config({ uri: `rediss://:${ADMIN_PW}@127.0.0.1:${rs.port}/3`, host: 'ignored.example.com' }));
  assert.match(viaUri.reason!, /db 3 over TLS: PING answered PONG/);

  const wrong = await checkConnection('destination', 'redis', config({ password: 'not-the-password' }));
  assert.equal(wrong.status, 'FAILURE');
  assert.equal(wrong.reason, `cannot connect to 127.0.0.1:${rs.port}: WRONGPASS invalid username-password pair or user is disabled.`);
  const db = await checkConnection('destination', 'redis', config({ database: 99 }));
  assert.equal(db.reason, `cannot connect to 127.0.0.1:${rs.port} db 99: ERR DB index is out of range`);
  const reader = await checkConnection('destination', 'redis', config({ username: 'reader', password: 'reader-pw' }));
  assert.equal(reader.status, 'FAILURE');
  assert.match(reader.reason!, /^the database refused a write \(DEL of an absent key\): NOPERM .*'del'/);
  // A plain-TCP Redis without a password: clear text works with ssl off, ssl on says what is wrong.
  const plain = await startRedisServer({ tls: false });
  let tls;
  try {
    const noSecret = await checkConnection('destination', 'redis', config({ port: plain.port, password: undefined, ssl: false }));
    assert.equal(noSecret.status, 'SUCCESS', noSecret.reason);
    assert.match(noSecret.reason!, new RegExp(`^127\\.0\\.0\\.1:${plain.port} db 0: PING answered PONG`));
    tls = await checkConnection('destination', 'redis', config({ port: plain.port, password: undefined }));
    assert.equal(tls.status, 'FAILURE');
    assert.match(tls.reason!, /^cannot connect to 127\.0\.0\.1:\d+: .*\(ssl is on: does the server speak TLS\? ssl false is for a plain-TCP Redis without a password\)$/);
  } finally {
    await plain.stop();
  }
  assert.throws(() => config({ ssl: false }), /body\.config\.ssl: ssl turns TLS off, which would send the password in clear text/);
  const down = await checkConnection('destination', 'redis', config({ port: await closedPort() }));
  assert.match(down.reason!, /^cannot connect to 127\.0\.0\.1:\d+: connect ECONNREFUSED/);
  for (const r of [wrong, db, reader, tls, down]) assert.ok(!r.reason!.includes(ADMIN_PW) && !r.reason!.includes('not-the-password'), r.reason);
});

test('write: one key per element, the platform\'s record + record_id; a rewrite leaves one copy', { skip }, async () => {
  const first = await deliverToDestination('redis', config(), { sourceId: 'src', sourceKey: 'a.txt', elements: elements(3) });
  assert.deepEqual(first, { written: 3, deleted: 0 });
  await deliverToDestination('redis', config(), { sourceId: 'src', sourceKey: 'b.txt', elements: elements(1, 'other') });
  const second = await deliverToDestination('redis', config(), { sourceId: 'src', sourceKey: 'a.txt', elements: [element(0, 'text 0'), element(7, 'seven')] });
  assert.deepEqual(second, { written: 2, deleted: 3 });
  assert.deepEqual(await keysOf('a.txt'), [`${rid('a.txt')}:el-0-6`, `${rid('a.txt')}:el-7-5`]);
  assert.equal((await keysOf('b.txt')).length, 1, 'b.txt untouched');

  assert.equal(await rs.admin.type(`${rid('a.txt')}:el-0-6`), 'string');
  const title = JSON.parse((await rs.admin.get(`${rid('a.txt')}:el-0-6`))!);
  assert.deepEqual(Object.keys(title).sort(), ['element_id', 'embeddings', 'metadata', 'record_id', 'text', 'type']);
  assert.equal(title.record_id, rid('a.txt'));
  assert.equal(title.type, 'Title');
  assert.equal(title.text, 'text 0');
  assert.equal(title.embeddings.length, DIMS);
  assert.deepEqual(title.embeddings.slice(0, 3), vec(0).slice(0, 3));
  assert.equal(title.metadata.filename, 'a.txt');
  assert.equal(title.metadata.data_source.url, 's3://b/a.txt');

  assert.equal(await removeDocumentRecords('redis', config(), { sourceId: 'src', sourceKey: 'b.txt' }), 1);
  assert.deepEqual(await keysOf('b.txt'), []);
});

test('with RedisJSON (the module stood in by a RESP proxy): records go in as JSON.SET <key> $ <json>, replaced the same way', { skip }, async () => {
  const proxy = await startJsonProxy(rs);
  try {
    const cfg = config({ port: proxy.port });
    const ok = await checkConnection('destination', 'redis', cfg);
    assert.equal(ok.status, 'SUCCESS', ok.reason);
    assert.match(ok.reason!, /records are stored as RedisJSON documents$/);
    assert.deepEqual(await deliverToDestination('redis', cfg, { sourceId: 'src', sourceKey: 'json.txt', elements: elements(3) }), { written: 3, deleted: 0 });
    assert.deepEqual(await deliverToDestination('redis', cfg, { sourceId: 'src', sourceKey: 'json.txt', elements: elements(2) }), { written: 2, deleted: 3 });
    const sets = proxy.jsonCommands.filter((c) => c[0] === 'JSON.SET');
    assert.equal(sets.length, 5);
    assert.ok(sets.every(([, key, path]) => key!.startsWith(`${rid('json.txt')}:el-`) && path === '$'), JSON.stringify(sets));
    assert.deepEqual(await keysOf('json.txt'), [`${rid('json.txt')}:el-0-6`, `${rid('json.txt')}:el-1-6`]);
    const doc = JSON.parse((await rs.admin.get(`${rid('json.txt')}:el-1-6`))!);
    assert.equal(doc.record_id, rid('json.txt'));
    assert.equal(doc.embeddings.length, DIMS);
  } finally {
    await proxy.stop();
  }
});

test('batches: batch_size records per MULTI/EXEC (seen with MONITOR); the database is the configured one', { skip }, async () => {
  const lines: string[] = [];
  const monitor = rs.admin.duplicate();
  monitor.on('error', () => undefined);
  await monitor.connect();
  await monitor.monitor((line: string) => lines.push(line));
  const r = await deliverToDestination('redis', config({ batch_size: 2, database: 5 }), { sourceId: 'src', sourceKey: 'batched.txt', elements: elements(5) });
  assert.equal(r.written, 5);
  const exec = (l: string) => /"exec"/i.test(l);
  const deadline = Date.now() + 5000;
  while (lines.filter(exec).length < 3 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
  await monitor.close();
  const blocks: number[] = [];
  let inMulti = false;
  for (const l of lines) {
    if (/"multi"/i.test(l)) [inMulti] = [true, blocks.push(0)];
    else if (exec(l)) inMulti = false;
    else if (inMulti && /"set"/i.test(l)) blocks[blocks.length - 1]!++;
  }
  assert.deepEqual(blocks.sort(), [1, 2, 2]);
  assert.ok(lines.filter((l) => /"set"/i.test(l)).every((l) => /\[5 /.test(l)), 'written to db 5');
  const db5 = rs.admin.duplicate({ database: 5 });
  await db5.connect();
  assert.equal((await db5.keys(`${rid('batched.txt')}:*`)).length, 5);
  await db5.close();
});

test('BUSY (a long script) is retried with back-off; a refused write (OOM) fails the file with the server\'s reply', { skip }, async () => {
  await rs.admin.configSet('busy-reply-threshold', '10');
  const runner = rs.admin.duplicate();
  runner.on('error', () => undefined);
  await runner.connect();
  const script = `local t0 = redis.call('TIME') while true do local t = redis.call('TIME') if (t[1]-t0[1])*1000000 + (t[2]-t0[2]) > 1500000 then break end end return 1`;
  const busy = runner.eval(script);
  const probe = rs.admin.duplicate();
  probe.on('error', () => undefined);
  await probe.connect();
  const deadline = Date.now() + 5000;
  for (;;) {
    const reply = await probe.ping().then(String, (e: Error) => e.message);
    if (reply.startsWith('BUSY')) break;
    assert.ok(Date.now() < deadline, 'the script makes the server BUSY');
  }
  const sink = logSink();
  const r = await deliverToDestination('redis', config(), { sourceId: 'src', sourceKey: 'busy.txt', elements: elements(2) }, { log: sink.log });
  await busy;
  await Promise.all([runner.close(), probe.close()]);
  assert.equal(r.written, 2);
  const retries = sink.lines.filter((l) => l.msg === 'redis write retried');
  assert.ok(retries.length >= 1);
  assert.match(String(retries[0]!.fields!.error), /BUSY Redis is busy running a script/);
  assert.equal((await keysOf('busy.txt')).length, 2);

  await rs.admin.configSet('maxmemory', '1');
  try {
    await assert.rejects(
      deliverToDestination('redis', config(), { sourceId: 'src', sourceKey: 'oom.txt', elements: elements(2) }),
      (err: Error) => err.message === "write refused: OOM command not allowed when used memory > 'maxmemory'.",
    );
  } finally {
    await rs.admin.configSet('maxmemory', '0');
  }
  assert.deepEqual(await keysOf('oom.txt'), []);
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS: refused before connecting', { skip }, async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  const named = config({ host: 'localhost' });
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  const before = Number(/total_connections_received:(\d+)/.exec(await rs.admin.info('stats'))![1]);
  try {
    assert.throws(() => config(), /body\.config\.host: host 127\.0\.0\.1 resolves to a private network address/);
    const r = await checkConnection('destination', 'redis', named);
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /host localhost resolves to a private network address/);
    await assert.rejects(deliverToDestination('redis', named, { sourceId: 'src', sourceKey: 'a.txt', elements: elements(1) }), /private network address/);
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
  const afterCount = Number(/total_connections_received:(\d+)/.exec(await rs.admin.info('stats'))![1]);
  assert.equal(afterCount, before, 'no connection reached the server');
});
