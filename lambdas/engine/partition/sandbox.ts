// The partition sandbox: each document is partitioned in a child process (sandbox-worker.ts) with
// a memory budget (V8 heap flags, and the child's RSS watched through /proc) and a wall-clock budget.
// A child that runs out of heap, passes its RSS budget, overruns its time, crashes or exits is
// killed and replaced, and its caller gets a 4xx naming the budget; the service (or the Lambda)
// survives. Caps inside the engine (limits.ts) stop most bombs long before the budgets.
//
// Why processes and not worker threads with resourceLimits (tried first): V8 handles a worker's
// heap limit with a near-limit callback that asks the worker to stop and grants 16 MB more; a
// single large allocation in a builtin (a join, a JSON.stringify, an array growing) that needs more
// than that before the next interrupt check is a FatalProcessOutOfMemory, which aborts the whole
// process. A 40 MB TSV did exactly that here. A child process dies alone, and its memory (heap,
// buffers and WebAssembly heaps alike) is visible per child, so the RSS budget is exact.
//
// Children are kept warm (created on demand up to PARTITION_SANDBOX_WORKERS, reused, unref'd when
// idle so they never keep a process alive, stopped after PARTITION_SANDBOX_IDLE_S without work, and
// they exit when their parent goes). The environment is sent with each document (tests and
// operators change it at run time). PDF page workers (pdf/pool.ts) run as threads inside a child.
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { PayloadTooLarge, ServiceUnavailable, UnprocessableDocument } from '../../errors';
import type { PartitionExtras, PartitionInput, PartitionJsonResult, PartitionOptions } from './types';
import { deserializeError, type SandboxReply, type SandboxRequest } from './sandbox-protocol';
import { findWorkerScript, forkScript } from './worker-start';
import { logContext } from '../../logger';

export interface SandboxSettings {
  /** Child processes kept for partitioning (documents beyond wait their turn). */
  workers: number;
  /** V8 old-generation heap of one child, MB. */
  heapMb: number;
  /** V8 semi-space of one child, MB (young generation: faster allocation-heavy parsing). */
  youngMb: number;
  /** V8 stack of one child, MB (under the 8 MB the OS gives a main thread). */
  stackMb: number;
  /** Time budget of one document on the sync endpoint, seconds. */
  timeoutS: number;
  /** Time budget of one document in a job's partition node, seconds. */
  jobTimeoutS: number;
  /** Resident memory of one child (heap, buffers, WebAssembly), MB; 0: not watched. */
  maxRssMb: number;
  /** An idle child is stopped after this many seconds (its memory returns to the machine). */
  idleS: number;
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
 * gets 840 s (the job Lambda stops at 900 s). RSS: the heap plus 1 GB, at most 80% of the Lambda.
 */
export function sandboxSettings(env: NodeJS.ProcessEnv = process.env): SandboxSettings {
  const onLambda = Boolean(env.AWS_LAMBDA_FUNCTION_NAME);
  const lambdaMb = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE) || 0;
  const heapMb = positive(env, 'PARTITION_MAX_HEAP_MB', 1024);
  const rss = heapMb + 1024;
  return {
    workers: Math.max(1, Math.floor(positive(env, 'PARTITION_SANDBOX_WORKERS', Math.min(2, availableParallelism())))),
    heapMb,
    youngMb: positive(env, 'PARTITION_YOUNG_HEAP_MB', 32),
    stackMb: Math.min(7, positive(env, 'PARTITION_STACK_MB', 4)),
    timeoutS: positive(env, 'PARTITION_TIMEOUT_S', onLambda ? 25 : 120),
    jobTimeoutS: positive(env, 'PARTITION_JOB_TIMEOUT_S', 840),
    maxRssMb: positive(env, 'PARTITION_MAX_RSS_MB', lambdaMb ? Math.min(rss, Math.floor(lambdaMb * 0.8)) : rss),
    idleS: positive(env, 'PARTITION_SANDBOX_IDLE_S', 300),
  };
}

// ---- the pool ---------------------------------------------------------------------------------

interface Task {
  request: SandboxRequest;
  /** Whose document: the next free child goes to the tenant with the fewest documents running. */
  tenant: string;
  /** A caller waits on the answer (the synchronous endpoint), not a job's batch work. */
  interactive: boolean;
  /** The caller's progress callback: the child's progress messages for this document go here. */
  onProgress?: (pagesDone: number, pagesTotal: number) => void;
  timeoutS: number;
  filename: string;
  resolve(r: PartitionJsonResult): void;
  reject(e: Error): void;
  startedAt?: number;
  timer?: NodeJS.Timeout;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  task?: Task;
  /** Set once the child is being (or has been) stopped: nothing more is given to it. */
  dead?: boolean;
  /** Why we killed it, when we did. */
  killedFor?: (filename: string) => Error;
  /** When it last finished a document (or started). */
  idleSince: number;
}

/** How long the burst child (one beyond the setting) stays warm after its document. */
const BURST_IDLE_MS = 30_000;

let slots: Slot[] = [];
const queue: Task[] = [];
let nextId = 1;
let settings: SandboxSettings | undefined;
let watchdog: NodeJS.Timeout | undefined;
let idleSweep: NodeJS.Timeout | undefined;

function current(): SandboxSettings {
  return (settings ??= sandboxSettings());
}

function workerUrl(): URL {
  const url = findWorkerScript(import.meta.url, ['./sandbox-worker.ts', './partition-worker.mjs']);
  // No silent fallback to in-process partitioning: that would drop the protection unnoticed.
  if (!url) throw new Error('the partition sandbox worker script is missing (sandbox-worker.ts / partition-worker.mjs)');
  return url;
}

/** A child idles unref'd (never keeping this process alive) and is ref'd while it has a document. */
function hold(slot: Slot, on: boolean): void {
  const c = slot.child as ChildProcess & { channel?: { ref(): void; unref(): void } };
  if (on) {
    c.ref();
    c.channel?.ref();
  } else {
    c.unref();
    c.channel?.unref();
  }
}

function spawn(): Slot {
  const s = current();
  const child = forkScript(
    workerUrl(),
    [`--max-old-space-size=${s.heapMb}`, `--max-semi-space-size=${s.youngMb}`, `--stack-size=${Math.floor(s.stackMb * 1000)}`],
    { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const slot: Slot = { child, ready: false, idleSince: Date.now() };
  slots.push(slot);
  child.on('message', (m: SandboxReply) => onReply(slot, m));
  child.on('error', (err) => stop(slot, () => new Error(`The partition sandbox process failed: ${err.message}`)));
  child.on('exit', (code, signal) => {
    const heap = current().heapMb;
    if (slot.killedFor) stop(slot, slot.killedFor);
    else if (!slot.ready) stop(slot, () => new Error(`The partition sandbox process exited (${signal ?? `code ${code}`}) before it was ready.`));
    // V8 aborts a process whose heap is full (SIGABRT after "JavaScript heap out of memory")
    else if (signal === 'SIGABRT' || code === 134) stop(slot, (f) => new PayloadTooLarge(`The document ${f} exceeded the memory budget of ${heap} MB for one document.`));
    else stop(slot, (f) => new UnprocessableDocument(`The partition process stopped (${signal ?? `exit code ${code}`}) while reading ${f}.`));
  });
  hold(slot, false);
  armIdleSweep();
  return slot;
}

/** Stops children idle for longer than the setting (checked every 15 s while any child lives). */
function armIdleSweep(): void {
  if (idleSweep) return;
  idleSweep = setInterval(() => {
    const limit = current().idleS * 1000;
    for (const slot of slots) {
      const idleFor = Date.now() - slot.idleSince;
      if (slot.task || slot.dead) continue;
      if (idleFor > limit || (slots.length > current().workers && idleFor > BURST_IDLE_MS)) kill(slot, () => new Error('idle'));
    }
    if (slots.length === 0) {
      clearInterval(idleSweep);
      idleSweep = undefined;
    }
  }, 15_000);
  idleSweep.unref();
}

function onReply(slot: Slot, m: SandboxReply): void {
  if ('ready' in m) {
    slot.ready = true;
    if (slot.task) startClock(slot, slot.task);
    return;
  }
  const task = slot.task;
  if (!task || task.request.id !== m.id) return;
  if ('progress' in m) {
    try {
      task.onProgress?.(m.progress[0], m.progress[1]);
    } catch {
      /* a progress reader's failure is not the document's */
    }
    return;
  }
  slot.task = undefined;
  slot.idleSince = Date.now();
  hold(slot, false);
  clearTimeout(task.timer);
  if (m.ok) {
    task.resolve({ elementsJson: m.json, warnings: m.warnings, filetype: m.filetype, ...(m.pageCount === undefined ? {} : { pageCount: m.pageCount }) });
  } else {
    task.reject(deserializeError(m.error));
  }
  // -- a burst child (one beyond the setting) stays warm BURST_IDLE_MS for the next waiting tenant,
  // -- then the idle sweep retires it: the pool goes back to its size --
  dispatch();
}

/** The time budget runs from when the child is ready (a cold start is not the document's fault). */
function startClock(slot: Slot, task: Task): void {
  if (task.startedAt !== undefined) return;
  task.startedAt = Date.now();
  task.timer = setTimeout(() => {
    kill(slot, (f) => new UnprocessableDocument(`The document ${f} exceeded the time budget of ${task.timeoutS} s for one document.`));
  }, task.timeoutS * 1000);
  task.timer.unref();
}

/** Kills a child now; its document fails with `why` once it has exited. */
function kill(slot: Slot, why: (filename: string) => Error): void {
  if (slot.dead) return;
  slot.killedFor ??= why;
  slot.dead = true;
  slots = slots.filter((x) => x !== slot);
  slot.child.kill('SIGKILL');
  dispatch();
}

/** The child has gone (or failed): its document (if any) fails with `why`. Idempotent. */
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
    slot.child.kill('SIGKILL');
  }
  hold(slot, false);
  dispatch();
}

/**
 * Fair share between tenants: the next document is the oldest of the tenant with the fewest running,
 * so a tenant with a hundred documents queued delays another's first one by at most the documents
 * already running. And when every child is busy with other tenants' documents, a waiting tenant gets
 * one child beyond PARTITION_SANDBOX_WORKERS (its memory budget more, at most one at a time): a long
 * document of one tenant never holds another's 20-byte one for its whole time budget.
 * Among a tenant's documents, one a caller waits on (the synchronous endpoint) goes before its jobs'
 * batch work, and gets that extra child too when the tenant's own jobs fill every child: a tenant's
 * large job never makes its next API call wait for the job's documents.
 */
function nextTask(): { task: Task; index: number; burst: boolean } | undefined {
  const running = new Map<string, number>();
  let interactiveRunning = false;
  for (const s of slots) {
    if (!s.task || s.dead) continue;
    running.set(s.task.tenant, (running.get(s.task.tenant) ?? 0) + 1);
    interactiveRunning ||= s.task.interactive;
  }
  const rank = (t: Task) => (running.get(t.tenant) ?? 0) * 2 + (t.interactive ? 0 : 1);
  let best = -1;
  for (let i = 0; i < queue.length; i++) {
    if (best < 0 || rank(queue[i]!) < rank(queue[best]!)) best = i;
  }
  if (best < 0) return undefined;
  const task = queue[best]!;
  const burst = running.size > 0 && (!running.has(task.tenant) || (task.interactive && !interactiveRunning));
  return { task, index: best, burst };
}

function dispatch(): void {
  while (queue.length) {
    const next = nextTask()!;
    // -- at most PARTITION_SANDBOX_WORKERS documents at once, one more for a tenant the burst rule lets in --
    const limit = current().workers + (next.burst ? 1 : 0);
    if (slots.filter((s) => s.task && !s.dead).length >= limit) break;
    let slot = slots.find((s) => !s.task && !s.dead);
    if (!slot && slots.length < limit) {
      try {
        slot = spawn();
      } catch (err) {
        for (const t of queue.splice(0)) t.reject(err as Error);
        return;
      }
    }
    if (!slot) break;
    const task = next.task;
    queue.splice(next.index, 1);
    slot.task = task;
    hold(slot, true);
    slot.child.send(task.request);
    if (slot.ready) startClock(slot, task);
  }
  armWatchdog();
}

/** Resident set of a process in MB, from /proc (Linux: Lambda and these machines); undefined elsewhere. */
function rssMb(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]);
    return (pages * 4096) / 2 ** 20;
  } catch {
    return undefined;
  }
}

function armWatchdog(): void {
  const busy = slots.some((s) => s.task);
  const limit = current().maxRssMb;
  if (busy && limit > 0 && !watchdog) {
    watchdog = setInterval(() => {
      for (const slot of slots) {
        if (!slot.task) continue;
        const rss = rssMb(slot.child.pid);
        if (rss !== undefined && rss > limit) kill(slot, (f) => new PayloadTooLarge(`The document ${f} exceeded the memory budget of ${limit} MB for one document (resident memory).`));
      }
    }, 200);
    watchdog.unref();
  } else if (!busy && watchdog) {
    clearInterval(watchdog);
    watchdog = undefined;
  }
}

/**
 * Partitions one document in a sandbox process (see the file header). The elements come back as the
 * JSON text the process made of them, unparsed: a caller that only forwards them (the sync endpoint)
 * never builds them as objects.
 */
export function partitionInSandbox(input: PartitionInput, options?: Partial<PartitionOptions>, extras: PartitionExtras = {}): Promise<PartitionJsonResult> {
  const s = current();
  const { timeoutSeconds, signal, onProgress, ...rest } = extras;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise<PartitionJsonResult>((resolve, reject) => {
    const onAbort = () => abortTask(task, abortReason(signal!));
    const settled = () => signal?.removeEventListener('abort', onAbort);
    const task: Task = {
      request: {
        id: nextId++, data: input.data ?? new Uint8Array(0), filename: input.filename, contentType: input.contentType, options,
        extras: { ...rest, timeBudgetSeconds: timeoutSeconds ?? s.timeoutS }, env: { ...process.env }, log: logContext(), progress: onProgress !== undefined,
      },
      onProgress,
      timeoutS: timeoutSeconds ?? s.timeoutS,
      filename: input.filename || 'unknown',
      tenant: extras.tenant ?? '',
      interactive: extras.interactive === true,
      resolve: (r) => (settled(), resolve(r)),
      reject: (e) => (settled(), reject(e)),
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    queue.push(task);
    dispatch();
  });
}

const abortReason = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new Error('The partition was aborted.'));

/** The caller gave up (its job was cancelled): a queued document leaves the queue, a running one's process is killed. */
function abortTask(task: Task, reason: Error): void {
  const queued = queue.indexOf(task);
  if (queued >= 0) {
    queue.splice(queued, 1);
    task.reject(reason);
    return;
  }
  const slot = slots.find((x) => x.task === task);
  if (slot) kill(slot, () => reason);
}

/** Starts one child ahead of the first document (optional: the first call starts it otherwise). */
export function warmPartitionSandbox(): void {
  if (slots.length === 0) {
    try {
      spawn();
    } catch {
      /* reported by the first partition call */
    }
  }
}

/** Stops every child; queued documents fail. Settings are read again at the next use (tests change them). */
export async function shutdownPartitionSandbox(): Promise<void> {
  for (const t of queue.splice(0)) t.reject(new ServiceUnavailable('The partition sandbox is shutting down.'));
  const all = slots;
  slots = [];
  await Promise.all(
    all.map((s) => {
      s.dead = true;
      if (s.task) {
        clearTimeout(s.task.timer);
        s.task.reject(new ServiceUnavailable('The partition sandbox is shutting down.'));
        s.task = undefined;
      }
      if (s.child.exitCode !== null || s.child.signalCode !== null) return undefined;
      return new Promise<void>((resolve) => {
        s.child.once('exit', () => resolve());
        // -- an idle child is unref'd: waiting for its exit must keep the process alive --
        hold(s, true);
        s.child.kill('SIGKILL');
      });
    }),
  );
  if (watchdog) clearInterval(watchdog);
  watchdog = undefined;
  if (idleSweep) clearInterval(idleSweep);
  idleSweep = undefined;
  settings = undefined;
}

/** Children alive now (tests). */
export function sandboxWorkerCount(): number {
  return slots.length;
}

/** Process ids of the children partitioning a document now (tests). */
export function sandboxBusyPids(): number[] {
  return slots.filter((s) => s.task && s.ready).map((s) => s.child.pid!).filter(Boolean);
}

/** Process ids of the children (tests). */
export function sandboxPids(): number[] {
  return slots.map((s) => s.child.pid!).filter(Boolean);
}

/** The children partitioning a document now, and its name (tests). */
export function sandboxBusy(): { pid: number; filename: string }[] {
  return slots.filter((s) => s.task && s.ready && s.child.pid).map((s) => ({ pid: s.child.pid!, filename: s.task!.filename }));
}
