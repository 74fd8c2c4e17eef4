// The web console's files (built from console/src by console/build.mjs): the page, a few hundred
// bytes naming the fingerprinted app-<hash>.js and app-<hash>.css, which are served with a year's
// cache lifetime (a new build has new names). On AWS the files travel in the Lambda bundle (lib/
// builds them into console/ beside index.mjs when the bundle contains CONSOLE_MARKER); `npm start`
// builds them into <DATA_DIR>/console (CONSOLE_ASSETS_DIR) at start; `node console/build.mjs` into
// console/dist.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NotFound, ServiceUnavailable } from '../errors';
import { config } from '../config';

/** lib/ greps the bundle for this text to know the function serves the console. */
export const CONSOLE_MARKER = 'console assets are missing from this bundle';

/** The console's CSP: its own files only; inline nothing; images from the page's own Blob URLs. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; worker-src 'self'; style-src 'self'; img-src 'self' blob: data:; font-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Asset names a request may ask for (what the build writes: name-HASH.js/.css/.mjs). */
export const CONSOLE_ASSET = /^[a-z][a-z0-9._-]{0,40}-[A-Z0-9]{8}\.(js|css|mjs)$/;

interface Manifest {
  js: string;
  css: string;
  pdfJs: string;
  pdfWorker: string;
  files: string[];
}

function assetsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const configured = config().CONSOLE_ASSETS_DIR;
  for (const dir of [...(configured ? [configured] : []), join(here, 'console'), join(here, '..', '..', 'console', 'dist')]) {
    if (existsSync(join(dir, 'manifest.json'))) return dir;
  }
  throw new ServiceUnavailable(CONSOLE_MARKER); // a deployment fault, not the caller's
}

let manifest: Manifest | undefined;
function names(): Manifest {
  return (manifest ??= JSON.parse(readFileSync(join(assetsDir(), 'manifest.json'), 'utf8')) as Manifest);
}

export function consoleAsset(name: string): { body: string; type: string } {
  if (!names().files.includes(name)) throw new NotFound(`No console file ${name}: reload the page`);
  return { body: readFileSync(join(assetsDir(), name), 'utf8'), type: name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8' };
}

/** The page: relative URLs only (console?asset=…), so it works under an API stage path. */
export function consolePage(): string {
  const { js, css, pdfJs, pdfWorker } = names();
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Workflow service console</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="pdf-js" content="console?asset=${pdfJs}"><meta name="pdf-worker" content="console?asset=${pdfWorker}">
<link rel="icon" href="data:,"><link rel="stylesheet" href="console?asset=${css}"></head>
<body><div id="app"><noscript>The console needs JavaScript. The API reference is at <a href="docs">docs</a>.</noscript></div>
<script type="module" src="console?asset=${js}"></script></body></html>`;
}
