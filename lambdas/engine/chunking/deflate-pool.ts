// Compresses `orig_elements` payloads on worker threads, so a document's chunks are deflated on every
// core while the main thread keeps building JSON. One deflate per chunk costs ~20 µs, most of it zlib's
// per-stream set-up, and a 600-page PDF has ~5,000 chunks: in one thread that was half the chunking time.
//
// The workers are plain-JS eval workers (no worker file to bundle or load through tsx), started on first
// use and reused; an idle worker never keeps the process alive. Payloads travel in batches of ~256 KB,
// at most two per worker at a time; the calling thread deflates the batches still waiting once it has
// built every text. When no worker can run, or a worker fails, its payloads are deflated in-thread: the
// output is the same either way.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { deflateSync, type ZlibOptions } from 'node:zlib';

/**
 * Per-call zlib set-up dominates for chunk-sized payloads: a window just big enough for the payload,
 * a matching hash size and an output buffer near the expected compressed size make each call cheaper.
 * Any inflater reads the result (the window size is in the zlib header). Self-contained: the worker
 * source embeds it via toString().
 */
export function zlibOptions(size: number): ZlibOptions {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(size + 262))));
  const chunkSize = Math.min(16384, Math.max(512, 2 ** Math.ceil(Math.log2(size / 2 + 64))));
  return { windowBits, memLevel: windowBits >= 14 ? 8 : 5, chunkSize };
}

/** zlib-deflates the UTF-8 bytes of `json` and returns them base64-encoded. */
export function deflateJsonToBase64(json: string): string {
  const bytes = Buffer.from(json, 'utf8');
  return deflateSync(bytes, zlibOptions(bytes.length)).toString('base64');
}

// -- batches travel as one transferred buffer of ASCII JSON texts plus their end offsets, and come back
// -- as one transferred buffer of deflated streams: no per-text structured-clone cost either way --
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { deflateSync } = require('node:zlib');
const zlibOptions = ${zlibOptions.toString()};
parentPort.on('message', (m) => {
  try {
    const input = Buffer.from(m.buf);
    const parts = [];
    let total = 0;
    let from = 0;
    for (const to of m.ends) {
      const z = deflateSync(input.subarray(from, to), zlibOptions(to - from));
      parts.push(z);
      total += z.length;
      from = to;
    }
    const out = Buffer.allocUnsafeSlow(total);
    const ends = new Uint32Array(parts.length);
    let at = 0;
    parts.forEach((z, i) => { z.copy(out, at); at += z.length; ends[i] = at; });
    parentPort.postMessage({ id: m.id, buf: out.buffer, ends }, [out.buffer, ends.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String((err && err.message) || err) });
  }
});
parentPort.postMessage({ ready: true });
`;

/** Workers: CHUNK_DEFLATE_WORKERS (0 = deflate in-thread), else one per core, at most 4; none on one core (no gain, only overhead). */
export function deflateWorkerCount(): number {
  const v = process.env.CHUNK_DEFLATE_WORKERS;
  if (v !== undefined && v !== '' && Number.isFinite(Number(v))) return Math.max(0, Math.floor(Number(v)));
  const cores = availableParallelism();
  return cores < 2 ? 0 : Math.min(4, cores);
}

/** Below this many payloads a call deflates in-thread: the round trips would cost more than they save. */
export const MIN_POOLED_PAYLOADS = 32;
const BATCH_BYTES = 256 * 1024;

interface Pending { resolve: (out: { buf: ArrayBuffer; ends: Uint32Array }) => void; reject: (err: Error) => void }
interface PoolWorker { w: Worker; ready: Promise<boolean>; pending: Map<number, Pending>; /** Batches sent, not yet back. */ outstanding: number; dead: boolean }

let workers: PoolWorker[] | undefined;
let disabled = false;
let nextId = 1;

function spawn(): PoolWorker {
  const w = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
  const self: PoolWorker = { w, ready: Promise.resolve(false), pending: new Map(), outstanding: 0, dead: false };
  self.ready = new Promise<boolean>((resolve) => {
    w.once('message', (m: { ready?: boolean }) => resolve(!!m?.ready));
    w.once('error', () => resolve(false));
    w.once('exit', () => resolve(false));
  });
  w.on('message', (m: { id?: number; buf?: ArrayBuffer; ends?: Uint32Array; error?: string }) => {
    if (m.id === undefined) return;
    const p = self.pending.get(m.id);
    if (!p) return;
    self.pending.delete(m.id);
    self.outstanding -= 1;
    // -- idle workers never keep the process alive; busy ones do, until their results are in --
    if (self.pending.size === 0) w.unref();
    if (m.error !== undefined || !m.buf || !m.ends) p.reject(new Error(m.error ?? 'no output'));
    else p.resolve({ buf: m.buf, ends: m.ends });
  });
  const failAll = (err: Error) => {
    self.dead = true;
    for (const p of self.pending.values()) p.reject(err);
    self.pending.clear();
    self.outstanding = 0;
    if (workers) workers = workers.filter((x) => x !== self);
  };
  w.on('error', (e) => failAll(e instanceof Error ? e : new Error(String(e))));
  w.on('exit', () => failAll(new Error('deflate worker exited')));
  // -- a starting or busy worker keeps the process alive (its caller is waiting); an idle one never does.
  // -- unref() comes after the listeners: adding a 'message' listener refs the worker's port again --
  void self.ready.then(() => { if (self.pending.size === 0) w.unref(); });
  return self;
}

async function getWorkers(): Promise<PoolWorker[] | undefined> {
  const size = deflateWorkerCount();
  if (disabled || size === 0) return undefined;
  if (!workers || workers.length === 0) {
    try {
      workers = Array.from({ length: size }, spawn);
    } catch {
      disabled = true;
      return undefined;
    }
  }
  const current = workers;
  const ok = await Promise.all(current.map((x) => x.ready));
  if (!ok.every(Boolean)) {
    await shutdownDeflatePool();
    disabled = true;
    return undefined;
  }
  return current;
}

/** Sends ASCII texts to `target` as one transferred buffer; resolves to their base64 deflated forms. */
function send(target: PoolWorker, texts: string[], bytes: number): Promise<string[]> {
  if (target.dead) return Promise.reject(new Error('deflate worker exited'));
  const buf = Buffer.allocUnsafeSlow(bytes);
  const ends = new Uint32Array(texts.length);
  let at = 0;
  texts.forEach((t, i) => {
    at += buf.write(t, at, 'latin1');
    ends[i] = at;
  });
  const id = nextId++;
  target.outstanding += 1;
  target.w.ref();
  return new Promise<{ buf: ArrayBuffer; ends: Uint32Array }>((resolve, reject) => {
    target.pending.set(id, { resolve, reject });
    target.w.postMessage({ id, buf: buf.buffer, ends }, [buf.buffer, ends.buffer]);
  }).then(({ buf: out, ends: outEnds }) => {
    const z = Buffer.from(out);
    const res = new Array<string>(outEnds.length);
    let from = 0;
    for (let i = 0; i < outEnds.length; i++) {
      res[i] = z.toString('base64', from, outEnds[i]);
      from = outEnds[i]!;
    }
    return res;
  });
}

/** Batches a worker may hold at once; the rest wait here, and the calling thread takes them when it is free. */
const PER_WORKER = 2;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Batch { first: number; texts: string[]; bytes: number }

/**
 * Deflates every JSON text of `asciiJsons` (consumed lazily: building the next texts overlaps the
 * compression of the previous ones) and returns the base64 results in order. The texts must be ASCII,
 * as Python's `json.dumps(ensure_ascii=True)` form is: they travel one byte per character. Workers
 * take batches as they free up; once every text is built, the calling thread deflates the batches
 * still waiting, so no core idles while one is left.
 */
export async function deflateJsonsToBase64(asciiJsons: Iterable<string>, count: number): Promise<string[]> {
  const pool = count >= MIN_POOLED_PAYLOADS ? await getWorkers() : undefined;
  if (!pool) return Array.from(asciiJsons, deflateJsonToBase64);
  const out = new Array<string>(count);
  const queue: Batch[] = [];
  const inWorkers: Promise<void>[] = [];
  const store = (b: Batch, res: string[]) => {
    for (let i = 0; i < res.length; i++) out[b.first + i] = res[i]!;
  };
  const here = (b: Batch) => store(b, b.texts.map(deflateJsonToBase64));
  const pump = () => {
    for (;;) {
      let target: PoolWorker | undefined;
      for (const x of pool) if (!x.dead && x.outstanding < PER_WORKER && (!target || x.outstanding < target.outstanding)) target = x;
      const b = target && queue.shift();
      if (!target || !b) return;
      inWorkers.push(send(target, b.texts, b.bytes).then(
        (res) => store(b, res),
        // -- a failed worker loses nothing: its batch is deflated here instead --
        () => here(b),
      ).finally(pump));
    }
  };
  let batch: Batch = { first: 0, texts: [], bytes: 0 };
  let n = 0;
  for (const json of asciiJsons) {
    batch.texts.push(json);
    batch.bytes += json.length;
    n++;
    if (batch.bytes >= BATCH_BYTES) {
      queue.push(batch);
      batch = { first: n, texts: [], bytes: 0 };
      pump();
      // -- let finished batches come back, so the workers get the next ones while texts are built --
      await nextTurn();
    }
  }
  if (batch.texts.length) queue.push(batch);
  pump();
  for (let b = queue.pop(); b; b = queue.pop()) {
    here(b);
    await nextTurn();
  }
  for (let i = 0; i < inWorkers.length; i++) await inWorkers[i];
  return out;
}

/** Stops the workers (tests and benches; they are unref'd, so this is optional). */
export async function shutdownDeflatePool(): Promise<void> {
  const ws = workers;
  workers = undefined;
  await Promise.all((ws ?? []).map((x) => x.w.terminate()));
}
