// Neo4j destination through the registry and the official `neo4j-driver`, against the local Bolt 5.4
// stand-in (test-server.ts). The stand-in does not execute Cypher: it keeps every statement the driver
// sent with its parameters and transaction, and applies the writer's own statement shapes (delete of
// a document's graph, UNWIND node/relationship merges, schema) to an in-memory graph. So these tests
// read back exactly what the driver sent (node texts, 384-float embeddings, record_id, metadata,
// relationships) and check what can be checked of the semantics: the delete by the same record_id
// precedes the writes in the same transaction, batches honour batch_size, a failure rolls back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { configIssues, nothingReached } from '../../support/connector-tests';
import { deflateSync } from 'node:zlib';
import { checkConnection, deliverToDestination, outputConfig, removeDocumentRecords, validateConfig } from '../../../lambdas/connectors/registry';
import { documentRecordId, enhancedElementId } from '../../../lambdas/connectors/records/ids';
import { startNeo4jStandIn, type Neo4jStandIn } from '../../../lambdas/connectors/neo4j/test-server';
import { closedPort } from './helpers';
import { trustStandIns } from '../../support/stand-in-ca';
import { DIMS, element, elements, logSink, vec } from './vector-fixtures';

const PASSWORD = 'neo4j-pw-secret';
let db: Neo4jStandIn;
const config = (over: Record<string, unknown> = {}) =>
  validateConfig('destination', 'neo4j', { uri: db.uri(), username: 'app', password: PASSWORD, database: 'neo4j', ...over });
const rid = (key: string) => documentRecordId('src', key);
const chunks = (key: string) => db.nodes('Chunk').filter((n) => n.properties.record_id === rid(key));
const writes = (from: number) => db.statements.slice(from).filter((s) => !/^\s*(CREATE CONSTRAINT|CREATE VECTOR INDEX|SHOW INDEXES)/.test(s.query));

let untrustStandIns: (() => void) | undefined;
before(async () => {
  untrustStandIns = trustStandIns(); // the stand-in serves bolt+s (the password goes over TLS only)
  db = await startNeo4jStandIn({ users: { app: { password: PASSWORD }, reader: { password: 'reader-pw', role: 'reader' } } });
});
after(async () => {
  untrustStandIns?.();
  await db?.stop();
});

test('config: the platform fields; password secret; +ssc, credentials in the uri and clear text with a password refused', () => {
  const c = config();
  assert.equal(outputConfig('destination', 'neo4j', c).password, '**********');
  assert.equal(c.batch_size, 100);
  const issue = (over: Record<string, unknown>) => configIssues(() => validateConfig('destination', 'neo4j', { uri: 'neo4j+s://x.databases.neo4j.io', username: 'neo4j', password: 'p', database: 'neo4j', ...over })) || undefined;
  assert.equal(issue({}), undefined);
  assert.match(issue({ uri: 'http://db.example.com:7474' })!, /body\.config\.uri: uri must be <scheme>:\/\/<host>:<port> with scheme bolt, bolt\+s, neo4j or neo4j\+s/);
  assert.match(issue({ uri: 'bolt+ssc://db.example.com' })!, /the bolt\+ssc scheme accepts any certificate/);
  assert.match(issue({ uri: 'bolt://u:p@db.example.com' })!, /must not carry credentials/);
  assert.match(issue({ uri: 'bolt://169.254.169.254:7687' })!, /instance metadata address/);
  assert.match(issue({ uri: 'bolt://db.example.com' })!, /body\.config\.uri: uri is a plain bolt:\/\/ URL, which would send the password in clear text: use bolt\+s:\/\//);
  assert.match(issue({ uri: 'NEO4J://db.example.com' })!, /body\.config\.uri: uri is a plain neo4j:\/\/ URL, .*use neo4j\+s:\/\//);
  assert.equal(issue({ uri: 'bolt://db.example.com', password: '' }), undefined, 'clear text without a password');
  assert.match(issue({ batch_size: 0 })!, /body\.config\.batch_size/);
  assert.match(issue({ database: ' ' })!, /database must not be empty/);
});

test('check: authenticated, the database exists and accepts a write (rolled back), vector index reported', async () => {
  const from = db.statements.length;
  const ok = await checkConnection('destination', 'neo4j', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, `Neo4j/5.26.0 at 127.0.0.1:${db.port}, database neo4j: writes accepted; no vector index chunk_vector yet (the first write with embeddings creates it)`);
  const probe = db.statements.slice(from).find((s) => s.query.startsWith('CREATE (n:`Document`'))!;
  assert.equal(probe.committed, false, 'the probe write was rolled back');
  assert.equal(db.nodes().length, 0);

  const routed = await checkConnection('destination', 'neo4j', config({ uri: db.uri('neo4j+s') }));
  assert.equal(routed.status, 'SUCCESS', routed.reason);

  const badPw = await checkConnection('destination', 'neo4j', config({ password: 'wrong-password-123' }));
  assert.equal(badPw.status, 'FAILURE');
  assert.equal(badPw.reason, `cannot connect to 127.0.0.1:${db.port}: The client is unauthorized due to authentication failure. (Neo.ClientError.Security.Unauthorized)`);

  const noDb = await checkConnection('destination', 'neo4j', config({ database: 'graphs' }));
  assert.equal(noDb.status, 'FAILURE');
  assert.match(noDb.reason!, /Database does not exist\. Database name: 'graphs'\. \(Neo\.ClientError\.Database\.DatabaseNotFound\)$/);

  const reader = await checkConnection('destination', 'neo4j', config({ username: 'reader', password: 'reader-pw' }));
  assert.equal(reader.status, 'FAILURE');
  assert.equal(reader.reason, "database neo4j refused a write: Create node with labels 'Document' on database 'neo4j' is not allowed for user 'reader' with roles [PUBLIC, reader]. (Neo.ClientError.Security.Forbidden)");

  const down = await checkConnection('destination', 'neo4j', config({ uri: `bolt+s://127.0.0.1:${await closedPort()}` }));
  assert.equal(down.status, 'FAILURE');
  assert.match(down.reason!, /^cannot connect to 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  for (const r of [badPw, noDb, reader, down]) assert.ok(!r.reason!.includes(PASSWORD) && !r.reason!.includes('wrong-password-123'), r.reason);
});

test('write: the lexical graph with texts, 384-dim embeddings, metadata; a rewrite deletes the document first', async () => {
  const from = db.statements.length;
  const first = await deliverToDestination('neo4j', config(), { sourceId: 'src', sourceKey: 'dir/a.txt', elements: elements(3).map((e) => ({ ...e, type: 'CompositeElement' })) });
  assert.deepEqual(first, { written: 3, deleted: 0 });
  assert.deepEqual([...db.constraints].sort(), ['chunk_id', 'document_id', 'entity_id', 'unstructuredelement_id']);
  assert.deepEqual(db.indexes.get('chunk_vector'), { label: 'Chunk', property: 'embedding', similarity: 'cosine', dimensions: DIMS });

  // One transaction: the delete by this record_id first, then the node and relationship merges.
  const w = writes(from);
  assert.ok(w.every((s) => s.tx === w[0]!.tx && s.committed), 'one committed transaction');
  assert.match(w[0]!.query, /^MATCH \(d:`Document` \{id: \$record_id\}\)/);
  assert.deepEqual(w[0]!.params, { record_id: rid('dir/a.txt') });
  assert.deepEqual(w.slice(1).map((s) => s.query.split('\n')[1]), [
    'MERGE (n:`Chunk` {id: node.id})',
    'MERGE (n:`Document` {id: node.id})',
    'MATCH (u:`Chunk` {id: edge.source})',
    'MATCH (u:`Chunk` {id: edge.source})',
  ]);
  const sentChunks = w[1]!.params.nodes as any[];
  assert.equal(sentChunks.length, 3);
  assert.equal(sentChunks[0].id, enhancedElementId('el-0-6', rid('dir/a.txt')));
  assert.equal(sentChunks[0].vector.length, DIMS);
  assert.deepEqual(sentChunks[0].vector.slice(0, 3), vec(0).slice(0, 3));
  assert.equal(sentChunks[0].properties.text, 'text 0');
  assert.equal(sentChunks[0].properties.record_id, rid('dir/a.txt'));
  assert.equal(sentChunks[0].properties.metadata_page_number, 1, 'integers sent as Bolt integers');
  assert.deepEqual(sentChunks[0].properties.metadata_languages, ['eng']);
  assert.equal(sentChunks[0].properties.metadata_data_source_url, 's3://b/a.txt');
  assert.equal(sentChunks[0].properties.metadata_data_source_record_locator_path, 'a.txt');

  const doc = db.nodes('Document').find((n) => n.id === rid('dir/a.txt'))!;
  assert.deepEqual(doc.properties, { id: rid('dir/a.txt'), name: 'a.txt', source_key: 'dir/a.txt', record_id: rid('dir/a.txt'), date_modified: '2026-01-02T03:04:05Z' });
  assert.equal(chunks('dir/a.txt').length, 3);
  assert.equal(db.edges('PART_OF_DOCUMENT').length, 3);
  assert.equal(db.edges('NEXT_CHUNK').length, 2);

  await deliverToDestination('neo4j', config(), { sourceId: 'src', sourceKey: 'b.txt', elements: elements(1, 'other').map((e) => ({ ...e, type: 'CompositeElement' })) });
  const again = db.statements.length;
  const second = await deliverToDestination('neo4j', config(), { sourceId: 'src', sourceKey: 'dir/a.txt', elements: [element(0, 'text 0'), element(7, 'seven')].map((e) => ({ ...e, type: 'CompositeElement' })) });
  assert.deepEqual(second, { written: 2, deleted: 3 });
  assert.deepEqual(writes(again)[0]!.params, { record_id: rid('dir/a.txt') }, 'the rewrite deletes under the same record_id before writing');
  assert.deepEqual(chunks('dir/a.txt').map((n) => n.properties.text).sort(), ['seven', 'text 0']);
  assert.ok(chunks('dir/a.txt').every((n) => n.embedding?.length === DIMS));
  assert.equal(chunks('b.txt').length, 1, 'b.txt untouched');

  assert.equal(await removeDocumentRecords('neo4j', config(), { sourceId: 'src', sourceKey: 'b.txt' }), 1);
  assert.equal(chunks('b.txt').length, 0);
  assert.equal(db.nodes('Document').filter((n) => n.id === rid('b.txt')).length, 0);
});

test('chunks with orig_elements and entities: original elements and entities as the platform links them', async () => {
  const orig = [
    { type: 'Title', element_id: 'o1', text: 'Intro', metadata: { filename: 'c.txt', text_as_html: '<p>x</p>' } },
    { type: 'NarrativeText', element_id: 'o2', text: 'Body', metadata: { filename: 'c.txt' } },
  ];
  const chunk = element(0, 'Intro Body', {
    orig_elements: deflateSync(Buffer.from(JSON.stringify(orig))).toString('base64'),
    entities: { items: [{ entity: 'Ada', type: 'PERSON' }], relationships: [{ from: 'Ada', relationship: 'KNOWS`X', to: 'Bob' }] },
  });
  await deliverToDestination('neo4j', config(), { sourceId: 'src', sourceKey: 'c.txt', elements: [chunk] });
  const el = db.nodes('UnstructuredElement').filter((n) => n.properties.record_id === rid('c.txt'));
  assert.deepEqual(el.map((n) => n.properties.text).sort(), ['Body', 'Intro']);
  assert.ok(el.every((n) => !('metadata_text_as_html' in n.properties)));
  assert.equal(db.edges('PART_OF_CHUNK').length, 2);
  assert.deepEqual(db.nodes('Entity').map((n) => n.id).sort(), ['Ada', 'Bob', 'PERSON']);
  assert.equal(db.edges('HAS_ENTITY').length, 1);
  assert.equal(db.edges('KNOWS`X').length, 1, 'a relationship name with a backtick is quoted, not injected');
  assert.ok(!('metadata_orig_elements' in chunks('c.txt')[0]!.properties));
});

test('batches honour batch_size; transient errors roll back and retry the whole file', async () => {
  const sink = logSink();
  db.fail({ match: /UNWIND \$edges/, code: 'Neo.TransientError.Transaction.DeadlockDetected', message: 'ForsetiClient[transactionId=7] can\'t acquire ExclusiveLock' });
  const from = db.statements.length;
  const r = await deliverToDestination('neo4j', config({ batch_size: 2 }), { sourceId: 'src', sourceKey: 'batched.txt', elements: elements(5).map((e) => ({ ...e, type: 'CompositeElement' })) }, { log: sink.log });
  assert.equal(r.written, 5);
  assert.equal(chunks('batched.txt').length, 5);
  const retries = sink.lines.filter((l) => l.msg === 'neo4j write retried');
  assert.equal(retries.length, 1);
  assert.match(String(retries[0]!.fields!.error), /^write to database neo4j failed: ForsetiClient\[transactionId=7\] can't acquire ExclusiveLock \(Neo\.TransientError\.Transaction\.DeadlockDetected\)$/);
  const w = writes(from);
  assert.ok(w.filter((s) => s.tx === w[0]!.tx).every((s) => s.committed === false), 'the first attempt was rolled back');
  const last = w.filter((s) => s.tx === w.at(-1)!.tx);
  assert.deepEqual(last.filter((s) => /MERGE \(n:`Chunk`/.test(s.query)).map((s) => s.params.nodes.length), [2, 2, 1]);
  assert.deepEqual(last.filter((s) => /UNWIND \$edges/.test(s.query)).map((s) => s.params.edges.length), [2, 2, 1, 2, 2]);
});

test('a statement the server refuses fails the file with its message; a vector index of another dimension is named', async () => {
  db.fail({ match: /MERGE \(n:`Chunk`/, code: 'Neo.ClientError.Schema.ConstraintValidationFailed', message: "Node(12) already exists with label `Chunk` and property `id` = 'x'" });
  await assert.rejects(
    deliverToDestination('neo4j', config(), { sourceId: 'src', sourceKey: 'bad.txt', elements: elements(1).map((e) => ({ ...e, type: 'CompositeElement' })) }),
    (err: Error) => err.message === "write to database neo4j failed: Node(12) already exists with label `Chunk` and property `id` = 'x' (Neo.ClientError.Schema.ConstraintValidationFailed)",
  );
  const small = [{ ...element(0, 'tiny', {}, 8), type: 'CompositeElement' }];
  await assert.rejects(deliverToDestination('neo4j', config(), { sourceId: 'src', sourceKey: 'small.txt', elements: small }), /the vector index chunk_vector of database neo4j has 384 dimensions but the embeddings have 8/);
  await assert.rejects(
    deliverToDestination('neo4j', config({ username: 'reader', password: 'reader-pw' }), { sourceId: 'src', sourceKey: 'r.txt', elements: elements(1) }),
    /cannot prepare database neo4j: .*Neo\.ClientError\.Security\.Forbidden/,
  );
});

test('CONNECTORS_DENY_PRIVATE_NETWORKS: every Bolt connection goes through the policy', async () => {
  const literal = config();
  const named = config({ uri: `neo4j+s://localhost:${db.port}` });
  await nothingReached(() => db.statements.length, async () => {
    assert.throws(() => config(), /body\.config\.uri: host 127\.0\.0\.1 resolves to a private network address/, 'a literal address is a 422');
    const r = await checkConnection('destination', 'neo4j', literal);
    assert.equal(r.status, 'FAILURE');
    assert.match(r.reason!, /host 127\.0\.0\.1 resolves to a private network address/);
    const n = await checkConnection('destination', 'neo4j', named);
    assert.equal(n.status, 'FAILURE');
    assert.match(n.reason!, /localhost resolves to a private network address/);
    await assert.rejects(deliverToDestination('neo4j', named, { sourceId: 'src', sourceKey: 'a.txt', elements: elements(1) }), /private network address/);
  }, { message: 'no statement reached the server' });
});

test('the stand-in fails a statement it does not know, as a server fails a wrong one (a wrong statement cannot pass)', async () => {
  const plain = await startNeo4jStandIn({ users: { app: { password: '' } }, tls: false });
  const neo4j = (await import('neo4j-driver')).default;
  const driver = neo4j.driver(plain.uri(), neo4j.auth.basic('app', ''));
  try {
    await assert.rejects(driver.executeQuery('MATCH (n) RETRUN n'), (e: any) => e.code === 'Neo.ClientError.Statement.SyntaxError');
    assert.equal(plain.statements.at(-1)?.query, 'MATCH (n) RETRUN n');
    assert.equal(plain.statements.at(-1)?.committed, false);
  } finally {
    await driver.close();
    await plain.stop();
  }
});
