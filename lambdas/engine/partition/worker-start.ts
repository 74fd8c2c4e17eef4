// Starting a worker thread or a child process from this engine's own scripts, from source or from a
// bundle: the script is looked for beside the calling module (a .ts file when running from source
// under tsx; the .mjs the CDK bundles beside index.mjs on Lambda, see lib/base-function.ts). Used by
// the partition sandbox (sandbox.ts, child processes) and the PDF page pool (pdf/pool.ts, threads).
import { fork, type ChildProcess, type ForkOptions } from 'node:child_process';
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

/** tsx's ESM API, resolved the CommonJS way: import.meta.resolve would go through the loader-hooks thread synchronously, which can stall the main thread. */
function tsxModule(entry: 'tsx/esm/api' | 'tsx/esm'): string {
  try {
    const cjs = createRequire(import.meta.url).resolve(entry);
    const mjs = cjs.replace(/\.cjs$/, '.mjs');
    return pathToFileURL(existsSync(mjs) ? mjs : cjs).href;
  } catch {
    throw new Error('tsx is not available for a TypeScript worker');
  }
}

/** A TypeScript worker (running from source under tsx) registers tsx's loader in its own thread first. */
export function startWorker(url: URL, opts: WorkerOptions): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, opts);
  const tsxApi = tsxModule('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { ...opts, eval: true });
}

/** A Node child process running the script (a TypeScript one under tsx), with these V8/Node flags and nothing inherited. */
export function forkScript(url: URL, nodeFlags: string[], opts: ForkOptions): ChildProcess {
  const flags = url.pathname.endsWith('.ts') ? ['--import', tsxModule('tsx/esm'), ...nodeFlags] : nodeFlags;
  return fork(fileURLToPath(url), [], { ...opts, execArgv: flags });
}
