// The connector registry against the reference field table itself (../shared/reference/
// connector-fields.derived.json, read here as data), not against the generated derived-fields.json the
// schemas are built from: a drift between the reference and the code (a required flag, a default, a
// pattern, a bound, a type, a secret, a response-required field) fails here, naming kind:type.field.
// Deliberate differences of hand-written connectors are listed below with their reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { ValidationError, type ValidationIssue } from '../../../lambdas/errors';
import { getConnector, listTypes, secretFields, validateConfig, type ConnectorKind } from '../../../lambdas/connectors/registry';

interface RefField {
  field: string;
  type: 'string' | 'integer' | 'boolean' | 'string[]' | 'string or SecretReference';
  required: boolean;
  default: string | null;
  constraints: string[];
  required_in_response: boolean;
  secret_inferred: boolean;
}
interface RefModel {
  extra_allowed: boolean;
  fields: RefField[];
}
type RefTable = Record<ConnectorKind, Record<string, RefModel | null>>;

const REFERENCE: RefTable = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../../../shared/reference/connector-fields.derived.json'), 'utf8'),
);

/**
 * Valid values for fields with a pattern in the reference (each checked against that pattern below) or
 * with a stricter format in a hand-written connector (identifiers, ARNs, URIs of a scheme, enumerations).
 */
const SAMPLES: Record<string, unknown> = {
  'source:azure.remote_url': 'az://container/prefix',
  'destination:azure.remote_url': 'az://container',
  'source:box.remote_url': 'box://folder',
  'source:dropbox.remote_url': 'dropbox://folder',
  'source:gcs.remote_url': 'gs://bucket/prefix',
  'destination:gcs.remote_url': 'gs://bucket',
  'source:s3.remote_url': 's3://bucket-one/prefix',
  'destination:s3.remote_url': 's3://bucket-one',
  'destination:onedrive.remote_url': 'onedrive://folder',
  'source:mongodb.uri': 'mongodb://db.example.com:27017/app',
  'destination:mongodb.uri': 'mongodb+srv://cluster0.example.net/app',
  'source:sharepoint.site': 'https://contoso.sharepoint.com/sites/docs',
  'destination:astradb.collection_name': 'docs_1',
  'destination:azure_ai_search.endpoint': 'https://search-1.search.windows.net',
  'destination:delta_table.table_uri': 's3://bucket-one/table',
  'destination:milvus.uri': 'https://milvus.example.com',
  'source:couchbase.connection_string': 'couchbases://db.example.com',
  'destination:couchbase.connection_string': 'couchbases://db.example.com',
  'source:jira.boards': ['12'],
  'source:s3.role_arn': 'arn:aws:iam::123456789012:role/reader',
  'destination:s3.role_arn': 'arn:aws:iam::123456789012:role/writer',
  'source:salesforce.categories': ['Account'],
  'source:salesforce.private_key': generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
  'source:zendesk.item_type': 'tickets',
  'destination:databricks_volume_delta_tables.http_path': '/sql/1.0/warehouses/abc123',
  'destination:neo4j.uri': 'neo4j+s://graph.example.com:7687',
  'destination:redis.uri': 'redis://cache.example.com:6379',
};

/** Fields a hand-written connector needs beside the required ones to pass its cross-field rules. */
const BASE_EXTRA: Record<string, Record<string, unknown>> = {
  'source:confluence': { api_token: 'tok' }, // one form of auth is required
  'source:jira': { password: 'tok', projects: ['proj'] }, // auth, and something to read
  'destination:databricks_volume_delta_tables': { token: 'tok' }, // token, or client_id and client_secret
};

/** Base fields left out while one field is tried, where the two are mutually exclusive. */
const EXCLUSIVE: Record<string, string[]> = {
  'source:confluence.token': ['api_token'], // basic auth and a personal access token
  'source:jira.token': ['password'],
};

/**
 * Deliberate differences from the reference, applied to the expected model: the interface spec
 * overrides the platform's model, or the code holds more than the table says.
 */
function expectedModel(kind: ConnectorKind, type: string, model: RefModel): RefModel {
  const fields = model.fields.map((f) => ({ ...f }));
  const at = (name: string): RefField => fields.find((f) => f.field === name)!;
  const key = `${kind}:${type}`;
  if (key === 'source:box') {
    // Spec: access_token or box_app_config (JWT app settings); all three credentials secret and optional.
    Object.assign(at('box_app_config'), { required: false, required_in_response: false });
    for (const field of ['access_token', 'refresh_token']) {
      fields.push({ field, type: 'string', required: false, default: null, constraints: [], required_in_response: false, secret_inferred: true });
    }
  }
  // Spec: astradb keyspace defaults to "default_keyspace" (the platform's model has no default).
  if (key === 'destination:astradb') at('keyspace').default = '"default_keyspace"';
  // Record stores whose connection URI carries credentials: secret here, though the table does not mark it.
  if (['destination:mongodb', 'destination:redis', 'source:mongodb'].includes(key)) at('uri').secret_inferred = true;
  return { ...model, fields };
}

/** Fields stored but absent from responses (the platform's astradb output model drops flatten_metadata). */
const OUTPUT_OMITTED = new Set(['destination:astradb.flatten_metadata']);

function constraint(f: RefField, name: string): string | undefined {
  const c = f.constraints.find((x) => x.startsWith(`${name}=`));
  return c?.slice(name.length + 1);
}

function refDefault(f: RefField): unknown {
  if (f.default === null || f.default === '\u2014') return undefined;
  if (f.type === 'boolean') return f.default === 'true';
  if (f.type === 'integer') return Number(f.default);
  return JSON.parse(f.default);
}

function validSample(kind: ConnectorKind, type: string, f: RefField): unknown {
  const where = `${kind}:${type}.${f.field}`;
  const pattern = constraint(f, 'pattern');
  if (pattern) {
    const v = SAMPLES[where];
    assert.equal(typeof v, 'string', `no sample for the pattern of ${where}`);
    assert.match(v as string, new RegExp(pattern), `the sample of ${where} fits the reference pattern`);
    return v;
  }
  if (where in SAMPLES) return SAMPLES[where];
  const word = f.field.replace(/[^a-z]/g, '').slice(0, 20);
  switch (f.type) {
    case 'string':
    case 'string or SecretReference':
      if (f.field === 'host') return 'svc.example.com';
      return f.field.endsWith('url') || f.field.endsWith('endpoint') ? 'https://svc.example.com' : word;
    case 'integer':
      return Number(constraint(f, 'minimum') ?? 1);
    case 'boolean':
      return false;
    case 'string[]':
      return [word];
  }
}

/** A wrong-typed value per reference type, and the 422 item type it must give. */
const WRONG: Record<RefField['type'], [unknown, string]> = {
  string: [5, 'string_type'],
  integer: [1.5, 'int_type'],
  boolean: ['yes', 'bool_type'],
  'string[]': ['one', 'list_type'],
  'string or SecretReference': [5, 'union_type'],
};

function issuesOf(fn: () => unknown): ValidationIssue[] {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ValidationError, `expected ValidationError, got ${String(err)}`);
    return err.issues;
  }
  return [];
}

/** The required fields with valid values (plus what a cross-field rule needs). */
function baseConfig(kind: ConnectorKind, type: string, model: RefModel): Record<string, unknown> {
  const required = model.fields.filter((f) => f.required).map((f) => [f.field, validSample(kind, type, f)]);
  return { ...Object.fromEntries(required), ...BASE_EXTRA[`${kind}:${type}`] };
}

function models(): [ConnectorKind, string, RefModel][] {
  const out: [ConnectorKind, string, RefModel][] = [];
  for (const kind of ['source', 'destination'] as const) {
    for (const [type, model] of Object.entries(REFERENCE[kind])) if (model) out.push([kind, type, expectedModel(kind, type, model)]);
  }
  return out;
}

test('every type of the reference table is registered, of the same kind', () => {
  for (const kind of ['source', 'destination'] as const) {
    const registered = listTypes(kind);
    for (const type of Object.keys(REFERENCE[kind])) assert.ok(registered.includes(type), `${kind}:${type} is not registered`);
  }
  assert.ok(models().length >= 46, `only ${models().length} models in the reference`);
});

test('required fields: an empty config is a 422 "missing" exactly at the reference\'s required fields', () => {
  for (const [kind, type, model] of models()) {
    const missing = issuesOf(() => validateConfig(kind, type, {}))
      .filter((i) => i.type === 'missing')
      .map((i) => String(i.loc[2]))
      .sort();
    assert.deepEqual(missing, model.fields.filter((f) => f.required).map((f) => f.field).sort(), `${kind}:${type}`);
  }
});

test('defaults: a config of only the required fields gets the reference\'s defaults, and nothing for fields without one', () => {
  for (const [kind, type, model] of models()) {
    const minimal = baseConfig(kind, type, model);
    const stored = validateConfig(kind, type, minimal);
    for (const f of model.fields) {
      if (f.required || f.field in minimal) continue;
      assert.deepEqual(stored[f.field] ?? undefined, refDefault(f), `${kind}:${type}.${f.field} default`);
    }
  }
});

test('types, patterns and bounds: each field refuses a wrong value with the 422 the reference implies', () => {
  let checked = 0;
  for (const [kind, type, model] of models()) {
    const base = baseConfig(kind, type, model);
    const issueAt = (f: RefField, value: unknown): ValidationIssue | undefined => {
      const config: Record<string, unknown> = { ...base, [f.field]: value };
      for (const other of EXCLUSIVE[`${kind}:${type}.${f.field}`] ?? []) delete config[other];
      return issuesOf(() => validateConfig(kind, type, config)).find((i) => i.loc[2] === f.field);
    };
    for (const f of model.fields) {
      const where = `${kind}:${type}.${f.field}`;
      const [wrong, wrongType] = WRONG[f.type];
      assert.equal(issueAt(f, wrong)?.type, wrongType, `${where} given ${JSON.stringify(wrong)}`);
      assert.equal(issueAt(f, validSample(kind, type, f)), undefined, `${where} accepts a valid value`);
      const pattern = constraint(f, 'pattern');
      if (pattern) {
        const bad = issueAt(f, ' not matching');
        assert.equal(bad?.type, 'string_pattern_mismatch', `${where} pattern`);
        assert.equal(bad?.msg, `String should match pattern '${pattern}'`, `${where} pattern`);
      }
      const min = constraint(f, 'minimum');
      if (min !== undefined) {
        assert.equal(issueAt(f, Number(min) - 1)?.type, 'greater_than_equal', `${where} minimum ${min}`);
        assert.equal(issueAt(f, Number(min)), undefined, `${where} accepts its minimum ${min}`);
      }
      const max = constraint(f, 'maximum');
      if (max !== undefined) {
        assert.equal(issueAt(f, Number(max) + 1)?.type, 'less_than_equal', `${where} maximum ${max}`);
        assert.equal(issueAt(f, Number(max)), undefined, `${where} accepts its maximum ${max}`);
      }
      checked++;
    }
  }
  assert.ok(checked >= 300, `checked ${checked} fields`);
});

test('secrets: the masked fields are the reference\'s secret_inferred ones (plus credential-bearing URIs)', () => {
  for (const [kind, type, model] of models()) {
    assert.deepEqual(secretFields(kind, type).sort(), model.fields.filter((f) => f.secret_inferred).map((f) => f.field).sort(), `${kind}:${type}`);
  }
});

test('responses: the output shape requires exactly the reference\'s required_in_response fields', () => {
  for (const [kind, type, model] of models()) {
    const def = getConnector(kind, type)!;
    const full = Object.fromEntries(model.fields.map((f) => [f.field, validSample(kind, type, f)]));
    const shown = def.output.parse(full) as Record<string, unknown>;
    for (const f of model.fields) {
      const where = `${kind}:${type}.${f.field}`;
      assert.equal(f.field in shown, !OUTPUT_OMITTED.has(where), `${where} shown in responses`);
      const { [f.field]: _left, ...without } = full;
      const requiredInResponse = f.required_in_response && refDefault(f) === undefined && !OUTPUT_OMITTED.has(where);
      assert.equal(def.output.safeParse(without).success, !requiredInResponse, `${where} required in responses: ${f.required_in_response}`);
    }
  }
});
