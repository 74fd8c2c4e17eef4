// Starting a worker thread from this engine's own scripts, from source or from a bundle: the script
// is looked for beside the calling module (a .ts file when running from source under tsx; the .mjs
// the CDK bundles beside index.mjs on Lambda, see lib/base-function.ts). Shared by the partition
// sandbox (sandbox.ts) and the PDF page pool (pdf/pool.ts).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The first of `names` that exists relative to `base` (an import.meta.url). */
export function findWorkerScript(base: string, names: string[]): URL | undefined {
  for (const name of names) {
    const u = new URL(name, base);
    try { if (existsSync(fileURLToPath(u))) return u; } catch { /* not a file URL */ }
  }
  return undefined;
}

/** A TypeScript worker (running from source under tsx) registers tsx's loader in its own thread first. */
export function startWorker(url: URL, opts: WorkerOptions): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, opts);
  // Resolved the CommonJS way: import.meta.resolve would go through the loader-hooks thread
  // synchronously, which can stall the main thread.
  let tsxApi: string;
  try {
    const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
    const mjs = cjs.replace(/\.cjs$/, '.mjs');
    tsxApi = pathToFileURL(existsSync(mjs) ? mjs : cjs).href;
  } catch {
    throw new Error('tsx is not available for a TypeScript worker');
  }
  const boot = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { ...opts, eval: true });
}
