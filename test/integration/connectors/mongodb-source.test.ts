// MongoDB source through the registry and the official `mongodb` driver, against the local wire
// protocol stand-in (SCRAM-SHA-256, find with sort/limit, cursors): one text document per record as
// the platform's downloader writes it, keyset paging by _id to the end, throttling retried, the
// server's refusals, the outbound policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MongoClient, ObjectId } from 'mongodb';
import { checkConnection, listSourceObjects, outputConfig, readSourceObject, validateConfig } from '../../../lambdas/connectors/registry';
import { startMongoStandIn, type MongoStandIn } from '../../../lambdas/connectors/mongodb/test-server';
import { collect, untext } from './helpers';

const PASSWORD = 'mongo-src-secret';
let mg: MongoStandIn;
const ids = Array.from({ length: 7 }, (_, i) => new ObjectId(`65a0000000000000000000${String(i + 10)}`));
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('source', 'mongodb', { uri: mg.uri('app', PASSWORD), database: 'shop', collection: 'products', batch_size: 2, ...over });

async function withDriver<T>(fn: (c: MongoClient) => Promise<T>): Promise<T> {
  const client = new MongoClient(mg.uri('app', PASSWORD));
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

before(async () => {
  mg = await startMongoStandIn({ users: { app: { password: PASSWORD } } });
  mg.createCollection('shop', 'products');
  mg.createCollection('shop', 'other');
  await withDriver((c) =>
    c.db('shop').collection('products').insertMany([
      ...ids.slice(0, 6).map((_id, i) => ({ _id, name: `Product ${i}`, price: i + 0.5, details: { color: 'red', tags: ['a', 'b'] }, active: i % 2 === 0 })),
      { _id: ids[6], name: 'Dated', date_created: new Date('2025-03-04T05:06:07Z'), note: null },
    ]),
  );
});
after(async () => {
  await mg?.stop();
});

test('config: the uri is a secret; check pings with the credentials and finds the collection, else the server text', async () => {
  assert.equal(outputConfig('source', 'mongodb', config()).uri, '**********');
  const ok = await checkConnection('source', 'mongodb', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, 'database shop, collection products: 7 documents');
  const badPw = await checkConnection('source', 'mongodb', config({ uri: mg.uri('app', 'wrong-pw-999') }));
  assert.equal(badPw.reason, `cannot connect to 127.0.0.1:${mg.port}: Authentication failed. (AuthenticationFailed)`);
  const noColl = await checkConnection('source', 'mongodb', config({ collection: 'absent' }));
  assert.equal(noColl.reason, 'collection absent does not exist in database shop (it has: other, products)');
  const noDb = await checkConnection('source', 'mongodb', config({ database: 'nodb' }));
  assert.equal(noDb.reason, 'database nodb does not exist (it has no collections)');
  for (const r of [badPw, noColl, noDb]) assert.ok(!r.reason!.includes(PASSWORD) && !r.reason!.includes('wrong-pw-999'));
});

test('list: every record once, in _id order, across pages of batch_size; filename, version, record locator, dates', async () => {
  const before = mg.commands.filter((c) => c.name === 'find').length;
  const objs = await collect(listSourceObjects('mongodb', config()));
  assert.deepEqual(objs.map((o) => o.key), ids.map((i) => i.toHexString()));
  assert.equal(mg.commands.filter((c) => c.name === 'find').length - before, 4, '7 records in pages of 2: 4 finds');
  const first = objs[0]!;
  assert.equal(first.filename, `${ids[0]!.toHexString()}.txt`);
  assert.match(first.version!, /^[0-9a-f]{64}$/);
  assert.deepEqual(first.dataSource!.record_locator, { database: 'shop', collection: 'products', document_id: ids[0]!.toHexString() });
  assert.equal(first.dataSource!.url, `mongodb://127.0.0.1:${mg.port}/shop.products/${ids[0]!.toHexString()}`);
  assert.equal(first.dataSource!.date_created, String(ids[0]!.getTimestamp().getTime() / 1000) + '.0');
  assert.equal(objs[6]!.dataSource!.date_created, '1741064767.0', 'a date_created field wins over the ObjectId time');
  assert.ok(!JSON.stringify(objs).includes(PASSWORD), 'no credentials in urls');
});

test('read: the flattened values one per line as the platform writes them; size matches the listing', async () => {
  const objs = await collect(listSourceObjects('mongodb', config()));
  const one = await readSourceObject('mongodb', config(), ids[1]!.toHexString());
  assert.equal(untext(one), "Product 1\n1.5\nred\n['a', 'b']\nFalse");
  assert.equal(objs[1]!.size, one.byteLength);
  assert.equal(untext(await readSourceObject('mongodb', config(), ids[6]!.toHexString())), 'Dated\n2025-03-04 05:06:07\nNone');
});

test('version: changes when the record changes, not otherwise', async () => {
  const v = async (i: number) => (await collect(listSourceObjects('mongodb', config()))).find((o) => o.key === ids[i]!.toHexString())!.version;
  const [v2, v3] = [await v(2), await v(3)];
  // The stand-in has no update command: replace the record by delete + insert, as the server would store it.
  await withDriver(async (c) => {
    await c.db('shop').collection('products').deleteOne({ _id: ids[2] });
    await c.db('shop').collection('products').insertOne({ _id: ids[2], name: 'Renamed', price: 9 });
  });
  assert.notEqual(await v(2), v2);
  assert.equal(await v(3), v3);
});

test('throttling: a RequestRateTooLarge answer is retried after the hinted time; listing completes', async () => {
  mg.fail({ command: 'find', code: 16500, codeName: 'RequestRateTooLarge', errmsg: 'Request rate is large. RetryAfterMs=50', times: 2 });
  const objs = await collect(listSourceObjects('mongodb', config()));
  assert.equal(objs.length, 7);
});

test('read: a record gone since listing fails with the reason; an unauthorised read with the server text', async () => {
  await assert.rejects(readSourceObject('mongodb', config(), new ObjectId().toHexString()), /no document with _id "[0-9a-f]{24}" in shop\.products/);
  mg.fail({ command: 'find', code: 13, codeName: 'Unauthorized', errmsg: 'not authorized on shop to execute command { find: "products" }' });
  await assert.rejects(readSourceObject('mongodb', config(), ids[0]!.toHexString()), /reading collection products: not authorized on shop to execute command .* \(Unauthorized\)/);
});

test('outbound policy: a host resolving to loopback is refused under CONNECTORS_DENY_PRIVATE_NETWORKS', async () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  try {
    const uri = `mongodb://app:${PASSWORD}@localhost:${mg.port}/?authSource=admin`;
    const r = await checkConnection('source', 'mongodb', config({ uri }));
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /private network address/);
    await assert.rejects(collect(listSourceObjects('mongodb', config({ uri }))), /private network address/);
    await assert.rejects(readSourceObject('mongodb', config({ uri }), ids[0]!.toHexString()), /private network address/);
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});
