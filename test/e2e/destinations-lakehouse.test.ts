// Workflows writing into MotherDuck (DuckDB's own client on a local DuckDB database file standing in
// for the hosted `md:` database) and Delta Lake (Parquet files and `_delta_log` commits on the
// local S3 emulator, read back by an independent reader: its own log replay, DuckDB's read_parquet)
// and Databricks Volumes (a workspace stand-in speaking the REST API: OAuth M2M, Files API)
// through the HTTP API: local source → partition → chunk → embed
// (built-in 384-dim embedder) → destination, run twice: one copy of each file's records, 384-dim
// vectors, metadata present. Destinations that validate but point nowhere fail their check and
// their files with the store's reason; the jobs finish and free their slots. One stack for all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL } from '../support/local-stack';
import { assertSampleRow, destinationSuite, tally } from '../support/e2e-flows';
import { startLocalMotherDuck, type LocalMotherDuck } from '../../lambdas/connectors/duckdb/test-server';
import { startDatabricksStandIn, type DatabricksStandIn } from '../../lambdas/connectors/databricks/test-server';
import { createBucket, readDeltaTable } from '../../lambdas/connectors/delta/test-server';

let md: LocalMotherDuck;
let dbx: DatabricksStandIn;
const LAKE = 'tenant-lake';
const e2e = destinationSuite('wps-lakedest-', {
  trust: true,
  start: async () => {
    md = await startLocalMotherDuck('wf_db');
    dbx = await startDatabricksStandIn({ clients: { 'sp-e2e': 'dbx-e2e-secret' }, volumes: ['main.default.landing'] });
  },
  ready: (stack) => createBucket(stack.endpoints.s3!, LAKE, stack.credentials),
  stop: async () => {
    await md?.stop();
    await dbx?.stop();
  },
});
const { connect, workflow, twice, pointNowhere } = e2e;
const deltaConfig = (bucket: string) => ({
  table_uri: `s3://${bucket}/wf/elements/`,
  aws_region: 'us-east-1',
  // -- the stack's S3 answers its per-start credential only: here it stands for the tenant's keys --
  aws_access_key_id: e2e.stack.credentials.accessKeyId,
  aws_secret_access_key: e2e.stack.credentials.secretAccessKey,
});

test('motherduck: two runs leave one copy of each file\'s rows, 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await connect('md', 'motherduck', { database: 'wf_db', md_token: 'md-e2e-secret', batch_size: 20 }, ['md_token']);
  await twice(await workflow('to-motherduck', id), async () => {
    const rows = await md.query<{ filename: string; n: number }>(`SELECT filename, count(*)::INT AS n FROM elements GROUP BY filename`);
    return Object.fromEntries(rows.map((r) => [r.filename, r.n]));
  });
  const perFile = await md.query<{ n: number; ids: number; dims: number }>(
    `SELECT count(*)::INT AS n, count(DISTINCT id)::INT AS ids, min(len(embeddings))::INT AS dims FROM elements GROUP BY filename`,
  );
  for (const r of perFile) assert.deepEqual([r.ids, r.dims], [r.n, 384]);
  const [sample] = await md.query<any>(`SELECT record_id, element_id, type, text, filetype, languages FROM elements WHERE filename = 'fake-text.txt' LIMIT 1`);
  assert.equal(sample.type, 'CompositeElement');
  assert.equal(sample.filetype, 'text/plain');
  assert.deepEqual(sample.languages, ['eng']);
  assert.ok(sample.record_id && sample.element_id && sample.text.length > 0);
});

test('delta_table: two runs leave one copy of each file\'s rows in the active files, 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await connect('lake', 'delta_table', deltaConfig(LAKE), ['aws_secret_access_key']);
  const table = () => readDeltaTable(e2e.stack.endpoints.s3!, LAKE, 'wf/elements/', e2e.stack.credentials);
  await twice(await workflow('to-delta', id), async () => tally((await table()).rows, (r) => r.filename));
  const t = await table();
  assert.equal(t.version, 3, 'one commit per file per run');
  assert.equal(t.activeFiles.length, 2, 'one data file per document');
  assert.equal(new Set(t.rows.map((r) => `${r.record_id}/${r.element_id}`)).size, t.rows.length, 'no element twice');
  const sample = t.rows.find((r) => r.filename === 'fake-text.txt')!;
  assertSampleRow(sample);
});

test('databricks_volumes: two runs leave one elements file per source file (overwritten), 384-dim embeddings, metadata', { skip: NEEDS_LOCAL }, async () => {
  const id = await connect('dbx', 'databricks_volumes', { host: dbx.url, client_id: 'sp-e2e', client_secret: 'dbx-e2e-secret', catalog: 'main', volume: 'landing', volume_path: 'wf' }, ['client_secret']);
  await twice(await workflow('to-databricks', id), () => tally([...dbx.files.values()].flat() as any[], (e) => e.metadata.filename));
  assert.deepEqual([...dbx.files.keys()].sort(), ['/Volumes/main/default/landing/wf/fake-text.txt.json', '/Volumes/main/default/landing/wf/sub/README.md.json']);
  assert.equal(dbx.requests.filter((r) => r.method === 'PUT').length, 4, 'two uploads per run, each overwriting');
  const sample = (dbx.files.get('/Volumes/main/default/landing/wf/fake-text.txt.json') as any[])[0];
  assert.equal(sample.embeddings.length, 384);
  assert.equal(sample.type, 'CompositeElement');
  assert.equal(sample.metadata.filetype, 'text/plain');
});

test('destinations that point nowhere: FAILURE checks, files failed with the store\'s reason, jobs finished', { skip: NEEDS_LOCAL }, async () => {
  const cases = [
    { type: 'motherduck', config: { database: 'no_such_db', md_token: 'md-nowhere-secret' }, secret: 'md-nowhere-secret', reason: /Catalog Error: .*"no_such_db"/ },
    {
      type: 'databricks_volumes',
      config: { host: dbx.url, client_id: 'sp-e2e', client_secret: 'dbx-e2e-secret', catalog: 'main', volume: 'nope', volume_path: 'wf' },
      secret: 'dbx-e2e-secret',
      reason: /main\.default\.nope/,
    },
    {
      type: 'delta_table',
      // -- the stack's own S3, whose credential the tenant's keys stand for: a bucket that does not exist --
      config: deltaConfig('no-such-lake'),
      secret: e2e.stack.credentials.secretAccessKey,
      reason: /s3:\/\/no-such-lake\/wf\/elements\/ failed: NoSuchBucket: The specified bucket does not exist/,
    },
  ];
  await pointNowhere(cases);
});
