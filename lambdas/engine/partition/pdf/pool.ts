// A small pool of page workers (worker_threads, one per core, at most 2) for text-layer
// extraction of long PDFs. Workers are created on first use, unref'd (they never keep the process
// alive) and reused; when the worker script cannot start (e.g. inside a bundle) the caller falls
// back to in-process extraction.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { findWorkerScript, startWorker } from '../worker-start';
import type { PageJobOptions, PageResult } from './pages';

interface PoolWorker { w: Worker; ready: Promise<boolean>; pending: Map<number, { resolve: (r: PageResult[]) => void; reject: (e: Error) => void }> }

let workers: PoolWorker[] | undefined;
let disabled = false;
let nextId = 1;
let nextJob = 1;

/** Workers in the pool: PARTITION_PAGE_WORKERS (0 disables the pool), else one per core, at most 2. */
const configured = process.env.PARTITION_PAGE_WORKERS;
export const POOL_SIZE = configured !== undefined && configured !== '' && Number.isFinite(Number(configured))
  ? Math.max(0, Math.floor(Number(configured)))
  : Math.max(1, Math.min(2, availableParallelism()));

function workerUrl(): URL | undefined {
  return findWorkerScript(import.meta.url, ['./worker.ts', './worker.js', './worker.mjs']);
}

const WORKER_OPTIONS = { resourceLimits: { maxOldGenerationSizeMb: 768 } };

function spawn(url: URL): PoolWorker {
  const w = startWorker(url, WORKER_OPTIONS);
  w.unref();
  const pending: PoolWorker['pending'] = new Map();
  const ready = new Promise<boolean>((resolve) => {
    w.once('message', (m: { ready?: boolean }) => resolve(!!m?.ready));
    w.once('error', () => resolve(false));
    w.once('exit', () => resolve(false));
  });
  w.on('message', (m: { id?: number; results?: PageResult[]; error?: string }) => {
    if (m.id === undefined) return;
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(m.error));
    else p.resolve(m.results ?? []);
  });
  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    if (workers) workers = workers.filter((x) => x.w !== w);
  };
  w.on('error', (e) => failAll(e instanceof Error ? e : new Error(String(e))));
  w.on('exit', () => failAll(new Error('page worker exited')));
  return { w, ready, pending };
}

async function getWorkers(): Promise<PoolWorker[] | undefined> {
  if (disabled || POOL_SIZE === 0) return undefined;
  if (!workers || workers.length === 0) {
    const url = workerUrl();
    if (!url) { disabled = true; return undefined; }
    try {
      workers = Array.from({ length: POOL_SIZE }, () => spawn(url));
    } catch {
      disabled = true;
      return undefined;
    }
  }
  const ok = await Promise.all(workers.map((x) => x.ready));
  ready = ok.every(Boolean);
  if (!ready) {
    for (const x of workers) void x.w.terminate();
    workers = undefined;
    disabled = true;
    return undefined;
  }
  return workers;
}

let ready = false;
let idleTimer: NodeJS.Timeout | undefined;
/** Idle workers stop after this long: workers started from source under tsx keep the process alive
 * despite unref() (the loader thread tsx registers in them), so they must not linger. */
let idleMs = 10_000;
let activeJobs = 0;

/**
 * How long idle workers are kept. The partition sandbox's processes keep them as long as they live
 * themselves (the sandbox stops an idle process, and a process exits with its parent): a cold pool
 * costs about a second more on the next long PDF.
 */
export function setPagePoolIdleMs(ms: number): void {
  idleMs = ms;
}

function scheduleIdleStop(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => { if (activeJobs === 0) void shutdownPagePool(); }, idleMs);
  idleTimer.unref();
}
/** True once the workers have started (a cold start costs a few hundred ms, more from source). */
export function pagePoolReady(): boolean {
  return ready && !!workers?.length;
}

/** Starts the workers in the background (the first long PDF then finds them ready). */
export function warmPagePool(): void {
  if (!workers && !disabled) void getWorkers().then(scheduleIdleStop, () => {});
}

/**
 * Processes `pages` (0-based indexes) across the pool, in chunks pulled by whichever worker is free.
 * Returns undefined when no worker is available (caller runs in-process).
 */
export async function processPagesInPool(
  data: Uint8Array,
  pages: number[],
  opts: PageJobOptions,
  onResults?: (r: PageResult[]) => void,
): Promise<PageResult[] | undefined> {
  activeJobs++;
  try {
    return await runJob(data, pages, opts, onResults);
  } finally {
    activeJobs--;
    scheduleIdleStop();
  }
}

async function runJob(
  data: Uint8Array,
  pages: number[],
  opts: PageJobOptions,
  onResults?: (r: PageResult[]) => void,
): Promise<PageResult[] | undefined> {
  const pool = await getWorkers();
  if (!pool) return undefined;
  const job = nextJob++;
  const sab = new SharedArrayBuffer(data.byteLength);
  new Uint8Array(sab).set(data);
  for (const x of pool) x.w.postMessage({ type: 'open', job, data: sab });
  const chunk = Math.max(4, Math.min(32, Math.ceil(pages.length / (pool.length * 6))));
  const chunks: number[][] = [];
  for (let i = 0; i < pages.length; i += chunk) chunks.push(pages.slice(i, i + chunk));
  const results: PageResult[] = [];
  let next = 0;
  try {
    await Promise.all(pool.map(async (x) => {
      while (next < chunks.length) {
        const c = chunks[next++]!;
        const id = nextId++;
        const r = await new Promise<PageResult[]>((resolve, reject) => {
          x.pending.set(id, { resolve, reject });
          x.w.postMessage({ type: 'pages', job, id, pages: c, opts });
        });
        results.push(...r);
        onResults?.(r);
      }
    }));
  } finally {
    for (const x of pool) x.w.postMessage({ type: 'close', job });
  }
  return results.sort((a, b) => a.page - b.page);
}

/** Stops the pool (tests and benches; workers are unref'd, so this is optional). */
export async function shutdownPagePool(): Promise<void> {
  if (idleTimer) { clearTimeout(idleTimer); idleTimer = undefined; }
  const ws = workers;
  workers = undefined;
  ready = false;
  await Promise.all((ws ?? []).map((x) => x.w.terminate()));
}
