// A client generated from the document at test time (openapi-typescript types + openapi-fetch) must
// type-check against a small program and drive the main flows against the local stack: connectors,
// a workflow run, the job and its details, notifications. Every response the program receives is
// validated (ajv) against what the document declares for that operation and status, so a route the
// document lacks or a shape that drifts from it fails here. defaultNonNullable: false, since a field
// with a default is optional in a request (openapi-typescript would make it required).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApi } from '../../lambdas/openapi';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';

const doc = buildOpenApi() as any;
const dir = mkdtempSync(join(tmpdir(), 'wps-client-'));
const root = mkdtempSync(join(tmpdir(), 'wps-client-data-'));
let stack: TestStack;

// The program a client author would write, using only the generated types.
const PROGRAM = `import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

export async function mainFlow(baseUrl: string, inDir: string, outDir: string, check: Middleware) {
  const api = createClient<paths>({ baseUrl });
  api.use(check);
  const src = await api.POST('/api/v1/sources/', { body: { name: 'client-in', type: 'local', config: { remote_url: inDir } } });
  if (!src.data) throw new Error('create source: ' + JSON.stringify(src.error));
  const dst = await api.POST('/api/v1/destinations/', { body: { name: 'client-out', type: 'local', config: { remote_url: outDir } } });
  if (!dst.data) throw new Error('create destination: ' + JSON.stringify(dst.error));
  const sources = await api.GET('/api/v1/sources/', { params: { query: { source_type: 'local' } } });
  const wf = await api.POST('/api/v1/workflows/', {
    body: {
      name: 'client-flow', workflow_type: 'custom', source_id: src.data.id, destination_id: dst.data.id,
      workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
    },
  });
  if (!wf.data) throw new Error('create workflow: ' + JSON.stringify(wf.error));
  const workflow_id: string = wf.data.id;
  const run = await api.POST('/api/v1/workflows/{workflow_id}/run', { params: { path: { workflow_id } } });
  if (!run.data) throw new Error('run: ' + JSON.stringify(run.error));
  const job_id = run.data.id;
  let status: string = run.data.status;
  for (const until = Date.now() + 120_000; status === 'SCHEDULED' || status === 'IN_PROGRESS'; ) {
    if (Date.now() > until) throw new Error('the job did not finish within 120 s');
    await new Promise((r) => setTimeout(r, 250));
    const job = await api.GET('/api/v1/jobs/{job_id}', { params: { path: { job_id } } });
    if (!job.data) throw new Error('get job: ' + JSON.stringify(job.error));
    status = job.data.status;
  }
  const details = await api.GET('/api/v1/jobs/{job_id}/details', { params: { path: { job_id } } });
  const notifications = await api.GET('/api/v1/notifications', { params: { query: { limit: 10 } } });
  const missing = await api.GET('/api/v1/jobs/{job_id}', { params: { path: { job_id: '00000000-0000-4000-8000-000000000000' } } });
  return {
    status,
    sources: sources.data?.length ?? 0,
    processing: details.data?.processing_status,
    nodes: details.data?.node_stats.length ?? 0,
    notifications: notifications.data?.events.length ?? -1,
    missingStatus: missing.response.status,
    missingDetail: missing.error && 'detail' in missing.error ? missing.error.detail : undefined,
  };
}
`;

/** Checks each response against the document: its status must be declared, its JSON body must match. */
function contractChecker(problems: string[]) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  const templates = Object.keys(doc.paths).map((p) => ({ p, re: new RegExp(`^${p.replace(/\/+$/, '').replace(/\{\w+\}/g, '[^/]+')}/?$`) }));
  return {
    async onResponse({ request, response }: { request: Request; response: Response }) {
      const url = new URL(request.url);
      const where = `${request.method} ${url.pathname}`;
      const path = templates.find((t) => t.re.test(url.pathname) && doc.paths[t.p][request.method.toLowerCase()]);
      if (!path) return void problems.push(`${where}: no operation in the document`);
      const op = doc.paths[path.p][request.method.toLowerCase()];
      const declared = op.responses[String(response.status)];
      if (!declared) return void problems.push(`${where}: status ${response.status} not documented (${Object.keys(op.responses).join(', ')})`);
      const media = declared.content?.['application/json'];
      if (!media || !(response.headers.get('content-type') ?? '').includes('json')) return undefined;
      const validate = ajv.compile({ ...media.schema, components: doc.components });
      const body = await response.clone().json();
      if (!validate(body)) problems.push(`${where} ${response.status}: ${ajv.errorsText(validate.errors).slice(0, 600)}`);
      return undefined;
    },
  };
}

before(async () => {
  writeFileSync(join(dir, 'schema.d.ts'), astToString(await openapiTS(structuredClone(doc), { defaultNonNullable: false })));
  writeFileSync(join(dir, 'program.ts'), PROGRAM);
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', lib: ['ES2023', 'DOM'], module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] },
      files: ['program.ts', 'schema.d.ts'],
    }),
  );
  if (NEEDS_LOCAL) return;
  mkdirSync(join(root, 'in'));
  mkdirSync(join(root, 'out'));
  copyFileSync(resolve('../shared/corpus/docs/fake-text.txt'), join(root, 'in', 'fake-text.txt'));
  stack = await startTestStack();
});
after(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

test('the generated types and a program using them type-check (tsc --strict)', () => {
  const res = spawnSync(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', timeout: 300_000 });
  assert.equal(res.status, 0, `tsc:\n${res.stdout.slice(0, 3000)}${res.stderr.slice(0, 1000)}`);
});

test('the generated client drives connectors, a workflow run, job details and notifications; every response matches the document', { skip: NEEDS_LOCAL }, async () => {
  const { mainFlow } = await import(pathToFileURL(join(dir, 'program.ts')).href);
  const problems: string[] = [];
  const out = await mainFlow(stack.url, join(root, 'in'), join(root, 'out'), contractChecker(problems));
  assert.deepEqual(problems, []);
  assert.equal(out.status, 'COMPLETED', JSON.stringify(out));
  assert.equal(out.sources, 1);
  assert.equal(out.processing, 'SUCCESS');
  assert.ok(out.nodes >= 1);
  assert.ok(out.notifications >= 0);
  assert.equal(out.missingStatus, 404);
  assert.match(out.missingDetail, /not found/i);
});

test('the checker itself flags an undocumented status and a drifted shape', { skip: NEEDS_LOCAL }, async () => {
  const problems: string[] = [];
  const check = contractChecker(problems);
  const req = (path: string) => new Request(`${stack.url}${path}`);
  await check.onResponse({ request: req('/healthcheck'), response: Response.json({ healthcheck: 1 }) });
  await check.onResponse({ request: req('/healthcheck'), response: Response.json({ detail: 'x' }, { status: 418 }) });
  await check.onResponse({ request: req('/api/v1/nowhere'), response: Response.json({}) });
  assert.equal(problems.length, 3, problems.join('\n'));
  assert.match(problems[0]!, /must be string/);
  assert.match(problems[1]!, /418 not documented/);
  assert.match(problems[2]!, /no operation/);
});
