// The partition sandbox: each document is partitioned in a worker thread (sandbox-worker.ts) with a
// memory budget (V8 resourceLimits: old and young generation, stack) and a wall-clock budget. A
// worker that runs out of heap, overruns its time, crashes or exits is terminated and replaced, and
// its caller gets a 4xx naming the budget; the process (the service, a Lambda) survives. Caps inside
// the engine (limits.ts) bound the memory V8 does not count (inflated buffers); as a backstop for
// the rest (WebAssembly heaps), a watchdog terminates the longest-running document when the
// process's RSS passes PARTITION_MAX_RSS_MB.
//
// Workers are kept warm (created on demand up to PARTITION_SANDBOX_WORKERS, reused, unref'd so an
// idle pool never keeps a process alive). The document is copied into a transferred buffer and the
// elements come back as one transferred buffer of JSON, so a large result costs one parse here and
// no structured clone of thousands of objects. PDF page workers (pdf/pool.ts) run nested inside.
import { availableParallelism, totalmem } from 'node:os';
import { SHARE_ENV, type Worker } from 'node:worker_threads';
import { PayloadTooLarge, ServiceUnavailable, UnprocessableDocument } from '../../domain/errors';
import type { Element } from '../elements';
import type { PartitionExtras, PartitionInput, PartitionOptions, PartitionResult } from './types';
import { deserializeError, type SandboxReply, type SandboxRequest } from './sandbox-protocol';
import { findWorkerScript, startWorker } from './worker-start';

export interface SandboxSettings {
  /** Workers kept for partitioning (documents beyond wait their turn). */
  workers: number;
  /** V8 old-generation heap of one worker, MB. */
  heapMb: number;
  youngMb: number;
  stackMb: number;
  /** Time budget of one document on the sync endpoint, seconds. */
  timeoutS: number;
  /** Time budget of one document in a job's partition node, seconds. */
  jobTimeoutS: number;
  /** RSS of the whole process above which the longest-running document is stopped, MB (0: off). */
  maxRssMb: number;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number (got ${JSON.stringify(raw)})`);
  return n;
}

/**
 * The settings from the environment. Defaults: on Lambda (AWS_LAMBDA_FUNCTION_NAME set) the sync
 * budget is 25 s, inside API Gateway's 29 s; with `npm start` it is 120 s. A job's partition node
 * gets 840 s (the job Lambda stops at 900 s). RSS ceiling: 85% of the Lambda's memory, else 4 GB
 * (at most 75% of the machine).
 */
export function sandboxSettings(env: NodeJS.ProcessEnv = process.env): SandboxSettings {
  const onLambda = Boolean(env.AWS_LAMBDA_FUNCTION_NAME);
  const lambdaMb = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE) || 0;
  const machineMb = Math.floor(totalmem() / 2 ** 20);
  return {
    workers: Math.max(1, Math.floor(positive(env, 'PARTITION_SANDBOX_WORKERS', Math.min(2, availableParallelism())))),
    heapMb: positive(env, 'PARTITION_MAX_HEAP_MB', 1024),
    youngMb: positive(env, 'PARTITION_YOUNG_HEAP_MB', 64),
    stackMb: positive(env, 'PARTITION_STACK_MB', 4),
    timeoutS: positive(env, 'PARTITION_TIMEOUT_S', onLambda ? 25 : 120),
    jobTimeoutS: positive(env, 'PARTITION_JOB_TIMEOUT_S', 840),
    maxRssMb: positive(env, 'PARTITION_MAX_RSS_MB', lambdaMb ? Math.floor(lambdaMb * 0.85) : Math.min(4096, Math.floor(machineMb * 0.75))),
  };
}

// ---- the pool ---------------------------------------------------------------------------------

interface Task {
  request: SandboxRequest;
  timeoutS: number;
  filename: string;
  resolve(r: PartitionResult): void;
  reject(e: Error): void;
  startedAt?: number;
  timer?: NodeJS.Timeout;
}

interface Slot {
  w: Worker;
  ready: boolean;
  task?: Task;
  /** Set once the worker is being (or has been) stopped: nothing more is given to it. */
  dead?: boolean;
}

let slots: Slot[] = [];
const queue: Task[] = [];
let nextId = 1;
let settings: SandboxSettings | undefined;
let watchdog: NodeJS.Timeout | undefined;
/** No watchdog kill before this time (RSS takes a moment to fall after a worker is stopped). */
let watchdogQuietUntil = 0;

function current(): SandboxSettings {
  return (settings ??= sandboxSettings());
}

function workerUrl(): URL {
  const url = findWorkerScript(import.meta.url, ['./sandbox-worker.ts', './partition-worker.mjs']);
  // No silent fallback to in-process partitioning: that would drop the protection unnoticed.
  if (!url) throw new Error('the partition sandbox worker script is missing (sandbox-worker.ts / partition-worker.mjs)');
  return url;
}

function spawn(): Slot {
  const s = current();
  const w = startWorker(workerUrl(), {
    env: SHARE_ENV,
    resourceLimits: { maxOldGenerationSizeMb: s.heapMb, maxYoungGenerationSizeMb: s.youngMb, stackSizeMb: s.stackMb },
  });
  const slot: Slot = { w, ready: false };
  slots.push(slot);
  w.on('message', (m: SandboxReply) => onReply(slot, m));
  w.on('error', (err: Error & { code?: string }) => {
    const budget = current().heapMb;
    if (!slot.ready) stop(slot, () => new Error(`The partition sandbox worker failed to start: ${err.message}`));
    else if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') stop(slot, (f) => new PayloadTooLarge(`The document ${f} exceeded the memory budget of ${budget} MB for one document.`));
    else stop(slot, (f) => new UnprocessableDocument(`The document ${f} crashed the partition worker (${err.message}).`));
  });
  w.on('exit', (code) => {
    if (!slot.ready) stop(slot, () => new Error(`The partition sandbox worker exited (code ${code}) before it was ready.`));
    else stop(slot, (f) => new UnprocessableDocument(`The partition worker stopped (exit code ${code}) while reading ${f}.`));
  });
  // Idle workers never keep the process alive; a busy one does (ref'd while it has a document).
  // After the listeners: adding a 'message' listener refs the worker again.
  w.unref();
  return slot;
}

function onReply(slot: Slot, m: SandboxReply): void {
  if ('ready' in m) {
    slot.ready = true;
    if (slot.task) startClock(slot, slot.task);
    return;
  }
  const task = slot.task;
  if (!task || task.request.id !== m.id) return;
  slot.task = undefined;
  slot.w.unref();
  clearTimeout(task.timer);
  if (m.ok) {
    try {
      const elements = JSON.parse(Buffer.from(m.json.buffer, m.json.byteOffset, m.json.byteLength).toString('utf8')) as Element[];
      task.resolve({ elements, warnings: m.warnings, filetype: m.filetype });
    } catch (err) {
      task.reject(err as Error);
    }
  } else {
    task.reject(deserializeError(m.error));
  }
  dispatch();
}

/** The time budget runs from when the worker is ready (a cold start is not the document's fault). */
function startClock(slot: Slot, task: Task): void {
  if (task.startedAt !== undefined) return;
  task.startedAt = Date.now();
  task.timer = setTimeout(() => {
    stop(slot, (f) => new UnprocessableDocument(`The document ${f} exceeded the time budget of ${task.timeoutS} s for one document.`));
  }, task.timeoutS * 1000);
  task.timer.unref();
}

/** Stops a worker; its document (if any) fails with `why`. Idempotent (error, exit and timeout may all fire). */
function stop(slot: Slot, why: (filename: string) => Error): void {
  const task = slot.task;
  slot.task = undefined;
  if (task) {
    clearTimeout(task.timer);
    task.reject(why(task.filename));
  }
  if (!slot.dead) {
    slot.dead = true;
    slots = slots.filter((x) => x !== slot);
    void slot.w.terminate().catch(() => undefined);
    watchdogQuietUntil = Date.now() + 2000;
  }
  dispatch();
}

function dispatch(): void {
  while (queue.length) {
    let slot = slots.find((s) => !s.task && !s.dead);
    if (!slot && slots.length < current().workers) {
      try {
        slot = spawn();
      } catch (err) {
        for (const t of queue.splice(0)) t.reject(err as Error);
        return;
      }
    }
    if (!slot) break;
    const task = queue.shift()!;
    slot.task = task;
    slot.w.ref();
    slot.w.postMessage(task.request, [task.request.data]);
    if (slot.ready) startClock(slot, task);
  }
  armWatchdog();
}

function armWatchdog(): void {
  const busy = slots.some((s) => s.task);
  const limit = current().maxRssMb;
  if (busy && limit > 0 && !watchdog) {
    watchdog = setInterval(() => {
      if (Date.now() < watchdogQuietUntil || process.memoryUsage.rss() / 2 ** 20 <= limit) return;
      // Which thread holds the memory is not visible from here: the document that has run longest goes.
      const oldest = slots.filter((s) => s.task?.startedAt !== undefined).sort((a, b) => a.task!.startedAt! - b.task!.startedAt!)[0];
      if (oldest) stop(oldest, (f) => new PayloadTooLarge(`The document ${f} exceeded the memory budget: the process passed ${limit} MB.`));
    }, 250);
    watchdog.unref();
  } else if (!busy && watchdog) {
    clearInterval(watchdog);
    watchdog = undefined;
  }
}

/** Partitions one document in a sandbox worker (see the file header). */
export function partitionInSandbox(input: PartitionInput, options?: Partial<PartitionOptions>, extras: PartitionExtras = {}): Promise<PartitionResult> {
  const s = current();
  // A copy in a buffer of its own, transferred to the worker (the caller's bytes stay untouched).
  const data = Uint8Array.prototype.slice.call(input.data ?? new Uint8Array(0)).buffer as ArrayBuffer;
  const { timeoutSeconds, ...rest } = extras;
  return new Promise<PartitionResult>((resolve, reject) => {
    queue.push({
      request: { id: nextId++, data, filename: input.filename, contentType: input.contentType, options, extras: rest },
      timeoutS: timeoutSeconds ?? s.timeoutS,
      filename: input.filename || 'unknown',
      resolve,
      reject,
    });
    dispatch();
  });
}

/** Starts one worker ahead of the first document (optional: the first call starts it otherwise). */
export function warmPartitionSandbox(): void {
  if (slots.length === 0) {
    try {
      spawn();
    } catch {
      /* reported by the first partition call */
    }
  }
}

/** Stops every worker; queued documents fail. Settings are read again at the next use (tests change them). */
export async function shutdownPartitionSandbox(): Promise<void> {
  for (const t of queue.splice(0)) t.reject(new ServiceUnavailable('The partition sandbox is shutting down.'));
  const all = slots;
  slots = [];
  for (const s of all) {
    s.dead = true;
    if (s.task) {
      clearTimeout(s.task.timer);
      s.task.reject(new ServiceUnavailable('The partition sandbox is shutting down.'));
      s.task = undefined;
    }
  }
  await Promise.all(all.map((s) => s.w.terminate().catch(() => undefined)));
  if (watchdog) clearInterval(watchdog);
  watchdog = undefined;
  settings = undefined;
}

/** Workers alive now (tests). */
export function sandboxWorkerCount(): number {
  return slots.length;
}
