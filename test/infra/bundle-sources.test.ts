// The SaaS file sources as the Lambda bundle runs them: the dropbox and box connectors bundled by
// esbuild with the functions' settings (ESM, mainFields module then main, a createRequire banner),
// which picks the SDKs' ES builds, not the CommonJS ones the other tiers load through tsx. Each
// bundled connector lists and reads its stand-in to the exact bytes. (The Dropbox SDK's ES build
// takes a module-less ESM bundle for a browser and hands downloads back as a Blob.)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../../lib/base-function';
import { startDropboxStandIn, type DropboxStandIn } from '../../lambdas/connectors/dropbox/test-server';
import { startBoxStandIn, type BoxStandIn } from '../../lambdas/connectors/box/test-server';
import type { ConnectorDefinition } from '../../lambdas/connectors/definition';

let outdir = '';
let dbx: DropboxStandIn;
let box: BoxStandIn;
let bundled: { dropboxSource: ConnectorDefinition; boxSource: ConnectorDefinition };
const saved = { dropbox: process.env.DROPBOX_API_URL, box: process.env.BOX_API_URL };

before(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'wps-src-bundle-'));
  await build({
    stdin: {
      contents: "export { dropboxSource } from './connectors/dropbox/index';\nexport { boxSource } from './connectors/box/index';\n",
      resolveDir: join(PROJECT_ROOT, 'lambdas'),
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    mainFields: ['module', 'main'],
    banner: { js: "import { createRequire as __wpsCreateRequire } from 'node:module'; const require = __wpsCreateRequire(import.meta.url);" },
    outfile: join(outdir, 'index.mjs'),
    tsconfig: join(PROJECT_ROOT, 'tsconfig.json'),
    logLevel: 'error',
  });
  bundled = await import(pathToFileURL(join(outdir, 'index.mjs')).href);
  [dbx, box] = await Promise.all([startDropboxStandIn(), startBoxStandIn()]);
  process.env.DROPBOX_API_URL = dbx.url;
  process.env.BOX_API_URL = box.url;
});
after(async () => {
  for (const [k, v] of [['DROPBOX_API_URL', saved.dropbox], ['BOX_API_URL', saved.box]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await Promise.all([dbx?.stop(), box?.stop()]);
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

async function listAndRead(def: ConnectorDefinition, config: Record<string, unknown>): Promise<Record<string, string>> {
  const c = def.input.parse(config);
  const out: Record<string, string> = {};
  for await (const o of def.list!(c)) out[o.key] = new TextDecoder().decode(await def.read!(c, o.key));
  return out;
}

test('bundled dropbox source: lists and reads exact bytes through the SDK ES build', async () => {
  dbx.put('/Docs/a.txt', 'dropbox bytes ✓');
  assert.deepEqual(await listAndRead(bundled.dropboxSource, { remote_url: 'dropbox://Docs', token: dbx.token }), { 'a.txt': 'dropbox bytes ✓' });
});

test('bundled box source: lists and reads exact bytes through the SDK ES build', async () => {
  box.put('/Docs/a.txt', 'box bytes ✓');
  assert.deepEqual(await listAndRead(bundled.boxSource, { remote_url: 'box://Docs', access_token: box.token }), { 'a.txt': 'box bytes ✓' });
});
