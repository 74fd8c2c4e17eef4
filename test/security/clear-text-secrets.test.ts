// Finding 4 (issue 27): secrets go over TLS only. Databricks (workspace host, SQL warehouse) and Astra
// DB (api_endpoint) took http:// with a client secret or token, the Databricks driver switching to
// clear text so a test stand-in could work. The database protocols that send a password in clear on
// a plain connection did the same: Neo4j (bolt:// and neo4j://, basic auth in LOGON), Couchbase
// (couchbase:// and http://, basic auth on every Query service request), Redis (redis:// or ssl
// false: AUTH sends the password as it is). Played as the attacker's view of the wire: tenant B names
// an http:// endpoint through the HTTP API (create and update: 422 naming the field), and a config
// stored before the rule is run as a job runs it, against a plain-HTTP listener that records what it
// receives: refused before any byte is sent, so no secret reaches the wire.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { checkConnection, deliverToDestination, listSourceObjects } from '../../lambdas/connectors/registry';
import { startStandIn, type StandInServer } from '../../lambdas/connectors/records/stand-in';
import { startDatabricksStandIn, type DatabricksStandIn } from '../../lambdas/connectors/databricks/test-server';
import { startAstraStandIn, type AstraStandIn } from '../../lambdas/connectors/astradb/test-server';
import { startNeo4jStandIn, type Neo4jStandIn } from '../../lambdas/connectors/neo4j/test-server';
import { startCouchbaseStandIn, type CouchbaseStandIn } from '../../lambdas/connectors/couchbase/test-server';
import { redisServerBinary, startRedisServer } from '../../lambdas/connectors/redis/test-server';

import { startSearchStandIn } from '../../lambdas/connectors/elasticsearch/test-server';
import { startQdrantStandIn } from '../../lambdas/connectors/qdrant/test-server';
import { startWeaviateTestServer } from '../../lambdas/connectors/weaviate/test-server';
import { startMilvusTestServer } from '../../lambdas/connectors/milvus/test-server';
import { IAM_API_KEY, platformFields, S3_CREDENTIALS, startWatsonxStandIn } from '../../lambdas/connectors/ibm-watsonx/test-server';
import { trustStandIns } from '../support/stand-in-ca';
import { keyedStack, locs, messages, type Tenants } from './helpers';

const SECRET = 'dbx-client-secret-value';
const TOKEN = 'AstraCS:astra-token-value';
let t: Tenants;
let plain: StandInServer;
let dbx: DatabricksStandIn;
let astra: AstraStandIn;
let untrust: () => void;
let raw: RawListener;
let neo: Neo4jStandIn;
let neoPlain: Neo4jStandIn;
let cb: CouchbaseStandIn;
let cbPlain: CouchbaseStandIn;

/** A TCP listener that counts the connections it is offered (and closes them): any would be a secret on its way in clear. */
interface RawListener {
  port: number;
  connections: number;
  stop(): Promise<void>;
}
async function startRawListener(): Promise<RawListener> {
  const sockets = new Set<Socket>();
  const l = { port: 0, connections: 0 } as RawListener;
  const server: Server = createServer((s) => {
    l.connections++;
    sockets.add(s);
    s.on('error', () => undefined);
    s.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  l.port = (server.address() as { port: number }).port;
  l.stop = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return l;
}

const NEO4J_PW = 'neo4j-password-value';
const neo4j = (uri: string, password = NEO4J_PW) => ({ uri, username: 'app', password, database: 'neo4j' });
const CB_PW = 'couchbase-password-value';
const couchbase = (connection_string: string, password = CB_PW) => ({ connection_string, username: 'app', password, bucket: 'docs', batch_size: 10 });
const RD_PW = 'redis-password-value';
const redis = (port: number, over: Record<string, unknown> = {}) => ({ host: '127.0.0.1', port, password: RD_PW, ssl: true, database: 0, batch_size: 100, ...over });

const volumes = (host: string) => ({ host, client_id: 'sp', client_secret: SECRET, catalog: 'main', volume: 'landing', volume_path: 'out' });
const deltaTables = (server_hostname: string) => ({ server_hostname, http_path: '/sql/1.0/warehouses/wh', token: 'dapi-token-value', catalog: 'main', volume: 'landing', table_name: 'elements' });
const astradb = (api_endpoint: string) => ({ api_endpoint, token: TOKEN, collection_name: 'docs' });

before(async () => {
  untrust = trustStandIns();
  t = await keyedStack();
  // A listener that answers 200 to anything: a request reaching it would be a secret in clear text.
  plain = await startStandIn(() => ({ status: 200, body: {} }));
  dbx = await startDatabricksStandIn({ clients: { sp: SECRET }, volumes: ['main.default.landing'] });
  astra = await startAstraStandIn({ token: TOKEN });
  raw = await startRawListener();
  neo = await startNeo4jStandIn({ users: { app: { password: NEO4J_PW } } });
  neoPlain = await startNeo4jStandIn({ users: { app: { password: '' } }, tls: false });
  cb = await startCouchbaseStandIn({ users: { app: { password: CB_PW } } });
  cbPlain = await startCouchbaseStandIn({ users: { app: { password: '' } }, tls: false });
  for (const s of [cb, cbPlain]) s.createKeyspace('docs');
});

after(async () => {
  untrust?.();
  await Promise.all([plain?.stop(), dbx?.stop(), astra?.stop(), raw?.stop(), neo?.stop(), neoPlain?.stop(), cb?.stop(), cbPlain?.stop()]);
  await t?.stack.close();
});

test('an http:// endpoint with a secret is refused at create and at update (422 naming the field)', async () => {
  assert.match(plain.url, /^http:\/\//);
  const attempts = [
    { path: '/api/v1/destinations/', type: 'databricks_volumes', config: volumes(plain.url), field: 'host' },
    { path: '/api/v1/destinations/', type: 'databricks_volumes', config: volumes(plain.url.replace('http', 'HtTp')), field: 'host' },
    { path: '/api/v1/sources/', type: 'databricks_volumes', config: volumes(plain.url), field: 'host' },
    { path: '/api/v1/destinations/', type: 'databricks_volume_delta_tables', config: deltaTables(plain.url), field: 'server_hostname' },
    { path: '/api/v1/destinations/', type: 'astradb', config: astradb(plain.url), field: 'api_endpoint' },
  ];
  for (const a of attempts) {
    const r = await t.stack.call('POST', a.path, { ...t.asB, body: { name: 'clear', type: a.type, config: a.config } });
    assert.equal(r.status, 422, `${a.type} ${JSON.stringify(a.config)} -> ${r.status} ${r.text}`);
    assert.ok(locs(r.body).includes(`body.config.${a.field}`), r.text);
    assert.match(messages(r.body), /clear text/);
    assert.doesNotMatch(r.text, new RegExp(`${SECRET}|${TOKEN}`));
  }
  // Update: a TLS destination may not be moved to http://.
  for (const [type, config, field] of [
    ['databricks_volumes', volumes(dbx.url), 'host'],
    ['astradb', astradb(astra.url), 'api_endpoint'],
  ] as const) {
    const created = await t.stack.call('POST', '/api/v1/destinations/', { ...t.asB, body: { name: `tls-${type}`, type, config } });
    assert.equal(created.status, 200, created.text);
    const moved = { ...created.body.config, [field]: plain.url };
    const r = await t.stack.call('PUT', `/api/v1/destinations/${created.body.id}`, { ...t.asB, body: { config: moved } });
    assert.equal(r.status, 422, r.text);
    assert.ok(locs(r.body).includes(`body.config.${field}`), r.text);
  }
  assert.equal(plain.requests.length, 0, 'nothing was sent to the http:// listener');
});

test('configs stored before the rule are refused at run time, before any request', async () => {
  const doc = { sourceId: 'src', sourceKey: 'a.txt', elements: [{ type: 'NarrativeText', element_id: 'e1', text: 'hello', metadata: {}, embeddings: [0.1, 0.2] }] };
  const stored = {
    volumes: { ...volumes(plain.url), schema: 'default' },
    deltaTables: { ...deltaTables(plain.url), schema: 'default', database: 'default' },
    astradb: { ...astradb(plain.url), keyspace: 'default_keyspace', batch_size: 20, binary_encode_vectors: true, flatten_metadata: false },
  };
  for (const [type, config] of [
    ['databricks_volumes', stored.volumes],
    ['databricks_volume_delta_tables', stored.deltaTables],
    ['astradb', stored.astradb],
  ] as const) {
    const check = await checkConnection('destination', type, config);
    assert.equal(check.status, 'FAILURE', `${type}: ${JSON.stringify(check)}`);
    assert.match(check.reason!, /clear text/);
    await assert.rejects(deliverToDestination(type, config, doc as never), /clear text/, type);
  }
  await assert.rejects(
    (async () => {
      for await (const _ of listSourceObjects('databricks_volumes', stored.volumes)) break;
    })(),
    /clear text/,
  );
  assert.equal(plain.requests.length, 0, 'no secret reached the wire');
});

test('the TLS stand-ins, trusted through CONNECTOR_CA_FILE, still work', async () => {
  assert.match(dbx.url, /^https:\/\//);
  assert.match(astra.url, /^https:\/\//);
  const d = await checkConnection('destination', 'databricks_volumes', { ...volumes(dbx.url), schema: 'default' });
  assert.equal(d.status, 'SUCCESS', d.reason);
  const a = await checkConnection('destination', 'astradb', { ...astradb(astra.url), keyspace: 'default_keyspace', batch_size: 20, binary_encode_vectors: true, flatten_metadata: false });
  assert.equal(a.status, 'SUCCESS', a.reason);
});

// The database protocols whose plain form carries the password readable: a listener that only counts
// TCP connections stands for the server, so a refused config is one that opened none.
test('database protocols: a clear-text scheme with a password is refused at create and at update (422 naming the field)', async () => {
  const at = `127.0.0.1:${raw.port}`;
  const attempts = [
    { type: 'neo4j', config: neo4j(`bolt://${at}`), field: 'uri', secret: NEO4J_PW },
    { type: 'neo4j', config: neo4j(`neo4j://${at}`), field: 'uri', secret: NEO4J_PW },
    { type: 'neo4j', config: neo4j(` Bolt://${at}`), field: 'uri', secret: NEO4J_PW },
    { type: 'couchbase', config: couchbase(`couchbase://${at}`), field: 'connection_string', secret: CB_PW },
    { type: 'couchbase', config: couchbase(`http://${at}`), field: 'connection_string', secret: CB_PW },
    { type: 'couchbase', config: couchbase(`CouchBase://127.0.0.1:1,${at}`), field: 'connection_string', secret: CB_PW },
    { type: 'couchbase', config: { ...couchbase(`couchbase://${at}`), collection_id: 'id' }, field: 'connection_string', secret: CB_PW, kind: 'sources' },
    { type: 'redis', config: redis(raw.port, { ssl: false }), field: 'ssl', secret: RD_PW },
    { type: 'redis', config: redis(raw.port, { password: undefined, uri: `redis://:${RD_PW}@${at}/0` }), field: 'uri', secret: RD_PW },
    { type: 'redis', config: redis(raw.port, { password: undefined, uri: `Redis://app:${RD_PW}@${at}`, ssl: true }), field: 'uri', secret: RD_PW },
  ];
  for (const a of attempts) {
    const r = await t.stack.call('POST', `/api/v1/${a.kind ?? 'destinations'}/`, { ...t.asB, body: { name: 'clear', type: a.type, config: a.config } });
    assert.equal(r.status, 422, `${a.type} ${JSON.stringify(a.config)} -> ${r.status} ${r.text}`);
    assert.ok(locs(r.body).includes(`body.config.${a.field}`), r.text);
    assert.match(messages(r.body), /clear text/);
    assert.ok(!r.text.includes(a.secret), r.text);
  }
  for (const [type, config, field, clear] of [
    ['neo4j', neo4j(neo.uri('neo4j+s')), 'uri', `neo4j://${at}`],
    ['couchbase', couchbase(cb.connectionString), 'connection_string', `couchbase://${at}`],
    ['redis', redis(raw.port), 'ssl', false],
    ['redis', redis(raw.port), 'uri', `redis://:${RD_PW}@${at}`],
  ] as const) {
    const created = await t.stack.call('POST', '/api/v1/destinations/', { ...t.asB, body: { name: `tls-${type}`, type, config } });
    assert.equal(created.status, 200, created.text);
    const r = await t.stack.call('PUT', `/api/v1/destinations/${created.body.id}`, { ...t.asB, body: { config: { ...config, [field]: clear } } });
    assert.equal(r.status, 422, r.text);
    assert.ok(locs(r.body).includes(`body.config.${field}`), r.text);
  }
  assert.equal(raw.connections, 0, 'nothing connected to the listener');
});

test('database protocols: configs stored before the rule are refused before connecting', async () => {
  const doc = { sourceId: 'src', sourceKey: 'a.txt', elements: [{ type: 'NarrativeText', element_id: 'e1', text: 'hello', metadata: {}, embeddings: [0.1, 0.2] }] };
  const at = `127.0.0.1:${raw.port}`;
  for (const [type, config] of [
    ['neo4j', { ...neo4j(`bolt://${at}`), batch_size: 100 }],
    ['neo4j', { ...neo4j(`neo4j://${at}`), batch_size: 100 }],
    ['couchbase', couchbase(`couchbase://${at}`)],
    ['couchbase', couchbase(`http://${at}`)],
    ['redis', redis(raw.port, { ssl: false })],
    ['redis', redis(raw.port, { password: undefined, uri: `redis://:${RD_PW}@${at}/0` })],
  ] as const) {
    const check = await checkConnection('destination', type, config);
    assert.equal(check.status, 'FAILURE', `${type}: ${JSON.stringify(check)}`);
    assert.match(check.reason!, /clear text/);
    await assert.rejects(deliverToDestination(type, config, doc as never), /clear text/, type);
  }
  const cbSource = { ...couchbase(`couchbase://${at}`), collection_id: 'id' };
  const sourceCheck = await checkConnection('source', 'couchbase', cbSource);
  assert.equal(sourceCheck.status, 'FAILURE', JSON.stringify(sourceCheck));
  assert.match(sourceCheck.reason!, /clear text/);
  await assert.rejects(
    (async () => {
      for await (const _ of listSourceObjects('couchbase', cbSource)) break;
    })(),
    /clear text/,
  );
  assert.equal(raw.connections, 0, 'no connection was opened, so no password reached the wire');
});

test('database protocols: clear text without a password is accepted; the TLS stand-ins work', async () => {
  const created = await t.stack.call('POST', '/api/v1/destinations/', { ...t.asB, body: { name: 'clear-no-secret', type: 'neo4j', config: neo4j(neoPlain.uri('bolt'), '') } });
  assert.equal(created.status, 200, created.text);
  const noSecret = await checkConnection('destination', 'neo4j', { ...neo4j(neoPlain.uri('bolt'), ''), batch_size: 100 });
  assert.equal(noSecret.status, 'SUCCESS', noSecret.reason);
  assert.match(neo.uri(), /^bolt\+s:\/\//);
  const tls = await checkConnection('destination', 'neo4j', { ...neo4j(neo.uri('neo4j+s')), batch_size: 100 });
  assert.equal(tls.status, 'SUCCESS', tls.reason);

  assert.match(cbPlain.connectionString, /^couchbase:\/\//);
  const cbCreated = await t.stack.call('POST', '/api/v1/destinations/', { ...t.asB, body: { name: 'cb-clear-no-secret', type: 'couchbase', config: couchbase(cbPlain.connectionString, '') } });
  assert.equal(cbCreated.status, 200, cbCreated.text);
  const cbNoSecret = await checkConnection('destination', 'couchbase', couchbase(cbPlain.connectionString, ''));
  assert.equal(cbNoSecret.status, 'SUCCESS', cbNoSecret.reason);
  assert.match(cb.connectionString, /^couchbases:\/\//);
  const cbTls = await checkConnection('destination', 'couchbase', couchbase(cb.connectionString));
  assert.equal(cbTls.status, 'SUCCESS', cbTls.reason);
});

test('redis: clear text without a password works against a plain redis-server; with a password, TLS does', { skip: redisServerBinary().skip }, async () => {
  const created = await t.stack.call('POST', '/api/v1/destinations/', { ...t.asB, body: { name: 'rd-clear-no-secret', type: 'redis', config: redis(raw.port, { password: undefined, ssl: false }) } });
  assert.equal(created.status, 200, created.text);
  const plainRedis = await startRedisServer({ tls: false });
  const tlsRedis = await startRedisServer({ password: RD_PW });
  try {
    const noSecret = await checkConnection('destination', 'redis', redis(plainRedis.port, { password: undefined, ssl: false }));
    assert.equal(noSecret.status, 'SUCCESS', noSecret.reason);
    const viaUri = await checkConnection('destination', 'redis', redis(plainRedis.port, { password: undefined, uri: `redis://127.0.0.1:${plainRedis.port}/0` }));
    assert.equal(viaUri.status, 'SUCCESS', viaUri.reason);
    const tls = await checkConnection('destination', 'redis', redis(tlsRedis.port));
    assert.equal(tls.status, 'SUCCESS', tls.reason);
    assert.match(tls.reason!, / over TLS: /);
  } finally {
    await Promise.all([plainRedis.stop(), tlsRedis.stop()]);
  }
});

// The families the audit found after Databricks and Astra DB, one block each: create (422 naming the
// field), a config stored before the rule (refused before any request), and http:// without a secret
// (an anonymous local store) still accepted.

async function refusedAtCreate(attempts: { path?: string; type: string; config: Record<string, unknown>; field: string; secret: string }[]) {
  for (const a of attempts) {
    const r = await t.stack.call('POST', a.path ?? '/api/v1/destinations/', { ...t.asB, body: { name: 'clear', type: a.type, config: a.config } });
    assert.equal(r.status, 422, `${a.type} ${JSON.stringify(a.config)} -> ${r.status} ${r.text}`);
    assert.ok(locs(r.body).includes(`body.config.${a.field}`), r.text);
    assert.match(messages(r.body), /clear text/);
    assert.ok(!r.text.includes(a.secret), 'the secret is not echoed');
  }
}

async function acceptedAtCreate(path: string, type: string, config: Record<string, unknown>) {
  const r = await t.stack.call('POST', path, { ...t.asB, body: { name: `anonymous-${type}`, type, config } });
  assert.equal(r.status, 200, `${type} without a secret over http:// -> ${r.status} ${r.text}`);
}

async function refusedAtRun(type: string, config: Record<string, unknown>, source = false) {
  const doc = { sourceId: 'src', sourceKey: 'a.txt', elements: [{ type: 'NarrativeText', element_id: 'e1', text: 'hello', metadata: {}, embeddings: [0.1, 0.2] }] };
  const check = await checkConnection(source ? 'source' : 'destination', type, config);
  assert.equal(check.status, 'FAILURE', `${type}: ${JSON.stringify(check)}`);
  assert.match(check.reason!, /clear text/, type);
  if (source) {
    await assert.rejects(
      (async () => {
        for await (const _ of listSourceObjects(type, config)) break;
      })(),
      /clear text/,
      type,
    );
  } else {
    await assert.rejects(deliverToDestination(type, config, doc as never), /clear text/, type);
  }
}

test('elasticsearch and opensearch: http:// hosts with an API key, a password or AWS keys are refused', async () => {
  const KEY = 'ZXMta2V5OmVzLXNlY3JldA==';
  const PW = 'os-password-value';
  const AWS_SECRET = 'wJalrXUtnFEMI/aws-secret-value';
  const es = (hosts: string[]) => ({ hosts, index_name: 'elements', es_api_key: KEY });
  const os = (hosts: string[], auth: Record<string, unknown>) => ({ hosts, index_name: 'elements', ...auth });
  const basic = { username: 'admin', password: PW };
  const iam = { aws_access_key_id: 'AKIDEXAMPLE', aws_secret_access_key: AWS_SECRET, aws_region: 'eu-west-1', aws_service: 'es' };
  const bare = plain.url.replace('http://', ''); // OpenSearch without use_ssl: a bare host is http
  await refusedAtCreate([
    { type: 'elasticsearch', config: es([plain.url]), field: 'hosts', secret: KEY },
    { path: '/api/v1/sources/', type: 'elasticsearch', config: es(['https://es.example.com', plain.url]), field: 'hosts', secret: KEY },
    { type: 'opensearch', config: os([plain.url], basic), field: 'hosts', secret: PW },
    { type: 'opensearch', config: os([bare], basic), field: 'hosts', secret: PW },
    { type: 'opensearch', config: os([plain.url], iam), field: 'hosts', secret: AWS_SECRET },
    { path: '/api/v1/sources/', type: 'opensearch', config: os([plain.url], basic), field: 'hosts', secret: PW },
  ]);
  // Update: a TLS cluster may not be moved to http://.
  const tls = await startSearchStandIn({ dialect: 'elasticsearch', apiKeys: { [KEY]: ['all'] } });
  try {
    const created = await t.stack.call('POST', '/api/v1/destinations/', { ...t.asB, body: { name: 'tls-es', type: 'elasticsearch', config: es([tls.url]) } });
    assert.equal(created.status, 200, created.text);
    const r = await t.stack.call('PUT', `/api/v1/destinations/${created.body.id}`, { ...t.asB, body: { config: { ...created.body.config, es_api_key: KEY, hosts: [plain.url] } } });
    assert.equal(r.status, 422, r.text);
    assert.ok(locs(r.body).includes('body.config.hosts'), r.text);
  } finally {
    await tls.stop();
  }
  // Anonymous clusters over http:// stay legitimate; so does use_ssl with a bare host and a password.
  await acceptedAtCreate('/api/v1/destinations/', 'opensearch', os([plain.url], {}));
  await acceptedAtCreate('/api/v1/sources/', 'opensearch', os([plain.url], { username: 'reader' }));
  await acceptedAtCreate('/api/v1/destinations/', 'opensearch', os([bare], { ...basic, use_ssl: true }));
  // Stored before the rule: refused before any request.
  for (const source of [false, true]) {
    await refusedAtRun('elasticsearch', es([plain.url]), source);
    await refusedAtRun('opensearch', os([plain.url], basic), source);
    await refusedAtRun('opensearch', os([bare], basic), source);
    await refusedAtRun('opensearch', os([plain.url], iam), source);
  }
  assert.equal(plain.requests.length, 0, 'no credential reached the wire');
  // An anonymous plain-HTTP cluster is still used.
  const anon = await startSearchStandIn({ dialect: 'opensearch', plain: true });
  try {
    const check = await checkConnection('destination', 'opensearch', os([anon.url], {}));
    assert.doesNotMatch(check.reason ?? '', /clear text/);
    assert.ok(anon.requests.length > 0, 'the anonymous cluster was asked');
  } finally {
    await anon.stop();
  }
});

test('qdrant-cloud: an http:// url with an API key is refused', async () => {
  const KEY = 'qdrant-api-key-value';
  const qdrant = (url: string, api_key = KEY) => ({ url, api_key, collection_name: 'docs' });
  await refusedAtCreate([
    { type: 'qdrant-cloud', config: qdrant(plain.url), field: 'url', secret: KEY },
    { type: 'qdrant-cloud', config: qdrant(plain.url.replace('http', 'HTTP')), field: 'url', secret: KEY },
  ]);
  const tls = await startQdrantStandIn({ apiKey: KEY });
  try {
    assert.match(tls.url, /^https:\/\//);
    const created = await t.stack.call('POST', '/api/v1/destinations/', { ...t.asB, body: { name: 'tls-qdrant', type: 'qdrant-cloud', config: qdrant(tls.url) } });
    assert.equal(created.status, 200, created.text);
    const r = await t.stack.call('PUT', `/api/v1/destinations/${created.body.id}`, { ...t.asB, body: { config: { ...created.body.config, api_key: KEY, url: plain.url } } });
    assert.equal(r.status, 422, r.text);
    assert.ok(locs(r.body).includes('body.config.url'), r.text);
    const ok = await checkConnection('destination', 'qdrant-cloud', { ...qdrant(tls.url), batch_size: 50 });
    assert.equal(ok.status, 'SUCCESS', ok.reason);
  } finally {
    await tls.stop();
  }
  // A keyless local cluster over http:// stays legitimate.
  await acceptedAtCreate('/api/v1/destinations/', 'qdrant-cloud', qdrant(plain.url, ''));
  await refusedAtRun('qdrant-cloud', { ...qdrant(plain.url), batch_size: 50 });
  assert.equal(plain.requests.length, 0, 'the API key did not reach the wire');
  const anon = await checkConnection('destination', 'qdrant-cloud', { ...qdrant(plain.url, ''), batch_size: 50 });
  assert.doesNotMatch(anon.reason ?? '', /clear text/);
  assert.ok(plain.requests.length > 0, 'the keyless cluster was asked');
  assert.ok(plain.requests.every((r) => !r.headers['api-key']), 'and no key header was sent');
  plain.requests.length = 0;
});

test('weaviate-cloud: an http:// cluster_url (REST and gRPC in clear) with an API key is refused', async () => {
  const KEY = 'weaviate-api-key-value';
  const weaviate = (cluster_url: string, api_key = KEY) => ({ cluster_url, api_key, collection: 'Docs' });
  await refusedAtCreate([
    { type: 'weaviate-cloud', config: weaviate(plain.url), field: 'cluster_url', secret: KEY },
    { type: 'weaviate-cloud', config: weaviate(` ${plain.url.replace('http', 'Http')}`), field: 'cluster_url', secret: KEY },
  ]);
  const tls = await startWeaviateTestServer({ apiKey: KEY });
  try {
    assert.match(tls.url, /^https:\/\//);
    const created = await t.stack.call('POST', '/api/v1/destinations/', { ...t.asB, body: { name: 'tls-weaviate', type: 'weaviate-cloud', config: weaviate(tls.url) } });
    assert.equal(created.status, 200, created.text);
    const r = await t.stack.call('PUT', `/api/v1/destinations/${created.body.id}`, { ...t.asB, body: { config: { ...created.body.config, api_key: KEY, cluster_url: plain.url } } });
    assert.equal(r.status, 422, r.text);
    assert.ok(locs(r.body).includes('body.config.cluster_url'), r.text);
    const ok = await checkConnection('destination', 'weaviate-cloud', weaviate(tls.url));
    assert.equal(ok.status, 'SUCCESS', ok.reason);
  } finally {
    await tls.stop();
  }
  // A keyless cluster over http:// stays legitimate.
  await acceptedAtCreate('/api/v1/destinations/', 'weaviate-cloud', weaviate(plain.url, ''));
  await refusedAtRun('weaviate-cloud', weaviate(plain.url));
  assert.equal(plain.requests.length, 0, 'the API key did not reach the wire');
  const anon = await startWeaviateTestServer({ plain: true });
  try {
    const check = await checkConnection('destination', 'weaviate-cloud', weaviate(anon.url, ''));
    assert.doesNotMatch(check.reason ?? '', /clear text/);
    assert.ok(anon.calls.length > 0, 'the keyless cluster was asked');
  } finally {
    await anon.stop();
  }
});

test('milvus: an http:// uri (clear-text gRPC) with a token or a password is refused', async () => {
  const TOKEN_VALUE = 'milvus-token-value';
  const PW = 'milvus-password-value';
  const milvus = (uri: string, auth: Record<string, unknown>) => ({ uri, collection_name: 'elements', record_id_key: 'record_id', ...auth });
  await refusedAtCreate([
    { type: 'milvus', config: milvus(plain.url, { token: TOKEN_VALUE }), field: 'uri', secret: TOKEN_VALUE },
    { type: 'milvus', config: milvus(plain.url, { user: 'root', password: PW }), field: 'uri', secret: PW },
  ]);
  // A plain gRPC Milvus: a stored config with credentials sends it nothing.
  const clear = await startMilvusTestServer({ token: TOKEN_VALUE, plain: true });
  const tls = await startMilvusTestServer({ token: TOKEN_VALUE });
  try {
    assert.match(clear.uri, /^http:\/\//);
    assert.match(tls.uri, /^https:\/\//);
    const created = await t.stack.call('POST', '/api/v1/destinations/', { ...t.asB, body: { name: 'tls-milvus', type: 'milvus', config: milvus(tls.uri, { token: TOKEN_VALUE }) } });
    assert.equal(created.status, 200, created.text);
    const r = await t.stack.call('PUT', `/api/v1/destinations/${created.body.id}`, { ...t.asB, body: { config: { ...created.body.config, token: TOKEN_VALUE, uri: clear.uri } } });
    assert.equal(r.status, 422, r.text);
    assert.ok(locs(r.body).includes('body.config.uri'), r.text);
    await refusedAtRun('milvus', milvus(clear.uri, { token: TOKEN_VALUE }));
    await refusedAtRun('milvus', milvus(clear.uri, { user: 'root', password: PW }));
    assert.equal(clear.calls.length, 0, 'no credential reached the wire');
    // Without credentials http:// stays legitimate: accepted, and the server is asked.
    await acceptedAtCreate('/api/v1/destinations/', 'milvus', milvus(clear.uri, {}));
    const anon = await checkConnection('destination', 'milvus', milvus(clear.uri, {}));
    assert.doesNotMatch(anon.reason ?? '', /clear text/);
    assert.ok(clear.calls.length > 0, 'the keyless server was asked');
  } finally {
    await Promise.all([clear.stop(), tls.stop()]);
  }
  assert.equal(plain.requests.length, 0);
});

test('ibm_watsonx_s3: an http:// iceberg_endpoint (the IAM bearer token) or IAM token URL (the API key) is refused', async () => {
  const wx = await startWatsonxStandIn(); // HTTPS catalog + IAM; IBM_IAM_TOKEN_URL points at it while it runs
  wx.createTable('ns', 'elements', platformFields());
  // object_storage_endpoint stays http:// (s3rver): S3 requests are signed, the HMAC secret is not sent.
  const watsonx = (iceberg_endpoint: string) => ({
    iam_api_key: IAM_API_KEY,
    access_key_id: S3_CREDENTIALS.accessKeyId,
    secret_access_key: S3_CREDENTIALS.secretAccessKey,
    iceberg_endpoint,
    object_storage_endpoint: wx.s3Endpoint,
    object_storage_region: 'us-east-1',
    catalog: wx.catalog,
    namespace: 'ns',
    table: 'elements',
  });
  try {
    assert.match(wx.endpoint, /^https:\/\//);
    await refusedAtCreate([
      { type: 'ibm_watsonx_s3', config: watsonx(plain.url), field: 'iceberg_endpoint', secret: IAM_API_KEY },
      { type: 'ibm_watsonx_s3', config: watsonx(plain.url.replace('http', 'HTTP')), field: 'iceberg_endpoint', secret: IAM_API_KEY },
    ]);
    // Update: a TLS catalog may not be moved to http://.
    const created = await t.stack.call('POST', '/api/v1/destinations/', { ...t.asB, body: { name: 'tls-watsonx', type: 'ibm_watsonx_s3', config: watsonx(wx.endpoint) } });
    assert.equal(created.status, 200, created.text);
    const r = await t.stack.call('PUT', `/api/v1/destinations/${created.body.id}`, { ...t.asB, body: { config: { ...watsonx(wx.endpoint), iceberg_endpoint: plain.url } } });
    assert.equal(r.status, 422, r.text);
    assert.ok(locs(r.body).includes('body.config.iceberg_endpoint'), r.text);
    // Stored before the rule: refused before any request (neither IAM nor the catalog is asked).
    const before = wx.requests.length;
    await refusedAtRun('ibm_watsonx_s3', watsonx(plain.url));
    // The IAM token URL (a deployment setting) over http:// would carry the API key: refused too.
    const saved = process.env.IBM_IAM_TOKEN_URL;
    process.env.IBM_IAM_TOKEN_URL = `${plain.url}/identity/token`;
    try {
      await refusedAtRun('ibm_watsonx_s3', watsonx(wx.endpoint));
    } finally {
      process.env.IBM_IAM_TOKEN_URL = saved;
    }
    assert.equal(wx.requests.length, before, 'the catalog was not asked');
    // The TLS stand-in, trusted through CONNECTOR_CA_FILE, works.
    const ok = await checkConnection('destination', 'ibm_watsonx_s3', watsonx(wx.endpoint));
    assert.equal(ok.status, 'SUCCESS', ok.reason);
  } finally {
    await wx.stop();
  }
  assert.equal(plain.requests.length, 0, 'no API key or bearer token reached the wire');
});

test('confluence and jira: an http:// site url with a password, API token or personal access token is refused', async () => {
  const PW = 'atlassian-api-token-value';
  const PAT = 'atlassian-pat-value';
  const confluence = (url: string, auth: Record<string, unknown>) => ({ url, cloud: false, username: 'u', spaces: ['ENG'], ...auth });
  const jira = (url: string, auth: Record<string, unknown>) => ({ url, cloud: false, username: 'u', projects: ['ENG'], ...auth });
  await refusedAtCreate([
    { path: '/api/v1/sources/', type: 'confluence', config: confluence(plain.url, { username: 'u', api_token: PW }), field: 'url', secret: PW },
    { path: '/api/v1/sources/', type: 'confluence', config: confluence(plain.url, { username: 'u', password: PW }), field: 'url', secret: PW },
    { path: '/api/v1/sources/', type: 'confluence', config: confluence(plain.url, { token: PAT }), field: 'url', secret: PAT },
    { path: '/api/v1/sources/', type: 'jira', config: jira(plain.url, { username: 'u', password: PW }), field: 'url', secret: PW },
    { path: '/api/v1/sources/', type: 'jira', config: jira(plain.url, { token: PAT }), field: 'url', secret: PAT },
  ]);
  // Stored before the rule: refused before any request.
  for (const auth of [{ username: 'u', api_token: PW }, { token: PAT }]) await refusedAtRun('confluence', confluence(plain.url, auth), true);
  for (const auth of [{ username: 'u', password: PW }, { token: PAT }]) await refusedAtRun('jira', jira(plain.url, auth), true);
  assert.equal(plain.requests.length, 0, 'no credential reached the wire');
  // https:// is accepted (both families always carry a credential: there is no anonymous http case).
  const r = await t.stack.call('POST', '/api/v1/sources/', { ...t.asB, body: { name: 'tls-jira', type: 'jira', config: jira(plain.url.replace('http:', 'https:'), { token: PAT }) } });
  assert.equal(r.status, 200, r.text);
});
