// Builds the web console (console/src) into one directory of fingerprinted files: app-<hash>.js and
// app-<hash>.css (the first load), the PDF renderer's chunks and pdf.js's worker (loaded when the
// playground shows a PDF page), and manifest.json naming them. esbuild (the bundler the Lambdas already use), no
// CDN, nothing fetched at run time. `npm start` builds into console/dist before serving; `cdk
// deploy` builds into the bundle of the function serving /console (lib/base-function.ts).
//
//   node console/build.mjs [outDir]      prints each file's size and the gzipped total of the first load
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));

/** Builds into outDir (emptied first); resolves with the manifest and the gzipped size of the first load. */
export async function buildConsole(outDir = join(here, 'dist')) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const common = {
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
  };
  // -- the PDF renderer (pdf.js) is a module of its own, imported by URL when the playground shows a
  // -- PDF page: the first load stays small, and no chunk is addressed by a relative path --
  const pdf = await build({ ...common, entryPoints: { pdf: join(here, 'src', 'pdfjs-entry.ts') } });
  const result = await build({ ...common, entryPoints: { app: join(here, 'src', 'main.ts') } });
  const outputs = result.metafile.outputs;
  const entry = (ext) => basename(Object.keys(outputs).find((f) => f.endsWith(ext)));
  const pdfJs = basename(Object.keys(pdf.metafile.outputs).find((f) => f.endsWith('.js')));
  // -- pdf.js's worker, copied under a name of its content's hash --
  const worker = createRequire(import.meta.url).resolve('pdfjs-dist/build/pdf.worker.min.mjs');
  const workerName = `pdf-worker-${createHash('sha256').update(readFileSync(worker)).digest('hex').slice(0, 8).toUpperCase()}.mjs`;
  copyFileSync(worker, join(outDir, workerName));
  const files = [...Object.keys(outputs).map((f) => basename(f)), pdfJs, workerName];
  const manifest = { js: entry('.js'), css: entry('.css'), pdfJs, pdfWorker: workerName, files };
  writeFileSync(join(outDir, 'manifest.json'), JSON.stringify(manifest));
  const sizes = files.map((f) => {
    const data = readFileSync(join(outDir, f));
    return { file: f, bytes: data.length, gzipped: gzipSync(data, { level: 9 }).length };
  });
  const first = new Set([manifest.js, manifest.css]);
  return { manifest, sizes, firstLoadGzipped: sizes.filter((s) => first.has(s.file)).reduce((a, s) => a + s.gzipped, 0) };
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const out = await buildConsole(process.argv[2] ? resolve(process.argv[2]) : undefined);
  for (const s of out.sizes) console.log(`${s.file.padEnd(28)} ${String(s.bytes).padStart(8)} B   ${String(s.gzipped).padStart(7)} B gzipped${s.file === out.manifest.js || s.file === out.manifest.css ? '   (first load)' : '   (PDF pages only, loaded on demand)'}`);
  console.log(`first load (JS + CSS, gzipped): ${(out.firstLoadGzipped / 1024).toFixed(1)} KB (budget 150 KB)`);
  if (out.firstLoadGzipped > 150 * 1024) process.exit(1);
}
