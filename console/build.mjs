// Builds the web console (console/src) into one directory of fingerprinted files: app-<hash>.js,
// app-<hash>.css and manifest.json naming them. esbuild (the bundler the Lambdas already use), no
// CDN, nothing fetched at run time. `npm start` builds into console/dist before serving; `cdk
// deploy` builds into the bundle of the function serving /console (lib/base-function.ts).
//
//   node console/build.mjs [outDir]      prints each file's size and the gzipped total of the first load
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));

/** Builds into outDir (emptied first); resolves with the manifest and the gzipped size of the first load. */
export async function buildConsole(outDir = join(here, 'dist')) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: { app: join(here, 'src', 'main.ts') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome110', 'firefox110', 'safari16'],
    entryNames: '[name]-[hash]',
    outdir: outDir,
    metafile: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const files = Object.keys(result.metafile.outputs).map((f) => basename(f));
  const manifest = { js: files.find((f) => f.endsWith('.js')), css: files.find((f) => f.endsWith('.css')) };
  writeFileSync(join(outDir, 'manifest.json'), JSON.stringify(manifest));
  const sizes = files.map((f) => {
    const data = readFileSync(join(outDir, f));
    return { file: f, bytes: data.length, gzipped: gzipSync(data, { level: 9 }).length };
  });
  return { manifest, sizes, firstLoadGzipped: sizes.reduce((a, s) => a + s.gzipped, 0) };
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const out = await buildConsole(process.argv[2] ? resolve(process.argv[2]) : undefined);
  for (const s of out.sizes) console.log(`${s.file.padEnd(28)} ${String(s.bytes).padStart(8)} B   ${String(s.gzipped).padStart(7)} B gzipped`);
  console.log(`first load (JS + CSS, gzipped): ${(out.firstLoadGzipped / 1024).toFixed(1)} KB (budget 150 KB)`);
  if (out.firstLoadGzipped > 150 * 1024) process.exit(1);
}
