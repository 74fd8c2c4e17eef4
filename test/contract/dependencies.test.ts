// What a deployment bundles and an audit must read is `dependencies`: every package there is used by
// product code, and nothing product code uses is left in `devDependencies` (so `npm ci --omit=dev`
// then `npm start`, `cdk deploy` or a Lambda bundle finds it). Product code is what the entry points
// reach through their imports: `npm start` (local/start.ts and the console it builds), the CDK app and
// the keys tool (bin/), every construct in lib/, the Lambda handlers and the workers lib/ bundles
// beside them. Tests, benchmarks, the docs generator and the connector stand-ins (test-server.ts)
// are not product code: what only they use is a devDependency.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PARTITION_WORKER, PDF_PAGE_WORKER, RUNTIME_RESOLVED_MODULES } from '../../lib/base-function';
import { importsOf, packageOf, ROOT, sources } from '../support/import-graph';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Pinned for a feature whose code lands on its own branch: remove the entry when that code imports it. */
const PENDING: Record<string, string> = {};

const ENTRIES = [
  'local/start.ts',
  'bin/app.ts',
  'bin/keys.ts',
  'console/build.mjs',
  'console/src/main.ts',
  'console/src/pdfjs-entry.ts',
  PARTITION_WORKER.source,
  PDF_PAGE_WORKER.source,
  ...sources('lib'),
  ...sources('lambdas/handlers'),
];

/** Every package the product reaches, with one module that imports it. */
function productPackages(): Map<string, string> {
  const used = new Map<string, string>();
  const note = (name: string | undefined, by: string) => {
    if (name && !used.has(name)) used.set(name, by);
  };
  const seen = new Set<string>();
  const queue = [...ENTRIES];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const { files, packages } = importsOf(file);
    queue.push(...files);
    for (const p of packages) note(p, file);
    // packages found at run time by name: require.resolve('swagger-ui-dist/package.json') and the like
    for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(/\.resolve\(\s*['"]([^'"./][^'"]*)['"]/g)) note(packageOf(m[1]!), file);
  }
  // what lib/ copies into the Lambda assets beside the bundle
  for (const m of RUNTIME_RESOLVED_MODULES) note(m.module, 'lib/base-function.ts (RUNTIME_RESOLVED_MODULES)');
  // loaders the start script names (node --import tsx local/start.ts)
  for (const m of pkg.scripts.start!.matchAll(/--(?:import|require)[= ](\S+)/g)) note(packageOf(m[1]!), 'package.json scripts.start');
  assert.ok(seen.size > 300, `the entry points reach ${seen.size} modules`);
  return used;
}

const used = productPackages();

test('every package in dependencies is used by product code', () => {
  const unused = Object.keys(pkg.dependencies).filter((name) => !used.has(name) && !PENDING[name]);
  assert.deepEqual(unused, [], `in dependencies but used by no product code (move to devDependencies, or remove):\n${unused.join('\n')}`);
});

test('no package product code uses is only a devDependency', () => {
  const devOnly = Object.keys(pkg.devDependencies)
    .filter((name) => used.has(name) && !(name in pkg.dependencies))
    .map((name) => `${name} (imported by ${used.get(name)})`);
  assert.deepEqual(devOnly, [], `used by product code but only in devDependencies (npm ci --omit=dev would miss it):\n${devOnly.join('\n')}`);
});

test('the tools of the build and the tests are devDependencies', () => {
  for (const name of ['aws-cdk', 'cdk-nag', 'typescript', 'playwright-core', 'unstructured-client', '@redocly/cli', 'openapi-typescript', '@types/node']) {
    assert.ok(!(name in pkg.dependencies), `${name} is in dependencies`);
    assert.ok(name in pkg.devDependencies, `${name} is not in devDependencies`);
  }
});

test('what is pending is still in dependencies and still unused (else its entry here goes)', () => {
  for (const [name, why] of Object.entries(PENDING)) {
    assert.ok(name in pkg.dependencies, `${name} (${why}) is no longer a dependency: remove it from PENDING`);
    assert.ok(!used.has(name), `${name} is imported by ${used.get(name)} now: remove it from PENDING`);
  }
});
