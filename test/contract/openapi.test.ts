// The OpenAPI document as tools see it: it validates (swagger-parser), lints clean (redocly, its
// recommended rules less the trailing-slash one: redocly.yaml), and says what clients need (connector
// type enums and per-type configs, auth schemes, every status, optional run body, examples).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import SwaggerParser from '@apidevtools/swagger-parser';
import { buildOpenApi } from '../../lambdas/openapi';
import { ROUTES } from '../../lambdas/routes';
import { listTypes } from '../../lambdas/connectors/registry';

const doc = buildOpenApi() as any;
const op = (path: string, method: string) => doc.paths[path][method];

test('the document validates with @apidevtools/swagger-parser (every $ref resolves)', async () => {
  await SwaggerParser.validate(structuredClone(doc));
  const text = JSON.stringify(doc);
  assert.doesNotMatch(text, /"\$ref":"#\/\$defs\//, 'no $ref into a $defs of the root');
  assert.doesNotMatch(text, /"\$defs"/, 'every definition hoisted into components/schemas');
});

test('redocly lint (recommended rules, redocly.yaml) reports no problem', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wps-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const res = spawnSync(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', file, '--config', 'redocly.yaml', '--format=json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NODE_OPTIONS: '' },
      timeout: 180_000,
    });
    const start = res.stdout.indexOf('{');
    assert.ok(start >= 0, `redocly printed no report: ${res.stderr.slice(0, 2000)}`);
    const report = JSON.parse(res.stdout.slice(start));
    const problems = report.problems.map((p: any) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`);
    assert.deepEqual(problems, []);
    assert.equal(res.status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every route is an operation, with an example for its body and its success response', () => {
  for (const r of ROUTES) {
    const o = op(r.path, r.method.toLowerCase());
    assert.ok(o, `${r.method} ${r.path} missing`);
    assert.equal(o.operationId, r.operationId);
    const ok = o.responses[String(r.status ?? 200)];
    assert.ok(ok, `${r.operationId}: success status documented`);
    if (r.status !== 204) for (const media of Object.values(ok.content) as any[]) assert.ok('example' in media, `${r.operationId}: response example`);
    if (o.requestBody) for (const media of Object.values(o.requestBody.content) as any[]) assert.ok('example' in media, `${r.operationId}: request example`);
  }
});

test('connector types are enums with a oneOf of per-type configs discriminated on type', () => {
  for (const kind of ['source', 'destination'] as const) {
    const Kind = kind === 'source' ? 'Source' : 'Destination';
    const plural = `/api/v1/${kind}s/`;
    assert.deepEqual(doc.components.schemas[`${Kind}ConnectorType`].enum, listTypes(kind));
    const create = doc.components.schemas[`Create${Kind}ConnectorRequest`];
    assert.equal(op(plural, 'post').requestBody.content['application/json'].schema.$ref, `#/components/schemas/Create${Kind}ConnectorRequest`);
    assert.equal(create.discriminator.propertyName, 'type');
    assert.deepEqual(Object.keys(create.discriminator.mapping).sort(), listTypes(kind));
    assert.equal(create.oneOf.length, listTypes(kind).length);
    const s3 = doc.components.schemas[`${Kind}Config_s3`];
    assert.ok(s3.properties.remote_url, `${kind} s3 config lists remote_url`);
    const filter = op(plural, 'get').parameters.find((p: any) => p.name === `${kind}_type`);
    assert.equal(filter.schema.$ref, `#/components/schemas/${Kind}ConnectorType`);
  }
});

test('both API key headers are security schemes with a global requirement; public routes opt out', () => {
  const schemes = doc.components.securitySchemes;
  assert.deepEqual(
    Object.values(schemes).map((s: any) => [s.type, s.in, s.name]).sort(),
    [['apiKey', 'header', 'service-api-key'], ['apiKey', 'header', 'unstructured-api-key']],
  );
  assert.deepEqual(doc.security, [{ UnstructuredApiKey: [] }, { ServiceApiKey: [] }]);
  for (const r of ROUTES.filter((x) => x.auth === false)) assert.deepEqual(op(r.path, r.method.toLowerCase()).security, [], r.operationId);
  assert.equal(op('/api/v1/workflows/', 'get').security, undefined, 'keyed routes inherit the global requirement');
  assert.ok(op('/api/v1/workflows/', 'get').responses['401']);
});

test('the statuses the service answers are documented (409, 413, 415, 422, 429 + Retry-After, 307); run body optional', () => {
  const run = op('/api/v1/workflows/{workflow_id}/run', 'post');
  assert.equal(run.requestBody.required, false);
  for (const s of ['202', '401', '404', '409', '413', '415', '422', '429']) assert.ok(run.responses[s], `run_workflow ${s}`);
  assert.ok(run.responses['429'].headers['Retry-After']);
  assert.equal(run.responses['422'].content['application/json'].schema.$ref, '#/components/schemas/HTTPValidationError');
  assert.ok(op('/api/v1/jobs/{job_id}/download', 'get').responses['307'].headers.Location);
  assert.ok(op('/api/v1/notifications/channels/{channel_id}/verify', 'post').responses['400']);
  assert.equal(op('/api/v1/jobs/', 'post').requestBody.required, true);
  assert.ok(!Object.keys(op('/healthcheck', 'get').responses).some((s) => s.startsWith('5')));
});
