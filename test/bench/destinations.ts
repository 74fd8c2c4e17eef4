// npm run bench:destinations — records/s written by record destinations, 10,000 chunks with
// 384-dimension vectors, per batch size: Postgres+pgvector (PGlite over the wire, the real `pg`
// driver), then Pinecone, Qdrant and Astra DB through their official clients against the local
// stand-ins (which run in this same process: their JSON parsing is part of the figure). Each figure
// is a full replace of one document of N records (delete of the earlier copy + writes), as a job's
// file write does it. BENCH_STORES=pinecone,qdrant-cloud,astradb,elasticsearch,opensearch,azure_ai_search,weaviate-cloud,milvus,mongodb,redis,kafka-cloud,snowflake,neo4j,motherduck,delta_table,gcs,onedrive picks the stores (Postgres always runs).
// MongoDB runs against the in-process wire stand-in (BSON decoding in this process is part of the figure);
// Redis against a real redis-server when installed, also with 100,000 other keys in the database (the
// replace's SCAN walks the whole keyspace).
import { deliverToDestination } from '../../lambdas/connectors/registry';
import { platformElementsTable, startPgTestServer } from '../../lambdas/connectors/postgres/test-server';
import { startPineconeStandIn } from '../../lambdas/connectors/pinecone/test-server';
import { startQdrantStandIn } from '../../lambdas/connectors/qdrant/test-server';
import { startAstraStandIn } from '../../lambdas/connectors/astradb/test-server';
import { trustStandIns } from '../support/stand-in-ca';

const N = Number(process.env.BENCH_RECORDS ?? 10_000);
const DIMS = 384;
const BATCHES = (process.env.BENCH_BATCH_SIZES ?? '50,200,500,1000').split(',').map(Number);

function elements(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    type: 'CompositeElement',
    element_id: `e${i}`,
    text: `chunk ${i} `.repeat(40),
    metadata: { filename: 'bench.pdf', filetype: 'application/pdf', page_number: 1 + Math.floor(i / 20), languages: ['eng'] },
    embeddings: Array.from({ length: DIMS }, (_, j) => Math.sin(i * 31 + j)),
  }));
}

const els = elements(N);
const STORES = (process.env.BENCH_STORES ?? 'pinecone,qdrant-cloud,astradb,elasticsearch,opensearch,azure_ai_search,weaviate-cloud,milvus,mongodb,redis,kafka-cloud,snowflake,neo4j,motherduck,delta_table,gcs,onedrive').split(',');
const pg = await startPgTestServer();
await pg.db.exec(platformElementsTable('elements', DIMS));
console.log(`postgres destination (PGlite ${pg.host}:${pg.port}, pgvector, pg driver): ${N} records × ${DIMS} dims`);
let best = { rate: 0, batch: 0 };
for (const batch of BATCHES) {
  const config = { host: pg.host, port: pg.port, database: 'postgres', username: 'bench', password: 'x', table_name: 'elements', batch_size: batch };
  await deliverToDestination('postgres', config, { sourceId: 'bench', sourceKey: `warm-${batch}`, elements: els.slice(0, 200) });
  const t0 = performance.now();
  const r = await deliverToDestination('postgres', config, { sourceId: 'bench', sourceKey: 'doc', elements: els });
  const s = (performance.now() - t0) / 1000;
  const rate = r.written / s;
  if (rate > best.rate) best = { rate, batch };
  console.log(`  batch_size ${String(batch).padStart(5)}: ${r.written} written (${r.deleted ?? 0} replaced) in ${s.toFixed(2)} s = ${Math.round(rate).toLocaleString('en-US')} records/s`);
}
console.log(`best: ${Math.round(best.rate).toLocaleString('en-US')} records/s at batch_size ${best.batch} (target ≥ 5,000: ${best.rate >= 5000 ? 'met' : 'NOT met'})`);
await pg.stop();

/** Writes the document twice per batch size (a replace), prints records/s of the second write. */
async function benchStore(type: string, label: string, config: (batch: number) => Record<string, unknown>, batchSizes: number[]) {
  console.log(`${label}: ${N} records × ${DIMS} dims`);
  for (const batch of batchSizes) {
    const cfg = config(batch);
    await deliverToDestination(type, cfg, { sourceId: 'bench', sourceKey: 'doc', elements: els });
    const t0 = performance.now();
    const r = await deliverToDestination(type, cfg, { sourceId: 'bench', sourceKey: 'doc', elements: els });
    const secs = (performance.now() - t0) / 1000;
    console.log(`  batch_size ${String(batch).padStart(5)}: ${r.written} written (${r.deleted ?? '?'} replaced) in ${secs.toFixed(2)} s = ${Math.round(r.written / secs).toLocaleString('en-US')} records/s`);
  }
}

if (STORES.includes('pinecone')) {
  const pc = await startPineconeStandIn();
  process.env.PINECONE_CONTROLLER_HOST = pc.url;
  await benchStore('pinecone', `pinecone destination (official client → REST stand-in ${pc.url})`, (b) => ({ api_key: pc.apiKey, index_name: 'bench', namespace: `b${b}`, batch_size: b }), [50, 200, 1000]);
  await pc.stop();
}
if (STORES.includes('qdrant-cloud')) {
  trustStandIns(); // the stand-in serves TLS (the API key goes over TLS only)
  const qd = await startQdrantStandIn();
  await benchStore('qdrant-cloud', `qdrant-cloud destination (official REST client → stand-in ${qd.url})`, (b) => ({ api_key: qd.apiKey, url: qd.url, collection_name: `bench_${b}`, batch_size: b }), [50, 200, 1000]);
  await qd.stop();
}
if (STORES.includes('astradb')) {
  trustStandIns(); // the stand-in serves TLS (the token goes over TLS only)
  const astra = await startAstraStandIn();
  await benchStore('astradb', `astradb destination (official Data API client, binary vectors → stand-in ${astra.url})`, (b) => ({ api_endpoint: astra.url, token: astra.token, collection_name: `bench_${b}`, batch_size: b, keyspace: 'default_keyspace', binary_encode_vectors: true, flatten_metadata: false }), [20, 100]);
  await astra.stop();
}
// Search destinations through their official clients against the in-process stand-ins (the stand-in
// parses and stores every document in the same process, so these figures are a floor for the
// client side): one full replace of a 10,000-record document (bulk/index upload + the leftover delete).
if (STORES.some((s) => ['elasticsearch', 'opensearch', 'azure_ai_search'].includes(s))) {
  const { startSearchStandIn } = await import('../../lambdas/connectors/elasticsearch/test-server');
  const { startAzureSearchStandIn, platformIndexFields } = await import('../../lambdas/connectors/azure-ai-search/test-server');
  const { standInTls } = await import('../../lambdas/connectors/records/stand-in');
  const tls = standInTls(); // one certificate for the Elasticsearch/OpenSearch and Azure stand-ins
  trustStandIns(); // the stand-ins serve TLS (credentials go over TLS only)
  const es = await startSearchStandIn({ dialect: 'elasticsearch' });
  const os = await startSearchStandIn({ dialect: 'opensearch' });
  const az = await startAzureSearchStandIn({ key: tls.key, cert: tls.cert });
  az.addIndex('elements', platformIndexFields(DIMS));
  const runs: [string, string, Record<string, unknown>][] = [
    ['elasticsearch', 'batch_size 500, 15 MB, 4 in flight', { hosts: [es.url], index_name: 'elements', es_api_key: 'k' }],
    ['opensearch', 'batch_size 500, 5 MB, 4 in flight', { hosts: [os.url], index_name: 'elements' }],
    ['azure_ai_search', 'batch_size 1000, 4 in flight', { endpoint: az.endpoint, index: 'elements', key: az.adminKey, batch_size: 1000 }],
  ];
  for (const [type, how, config] of runs.filter(([t]) => STORES.includes(t))) {
    await deliverToDestination(type, config, { sourceId: 'bench', sourceKey: 'warm', elements: els.slice(0, 200) });
    const t0 = performance.now();
    const r = await deliverToDestination(type, config, { sourceId: 'bench', sourceKey: 'doc', elements: els });
    const s = (performance.now() - t0) / 1000;
    console.log(`${type} (stand-in, ${how}): ${r.written} written in ${s.toFixed(2)} s = ${Math.round(r.written / s).toLocaleString('en-US')} records/s`);
  }
  await Promise.all([es.stop(), os.stop(), az.stop()]);
}
// weaviate-cloud (weaviate-client: REST schema + gRPC BatchObjects/BatchDelete, local stand-in) and
// milvus (@zilliz/milvus2-sdk-node over gRPC, local stand-in): their batch sizes are fixed by the
// store's limits (no batch field in their configs), so one figure each, a full replace of one document.
if (STORES.some((s) => ['weaviate-cloud', 'milvus'].includes(s))) {
  const { startWeaviateTestServer } = await import('../../lambdas/connectors/weaviate/test-server');
  const { platformSchema, startMilvusTestServer } = await import('../../lambdas/connectors/milvus/test-server');
  trustStandIns(); // the weaviate stand-in serves TLS (the API key goes over TLS only)
  const wv = await startWeaviateTestServer();
  const mv = await startMilvusTestServer();
  mv.createCollection('elements', platformSchema(DIMS, true));
  const targets = [
    { type: 'weaviate-cloud', label: 'weaviate-cloud (stand-in, REST + gRPC)', config: { cluster_url: wv.url, api_key: wv.apiKey, collection: 'Bench' } },
    { type: 'milvus', label: 'milvus (stand-in, gRPC)', config: { uri: mv.uri, token: mv.token, collection_name: 'elements', record_id_key: 'record_id' } },
  ];
  for (const t of targets.filter((x) => STORES.includes(x.type))) {
    await deliverToDestination(t.type, t.config, { sourceId: 'bench', sourceKey: 'doc', elements: els.slice(0, 200) });
    const t0 = performance.now();
    const r = await deliverToDestination(t.type, t.config, { sourceId: 'bench', sourceKey: 'doc', elements: els });
    const s = (performance.now() - t0) / 1000;
    console.log(`${t.label}: ${r.written} written (${r.deleted ?? 0} replaced) in ${s.toFixed(2)} s = ${Math.round(r.written / s).toLocaleString('en-US')} records/s`);
  }
  await wv.stop();
  await mv.stop();
}
if (STORES.includes('mongodb')) {
  const { startMongoStandIn } = await import('../../lambdas/connectors/mongodb/test-server');
  const mg = await startMongoStandIn({ users: { bench: { password: 'bench-pw' } }, recordCommands: false });
  mg.createCollection('bench', 'elements');
  await benchStore('mongodb', `mongodb destination (official driver, OP_MSG/BSON → wire stand-in 127.0.0.1:${mg.port})`, (b) => ({ uri: mg.uri('bench', 'bench-pw'), database: 'bench', collection: 'elements', batch_size: b }), [100, 500, 1000]);
  await mg.stop();
}
if (STORES.includes('redis')) {
  const { redisServerBinary, startRedisServer } = await import('../../lambdas/connectors/redis/test-server');
  const { skip } = redisServerBinary();
  if (skip) console.log(`redis destination: skipped (${skip})`);
  else {
    trustStandIns(); // the redis-server speaks TLS (a password would go over TLS only)
    const rs = await startRedisServer();
    const cfg = (b: number) => ({ host: rs.host, port: rs.port, ssl: true, database: 0, batch_size: b });
    await benchStore('redis', `redis destination (node-redis → redis-server ${rs.host}:${rs.port}, JSON strings)`, cfg, [100, 500, 1000]);
    // The replace finds a file's earlier keys with SCAN over the whole database: measure it with other keys present.
    for (let i = 0; i < 100_000; i += 10_000) {
      const m = rs.admin.multi();
      for (let j = i; j < i + 10_000; j++) m.set(`other:${j}`, 'x');
      await m.exec();
    }
    const small = els.slice(0, 100);
    await deliverToDestination('redis', cfg(100), { sourceId: 'bench', sourceKey: 'small', elements: small });
    const t0 = performance.now();
    const r = await deliverToDestination('redis', cfg(100), { sourceId: 'bench', sourceKey: 'small', elements: small });
    const ms = performance.now() - t0;
    console.log(`  replace of a 100-record file with ${(await rs.admin.dbSize()).toLocaleString('en-US')} keys in the database: ${ms.toFixed(0)} ms (${r.deleted} replaced)`);
    await rs.stop();
  }
}
// kafka-cloud (kafkajs, SASL PLAIN over TLS → Kafka-protocol stand-in broker) and snowflake
// (snowflake-sdk → REST stand-in executing each array-bound row on PGlite, so its figure is bounded
// by the stand-in's row-by-row engine, not by the client).
if (STORES.some((s) => ['kafka-cloud', 'snowflake'].includes(s))) {
  const { selfSignedCert } = await import('../../lambdas/connectors/azure-ai-search/test-server');
  const { resetConfig } = await import('../../lambdas/config');
  const tls = selfSignedCert();
  process.env.CONNECTOR_CA_FILE = tls.certFile;
  resetConfig();
  if (STORES.includes('kafka-cloud')) {
    const { startKafkaStandIn } = await import('../../lambdas/connectors/kafka/test-server');
    const kb = await startKafkaStandIn({ tls, users: { BENCH: { secret: 'bench-secret' } }, maxMessageBytes: 8 * 1024 * 1024 });
    kb.addTopic('elements', 6);
    await benchStore('kafka-cloud', `kafka-cloud destination (kafkajs → Kafka-protocol stand-in ${kb.bootstrap}, TLS)`, (b) => ({ bootstrap_servers: kb.host, port: kb.port, kafka_api_key: 'BENCH', secret: 'bench-secret', topic: 'elements', batch_size: b }), [100, 500, 1000]);
    await kb.stop();
  }
  if (STORES.includes('snowflake')) {
    const { platformElementsTable: sfTable, startSnowflakeStandIn } = await import('../../lambdas/connectors/snowflake/test-server');
    const sf = await startSnowflakeStandIn({ tls, account: 'bench-acct', users: { bench: { password: 'bench-pw' } }, database: 'WF', schema: 'PUBLIC' });
    await sf.ddl(sfTable('elements', DIMS));
    await benchStore('snowflake', `snowflake destination (snowflake-sdk, array binding → REST stand-in on PGlite ${sf.host}:${sf.port})`, (b) => ({ account: 'bench-acct', user: 'bench', password: 'bench-pw', host: sf.host, port: sf.port, database: 'WF', schema: 'PUBLIC', role: 'R', batch_size: b }), [50, 500]);
    await sf.stop();
  }
}
if (STORES.includes('neo4j')) {
  // The Bolt stand-in decodes PackStream in this process and records statements (it does not execute Cypher).
  const { startNeo4jStandIn } = await import('../../lambdas/connectors/neo4j/test-server');
  trustStandIns(); // the stand-in serves bolt+s (the password goes over TLS only)
  const neo = await startNeo4jStandIn({ users: { bench: { password: 'bench-pw' } }, recordParams: false });
  await benchStore('neo4j', `neo4j destination (neo4j-driver, Bolt 5.4/PackStream → stand-in 127.0.0.1:${neo.port})`, (b) => ({ uri: neo.uri(), username: 'bench', password: 'bench-pw', database: 'neo4j', batch_size: b }), [100, 500, 1000]);
  await neo.stop();
}
// motherduck (DuckDB's own client on a local database file standing in for md:) and delta_table
// (Parquet + _delta_log commits on the local S3 emulator): one full replace of a 10,000-record
// document each (motherduck per batch size: rows per INSERT).
if (STORES.includes('motherduck')) {
  const { startLocalMotherDuck } = await import('../../lambdas/connectors/duckdb/test-server');
  const md = await startLocalMotherDuck('bench_db');
  await benchStore('motherduck', `motherduck destination (@duckdb/node-api → local DuckDB file ${md.path})`, (b) => ({ database: 'bench_db', db_schema: 'main', table: 'elements', md_token: 'x', batch_size: b }), [50, 500, 2000]);
  await md.stop();
}
if (STORES.includes('delta_table')) {
  const { startDeltaS3, S3_CREDENTIALS } = await import('../../lambdas/connectors/delta/test-server');
  const s3 = await startDeltaS3(['bench-lake']);
  const config = { table_uri: 's3://bench-lake/elements/', aws_region: 'us-east-1', aws_access_key_id: S3_CREDENTIALS.accessKeyId, aws_secret_access_key: S3_CREDENTIALS.secretAccessKey };
  await deliverToDestination('delta_table', config, { sourceId: 'bench', sourceKey: 'doc', elements: els });
  const t0 = performance.now();
  const r = await deliverToDestination('delta_table', config, { sourceId: 'bench', sourceKey: 'doc', elements: els });
  const s = (performance.now() - t0) / 1000;
  console.log(`delta_table (hyparquet-writer + _delta_log on s3rver ${s3.endpoint}): ${r.written} written (${r.deleted} replaced) in ${s.toFixed(2)} s = ${Math.round(r.written / s).toLocaleString('en-US')} records/s`);
  await s3.stop();
}
// File destinations (gcs: @google-cloud/storage → JSON-API stand-in; onedrive: Graph client + identity
// → HTTPS stand-in): one JSON file of the 10,000 records (about 80 MB with the vectors as JSON numbers), so a
// resumable session / an upload session; a rewrite replaces the same object. No batch fields apply.
if (STORES.some((s) => ['gcs', 'onedrive'].includes(s))) {
  const { makeServiceAccount, startGcsStandIn } = await import('../../lambdas/connectors/gcs/test-server');
  const { selfSignedCert, startOneDriveStandIn } = await import('../../lambdas/connectors/onedrive/test-server');
  const { resetConfig } = await import('../../lambdas/config');
  const sa = makeServiceAccount();
  const gcs = await startGcsStandIn({ accounts: [sa], buckets: ['bench'] });
  const tls = selfSignedCert();
  process.env.CONNECTOR_CA_FILE = tls.certFile;
  resetConfig();
  const od = await startOneDriveStandIn({ tls, users: ['bench@contoso.com'] });
  process.env.GCS_API_ENDPOINT = gcs.url;
  process.env.GRAPH_API_ENDPOINT = od.url;
  const targets = [
    { type: 'gcs', label: 'gcs (stand-in, JSON API)', config: { remote_url: 'gs://bench/out', service_account_key: sa.keyJson } },
    { type: 'onedrive', label: 'onedrive (stand-in, Graph over HTTPS)', config: { authority_url: od.url, tenant: od.tenant, client_id: od.clientId, client_cred: od.clientSecret, user_pname: 'bench@contoso.com', remote_url: 'onedrive://bench' } },
  ];
  for (const t of targets.filter((x) => STORES.includes(x.type))) {
    await deliverToDestination(t.type, t.config, { sourceId: 'bench', sourceKey: 'doc', elements: els });
    const t0 = performance.now();
    const r = await deliverToDestination(t.type, t.config, { sourceId: 'bench', sourceKey: 'doc', elements: els });
    const s = (performance.now() - t0) / 1000;
    const mb = Buffer.byteLength(JSON.stringify(els)) / 1e6;
    console.log(`${t.label}: ${r.written} records (${mb.toFixed(1)} MB) rewritten in ${s.toFixed(2)} s = ${Math.round(r.written / s).toLocaleString('en-US')} records/s`);
  }
  await Promise.all([gcs.stop(), od.stop()]);
}
// databricks_volume_delta_tables (@databricks/sql → Thrift warehouse stand-in running DuckDB, staged JSON
// through the Files API stand-in): one document's replace = DELETE by record_id, upload of the staged
// JSON (~80 MB), INSERT ... SELECT FROM json.`path` read by DuckDB, removal of the staged file. No batch fields.
// Not in the default list: BENCH_STORES=databricks_volume_delta_tables runs it.
if (STORES.includes('databricks_volume_delta_tables')) {
  const { startDatabricksStandIn } = await import('../../lambdas/connectors/databricks/test-server');
  trustStandIns(); // the stand-in serves TLS (secrets go over TLS only)
  const dbx = await startDatabricksStandIn({ clients: { bench: 'bench-secret' }, volumes: ['main.default.staging'], warehouse: { id: 'wh', catalogs: { main: ['default'] } } });
  const cfg = { server_hostname: dbx.url, http_path: '/sql/1.0/warehouses/wh', client_id: 'bench', client_secret: 'bench-secret', catalog: 'main', database: 'default', schema: 'default', volume: 'staging', volume_path: 'bench', table_name: 'elements' };
  await deliverToDestination('databricks_volume_delta_tables', cfg, { sourceId: 'bench', sourceKey: 'doc', elements: els });
  dbx.requests.length = 0;
  const t0 = performance.now();
  const r = await deliverToDestination('databricks_volume_delta_tables', cfg, { sourceId: 'bench', sourceKey: 'doc', elements: els });
  const s = (performance.now() - t0) / 1000;
  console.log(`databricks_volume_delta_tables (stand-in: Thrift warehouse on DuckDB + Files API): ${r.written} written (${r.deleted ?? '?'} replaced) in ${s.toFixed(2)} s = ${Math.round(r.written / s).toLocaleString('en-US')} records/s`);
  await dbx.stop();
}
// couchbase (Query service REST API: DELETE by record_id, then UPSERT ... VALUES batches, against the
// in-process stand-in, whose JSON parsing is part of the figure). BENCH_STORES=couchbase runs it.
if (STORES.includes('couchbase')) {
  const { startCouchbaseStandIn } = await import('../../lambdas/connectors/couchbase/test-server');
  trustStandIns(); // the stand-in serves couchbases:// (the password goes over TLS only)
  const cbs = await startCouchbaseStandIn({ users: { bench: { password: 'bench-pw' } } });
  cbs.createKeyspace('bench', 'ingest', 'elements');
  await benchStore('couchbase', `couchbase destination (Query REST API → stand-in 127.0.0.1:${cbs.port})`, (b) => ({ connection_string: cbs.connectionString, username: 'bench', password: 'bench-pw', bucket: 'bench', scope: 'ingest', collection: 'elements', batch_size: b }), [50, 200, 500]);
  await cbs.stop();
}
// ibm_watsonx_s3 (IAM + Iceberg REST catalog stand-in, Parquet data files and Avro manifests on s3rver):
// one document's replace = load table, read the manifests, drop the document's data file, write the new
// Parquet file, a manifest and a manifest list, commit. No batch fields (one transaction per file, as the
// platform). Not in the default list: BENCH_STORES=ibm_watsonx_s3 runs it.
if (STORES.includes('ibm_watsonx_s3')) {
  const wxServer = await import('../../lambdas/connectors/ibm-watsonx/test-server');
  trustStandIns(); // the stand-in serves TLS (the API key and bearer token go over TLS only)
  const wx = await wxServer.startWatsonxStandIn();
  wx.createTable('bench', 'elements', wxServer.platformFields());
  const cfg = { iam_api_key: wxServer.IAM_API_KEY, access_key_id: wxServer.S3_CREDENTIALS.accessKeyId, secret_access_key: wxServer.S3_CREDENTIALS.secretAccessKey, iceberg_endpoint: wx.endpoint, object_storage_endpoint: wx.s3Endpoint, object_storage_region: 'us-east-1', catalog: wx.catalog, namespace: 'bench', table: 'elements' };
  await deliverToDestination('ibm_watsonx_s3', cfg, { sourceId: 'bench', sourceKey: 'doc', elements: els });
  const t0 = performance.now();
  const r = await deliverToDestination('ibm_watsonx_s3', cfg, { sourceId: 'bench', sourceKey: 'doc', elements: els });
  const s = (performance.now() - t0) / 1000;
  console.log(`ibm_watsonx_s3 (stand-in: IAM + Iceberg REST catalog, Parquet + Avro manifests on s3rver): ${r.written} written (${r.deleted ?? '?'} replaced) in ${s.toFixed(2)} s = ${Math.round(r.written / s).toLocaleString('en-US')} records/s`);
  await wx.stop();
}
// teradata (Query Service REST API: DELETE by record_id, then INSERT batches of batch_size parameter
// sets, against the in-process stand-in, whose JSON parsing and type checks are part of the figure).
// Not in the default list: BENCH_STORES=teradata runs it.
if (STORES.includes('teradata')) {
  const { startTeradataStandIn } = await import('../../lambdas/connectors/teradata/test-server');
  const tds = await startTeradataStandIn({ users: { bench: { password: 'bench-pw' } } });
  await benchStore('teradata', `teradata destination (Query Service REST API → stand-in ${tds.url})`, (b) => ({ host: tds.url, user: 'bench', password: 'bench-pw', database: 'bench', table_name: `elements_${b}`, batch_size: b }), [50, 200, 1000]);
  await tds.stop();
}
