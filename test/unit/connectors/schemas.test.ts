// Pure tests of the connector registry: schemas (required, patterns, minimums, defaults, extra keys),
// input vs output shapes, 422 items, masking and secret merging. No I/O.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../../lambdas/errors';
import {
  SECRET_MASK,
  getConnector,
  listTypes,
  maskSecrets,
  mergeSecrets,
  outputConfig,
  projectOutput,
  registryCatalog,
  requireConnector,
  secretFields,
  supportsRuntime,
  validateConfig,
} from '../../../lambdas/connectors/registry';
import type { ConnectorKind } from '../../../lambdas/connectors/definition';
import { validationIssues } from '../../support/validation-issues';

const issuesOf = validationIssues;

// api-shapes.md §1
const SOURCE_ENUM = ['azure', 'box', 'confluence', 'couchbase', 'databricks_volumes', 'dropbox', 'elasticsearch', 'gcs', 'google_drive', 'kafka-cloud', 'mongodb', 'onedrive', 'opensearch', 'outlook', 'postgres', 'salesforce', 'sharepoint', 'slack', 'snowflake', 'teradata', 'jira', 'zendesk', 's3'];
const DEST_ENUM = ['azure', 'astradb', 'azure_ai_search', 'couchbase', 'databricks_volumes', 'databricks_volume_delta_tables', 'delta_table', 'elasticsearch', 'gcs', 'kafka-cloud', 'milvus', 'mongodb', 'motherduck', 'neo4j', 'onedrive', 'opensearch', 'pinecone', 'postgres', 'redis', 'qdrant-cloud', 'snowflake', 'teradata', 'weaviate-cloud', 'ibm_watsonx_s3', 's3'];

test('every enum type of both kinds is registered, plus local', () => {
  assert.deepEqual(listTypes('source'), [...SOURCE_ENUM, 'local'].sort());
  assert.deepEqual(listTypes('destination'), [...DEST_ENUM, 'local'].sort());
  assert.equal(getConnector('source', 'astradb'), undefined);
  assert.equal(getConnector('destination', 'box'), undefined);
});

test('runtime operations exist exactly for the implemented source and destination types', () => {
  const runtime = {
    source: ['s3', 'azure', 'local', 'couchbase', 'gcs', 'google_drive', 'slack', 'zendesk'],
    destination: ['s3', 'azure', 'local', 'postgres', 'pinecone', 'qdrant-cloud', 'astradb', 'elasticsearch', 'opensearch', 'azure_ai_search', 'weaviate-cloud', 'milvus', 'mongodb', 'redis', 'kafka-cloud', 'snowflake', 'neo4j', 'motherduck', 'delta_table', 'databricks_volumes', 'gcs', 'onedrive', 'databricks_volume_delta_tables', 'couchbase', 'ibm_watsonx_s3'],
  };
  runtime.source.push('dropbox', 'box', 'confluence', 'jira');
  runtime.source.push('onedrive');
  runtime.source.push('sharepoint');
  runtime.source.push('outlook');
  runtime.source.push('postgres', 'mongodb', 'elasticsearch', 'opensearch', 'snowflake', 'databricks_volumes'); // database, search and stream sources (issue 10)
  runtime.source.push('salesforce');
  runtime.source.push('teradata');
  runtime.destination.push('teradata'); // Query Service REST API (issues 9 and 10)
  runtime.source.push('kafka-cloud'); // stream source (issue 10)
  for (const kind of ['source', 'destination'] as const) {
    for (const t of listTypes(kind)) assert.equal(supportsRuntime(kind, t), runtime[kind].includes(t), `${kind}:${t}`);
  }
});

test('astradb input: required fields reported as missing at body.config.<field>', () => {
  const issues = issuesOf(() => validateConfig('destination', 'astradb', {}));
  assert.deepEqual(
    issues.map((i) => [i.loc.join('.'), i.type, i.msg]).sort(),
    [
      ['body.config.api_endpoint', 'missing', 'Field required'],
      ['body.config.collection_name', 'missing', 'Field required'],
      ['body.config.token', 'missing', 'Field required'],
    ],
  );
});

test('astradb input: pattern, minimum and type errors', () => {
  const issues = issuesOf(() =>
    validateConfig('destination', 'astradb', { collection_name: 'has space', api_endpoint: 'https://x', token: 't', batch_size: 0, binary_encode_vectors: 'yes' }),
  );
  const byField = Object.fromEntries(issues.map((i) => [i.loc[2], i]));
  assert.equal(byField.collection_name?.type, 'string_pattern_mismatch');
  assert.equal(byField.collection_name?.input, 'has space');
  assert.match(byField.collection_name!.msg, /\^\\w\+\$/);
  assert.equal(byField.batch_size?.type, 'greater_than_equal');
  assert.equal(byField.binary_encode_vectors?.type, 'bool_type');
  assert.equal(issues.length, 3);
  assert.equal(issuesOf(() => validateConfig('destination', 'astradb', { collection_name: '', api_endpoint: 'a', token: 't' }))[0]?.type, 'string_pattern_mismatch');
});

test('astradb input applies defaults and keeps extra keys; keyspace may be null', () => {
  const c = validateConfig('destination', 'astradb', { collection_name: 'docs_1', api_endpoint: 'https://db.example', token: 'tok', extra_thing: 5 });
  assert.deepEqual(c, {
    collection_name: 'docs_1',
    api_endpoint: 'https://db.example',
    token: 'tok',
    keyspace: 'default_keyspace',
    batch_size: 20,
    binary_encode_vectors: true,
    flatten_metadata: false,
    extra_thing: 5,
  });
  const n = validateConfig('destination', 'astradb', { collection_name: 'd', api_endpoint: 'e', token: 't', keyspace: null, batch_size: 7 });
  assert.equal(n.keyspace, null);
  assert.equal(n.batch_size, 7);
});

test('astradb output: flatten_metadata absent, token masked, other fields kept', () => {
  const stored = validateConfig('destination', 'astradb', { collection_name: 'd', api_endpoint: 'e', token: 'secret-token', flatten_metadata: true });
  const out = outputConfig('destination', 'astradb', stored);
  assert.equal('flatten_metadata' in out, false);
  assert.equal(out.token, SECRET_MASK);
  assert.equal(out.binary_encode_vectors, true);
  assert.equal(out.keyspace, 'default_keyspace');
  assert.equal(JSON.stringify(out).includes('secret-token'), false);
  // projectOutput is the same shape with secrets left alone (for callers that mask themselves)
  assert.equal(projectOutput('destination', 'astradb', stored).token, 'secret-token');
  assert.equal('flatten_metadata' in projectOutput('destination', 'astradb', stored), false);
});

test('input and output shapes differ: output requires what input defaults', () => {
  const def = getConnector('destination', 'astradb')!;
  // output requires batch_size only through its default; collection_name etc. are required
  assert.equal(def.output.safeParse({ api_endpoint: 'e', token: 't' }).success, false);
  const o = def.output.parse({ collection_name: 'c', api_endpoint: 'e', token: 't' });
  assert.equal(o.batch_size, 20);
  assert.equal('flatten_metadata' in o, false);
  // box: remote_url is required on input only
  const box = getConnector('source', 'box')!;
  assert.equal(box.input.safeParse({ recursive: true }).success, false);
  assert.equal(box.output.safeParse({ recursive: true }).success, true);
  // azure: the output shape does not enforce the az:// pattern, the input does
  const az = getConnector('destination', 'azure')!;
  assert.equal(az.input.safeParse({ remote_url: 'https://x' }).success, false);
  assert.equal(az.output.safeParse({ remote_url: 'https://x' }).success, true);
});

test('azure source/destination: remote_url pattern, recursive default on source only', () => {
  const bad = issuesOf(() => validateConfig('source', 'azure', { remote_url: 's3://x' }));
  assert.deepEqual(bad.map((i) => [i.loc.join('.'), i.type]), [['body.config.remote_url', 'string_pattern_mismatch']]);
  const src = validateConfig('source', 'azure', { remote_url: 'az://cont/pre', account_name: 'acc', account_key: 'k' });
  assert.equal(src.recursive, true);
  const abfs = validateConfig('source', 'azure', { remote_url: 'abfs://cont@acc.dfs.core.windows.net/p', recursive: false });
  assert.equal(abfs.recursive, false);
  const dst = validateConfig('destination', 'azure', { remote_url: 'az://cont' });
  assert.equal('recursive' in dst, false);
  assert.deepEqual(secretFields('source', 'azure').sort(), ['account_key', 'connection_string', 'sas_token']);
  const out = outputConfig('source', 'azure', { ...src, connection_string: null });
  assert.equal(out.account_key, SECRET_MASK);
  assert.equal(out.connection_string, null);
  assert.equal(out.account_name, 'acc');
});

test('box source: box:// prefix, recursive default true, three optional secrets', () => {
  const bad = issuesOf(() => validateConfig('source', 'box', { remote_url: 'dropbox://x' }));
  assert.equal(bad[0]?.type, 'string_pattern_mismatch');
  assert.deepEqual(bad[0]?.loc, ['body', 'config', 'remote_url']);
  const c = validateConfig('source', 'box', { remote_url: 'box://folder' });
  assert.equal(c.recursive, true);
  assert.deepEqual(secretFields('source', 'box').sort(), ['access_token', 'box_app_config', 'refresh_token']);
  const out = outputConfig('source', 'box', { ...c, access_token: 'abc', refresh_token: null });
  assert.equal(out.access_token, SECRET_MASK);
  assert.equal(out.refresh_token, null);
});

test('s3: pattern, defaults, key and secret together, endpoint must be http(s)', () => {
  const c = validateConfig('source', 's3', { remote_url: 's3://bucket/prefix' });
  assert.equal(c.recursive, true);
  assert.equal(c.anonymous, false);
  assert.equal(c.ambient_credentials, false);
  assert.deepEqual(
    issuesOf(() => validateConfig('destination', 's3', { remote_url: 's3://bkt', key: 'AKIA' })).map((i) => i.loc.join('.')),
    ['body.config.secret'],
  );
  assert.deepEqual(
    issuesOf(() => validateConfig('destination', 's3', { remote_url: 's3://bkt', endpoint_url: 'ftp://x' })).map((i) => i.loc.join('.')),
    ['body.config.endpoint_url'],
  );
  // S3 bucket naming rules (a one-letter name is not a bucket)
  assert.deepEqual(issuesOf(() => validateConfig('destination', 's3', { remote_url: 's3://b' })).map((i) => i.loc.join('.')), ['body.config.remote_url']);
  assert.equal(issuesOf(() => validateConfig('source', 's3', { remote_url: 'gs://b' }))[0]?.type, 'string_pattern_mismatch');
  assert.deepEqual(secretFields('destination', 's3').sort(), ['key', 'secret', 'token']);
});

test('unknown type is a 422 on the sibling type field; non-object config is a dict_type error', () => {
  const t = issuesOf(() => validateConfig('source', 'ftp', {}));
  assert.deepEqual(t[0]?.loc, ['body', 'type']);
  assert.equal(t[0]?.type, 'enum');
  assert.match(t[0]!.msg, /'s3'/);
  assert.deepEqual(issuesOf(() => requireConnector('destination', 'nope', ['query', 'destination_type']))[0]?.loc, ['query', 'destination_type']);
  const n = issuesOf(() => validateConfig('source', 's3', 'not an object'));
  assert.deepEqual(n[0]?.loc, ['body', 'config']);
  assert.equal(n[0]?.type, 'dict_type');
  const m = issuesOf(() => validateConfig('source', 's3', undefined));
  assert.equal(m[0]?.type, 'missing');
});

// Every type of connector-fields.derived.json against the reference itself: schemas-reference.test.ts.

test('derived constraints: mongodb uri pattern, ibm max_retries bounds, redis defaults', () => {
  const mongo = { uri: 'http://nope', database: 'd', collection: 'c' };
  assert.equal(issuesOf(() => validateConfig('destination', 'mongodb', mongo))[0]?.type, 'string_pattern_mismatch');
  assert.doesNotThrow(() => validateConfig('destination', 'mongodb', { ...mongo, uri: 'mongodb+srv://u:p@cluster0.example.net/db?retryWrites=true' }));
  const ibm = {
    access_key_id: 'a', catalog: 'c', iam_api_key: 'k', iceberg_endpoint: 'e', namespace: 'n', object_storage_endpoint: 'o',
    object_storage_region: 'r', secret_access_key: 's', table: 't',
  };
  assert.equal(issuesOf(() => validateConfig('destination', 'ibm_watsonx_s3', { ...ibm, max_retries: 501 }))[0]?.type, 'less_than_equal');
  assert.equal(issuesOf(() => validateConfig('destination', 'ibm_watsonx_s3', { ...ibm, max_retries: 1 }))[0]?.type, 'greater_than_equal');
  const okIbm = validateConfig('destination', 'ibm_watsonx_s3', ibm);
  assert.equal(okIbm.max_retries, 50);
  assert.equal(okIbm.record_id_key, 'record_id');
  const redis = validateConfig('destination', 'redis', { host: 'h' });
  assert.deepEqual([redis.port, redis.database, redis.ssl, redis.batch_size], [6379, 0, true, 100]);
  assert.equal(issuesOf(() => validateConfig('destination', 'redis', { host: 'h', port: 1.5 }))[0]?.type, 'int_type');
});

test('google_drive accepts a SecretReference; masking keeps references and hides strings', () => {
  const c = validateConfig('source', 'google_drive', { drive_id: 'd', service_account_key: { id: 'ref-1' }, oauth_token: 'clear' });
  assert.deepEqual(c.service_account_key, { id: 'ref-1', type: 'rsa' });
  const out = maskSecrets('source', 'google_drive', c);
  assert.deepEqual(out.service_account_key, { id: 'ref-1', type: 'rsa' });
  assert.equal(out.oauth_token, SECRET_MASK);
  assert.equal(issuesOf(() => validateConfig('source', 'google_drive', { drive_id: 'd', oauth_token: 5 }))[0]?.loc.join('.'), 'body.config.oauth_token');
});

test('free-form types (slack, motherduck) accept any object and mask credential-like keys', () => {
  const c = validateConfig('source', 'slack', { channels: ['a'], token: 'xoxb-1', nested: { api_key: 'k', name: 'n' } });
  assert.deepEqual(c, { channels: ['a'], token: 'xoxb-1', nested: { api_key: 'k', name: 'n' } });
  const out = outputConfig('source', 'slack', c);
  assert.equal(out.token, SECRET_MASK);
  assert.deepEqual(out.nested, { api_key: SECRET_MASK, name: 'n' });
  assert.deepEqual(out.channels, ['a']);
  // -- a field holding a credential anywhere inside it is sealed whole at rest --
  assert.deepEqual(secretFields('source', 'slack', c), ['token', 'nested']);
  assert.deepEqual(secretFields('destination', 'motherduck'), []);
  assert.equal(issuesOf(() => validateConfig('destination', 'motherduck', [1]))[0]?.type, 'dict_type');
});

test('a mask sent back keeps the stored secret; a mask on create is rejected', () => {
  const stored = validateConfig('destination', 'astradb', { collection_name: 'c', api_endpoint: 'e', token: 'real' });
  const shown = outputConfig('destination', 'astradb', stored);
  const merged = mergeSecrets('destination', 'astradb', { ...shown, batch_size: 5 }, stored);
  const updated = validateConfig('destination', 'astradb', merged);
  assert.equal(updated.token, 'real');
  assert.equal(updated.batch_size, 5);
  const replaced = validateConfig('destination', 'astradb', mergeSecrets('destination', 'astradb', { ...shown, token: 'new' }, stored));
  assert.equal(replaced.token, 'new');
  const bad = issuesOf(() => validateConfig('destination', 'astradb', shown));
  assert.deepEqual(bad[0]?.loc, ['body', 'config', 'token']);
});

test('local: a directory is required, relative paths need LOCAL_CONNECTOR_ROOT, paths stay inside it', () => {
  const saved = process.env.LOCAL_CONNECTOR_ROOT;
  try {
    delete process.env.LOCAL_CONNECTOR_ROOT;
    assert.deepEqual(issuesOf(() => validateConfig('source', 'local', {}))[0]?.loc, ['body', 'config', 'remote_url']);
    assert.match(issuesOf(() => validateConfig('source', 'local', { path: 'rel/dir' }))[0]!.msg, /absolute/);
    const c = validateConfig('source', 'local', { remote_url: 'file:///tmp/in' });
    assert.equal(c.recursive, true);
    process.env.LOCAL_CONNECTOR_ROOT = '/srv/data';
    assert.doesNotThrow(() => validateConfig('destination', 'local', { path: 'out' }));
    assert.doesNotThrow(() => validateConfig('destination', 'local', { path: '/srv/data/x' }));
    assert.match(issuesOf(() => validateConfig('destination', 'local', { path: '/etc' }))[0]!.msg, /outside the allowed root/);
    assert.match(issuesOf(() => validateConfig('destination', 'local', { path: '../escape' }))[0]!.msg, /outside the allowed root/);
    assert.match(issuesOf(() => validateConfig('destination', 'local', { path: '/srv/database' }))[0]!.msg, /outside the allowed root/);
  } finally {
    if (saved === undefined) delete process.env.LOCAL_CONNECTOR_ROOT;
    else process.env.LOCAL_CONNECTOR_ROOT = saved;
  }
});

test('registryCatalog matches the ConnectorCatalog port', () => {
  assert.deepEqual(registryCatalog.types('source'), listTypes('source'));
  const c = registryCatalog.validate('destination', 'astradb', { collection_name: 'c', api_endpoint: 'e', token: 't' }, ['body', 'config']);
  assert.equal(registryCatalog.output('destination', 'astradb', c).token, 't');
  assert.deepEqual(registryCatalog.secretFields('destination', 'astradb'), ['token']);
});

test('a 422 never echoes a secret value: a bad uri with a password, a secret of the wrong type, a whole config refused at its own level', () => {
  const issues = (kind: ConnectorKind, type: string, config: unknown): string => {
    try {
      validateConfig(kind, type, config);
    } catch (err) {
      assert.ok(err instanceof ValidationError, String(err));
      return JSON.stringify(err.issues);
    }
    assert.fail('expected a 422');
  };
  const uri = issues('destination', 'mongodb', { uri: 'http://app:TOPSECRET-1@mongo.example.com/', database: 'd', collection: 'c' });
  assert.doesNotMatch(uri, /TOPSECRET/);
  assert.match(uri, /"loc":\["body","config","uri"\]/);
  const wrongType = issues('destination', 'pinecone', { index_name: 'i', api_key: ['TOPSECRET-2'] });
  assert.doesNotMatch(wrongType, /TOPSECRET/);
  const freeForm = issues('destination', 'motherduck', { md_token: 'TOPSECRET-3' });
  assert.doesNotMatch(freeForm, /TOPSECRET/);
});
