// DynamoDB emulator: dynalite (pure JS, LevelDB on disk). No transactions and no TTL: the store is
// designed around single-item conditional writes and filters expired items on read.
//
// dynalite runs on its own worker thread (a plain-JS eval worker: no file to load through tsx), not on
// the thread of the API and the other emulators: its request parsing, LevelDB calls and JSON work no
// longer queue behind the API's handlers (and theirs behind it), and its garbage stays in its own heap.
// A thread, not a child process: it ends with the process whatever the way out (Ctrl-C, a crash,
// SIGKILL), so no emulator is ever left running on its own. stop() closes dynalite's server and with
// it the LevelDB store (a later start on the same directory finds every item), then ends the thread.
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

type LevelClass = abstract new (...args: never[]) => object;
export interface DynaliteLevel {
  AbstractLevel: LevelClass;
  AbstractIterator: LevelClass;
  AbstractKeyIterator: LevelClass;
  AbstractValueIterator: LevelClass;
}

/** Where dynalite's own LevelDB binding loads abstract-level from (the copy whose iterators it opens). */
function dynaliteLevelPath(): string {
  const fromDynalite = createRequire(require.resolve('dynalite'));
  const fromLevel = createRequire(fromDynalite.resolve('level'));
  return createRequire(fromLevel.resolve('classic-level')).resolve('abstract-level');
}

/**
 * dynalite 4.0.0 tears its value/key streams down (at the end, or early when a query reaches its
 * Limit) by calling `iterator.return()` if it exists, but abstract-level 3 iterators only have
 * `close()`: so no iterator was ever closed, each stayed attached to the database with its LevelDB
 * snapshot, and under load the process grew by gigabytes. Giving the iterators that method lets
 * dynalite's own teardown close them (a runtime shim instead of a patched node_modules: no
 * postinstall step, and it stands aside once abstract-level defines `return` itself).
 * Applied in the thread that runs dynalite (the worker embeds this function's source).
 */
function closeDynaliteIterators(level: DynaliteLevel): void {
  // The common base of AbstractIterator, AbstractKeyIterator and AbstractValueIterator.
  const common = Object.getPrototypeOf(level.AbstractIterator.prototype);
  if (!common.return) {
    common.return = function () {
      return this.close();
    };
  }
}

/**
 * Counts the iterators open on dynalite's databases, so a leak like the one above shows (asked for by
 * openDynaliteIterators; a Set insert and delete per iterator).
 */
function countIterators(level: DynaliteLevel): { open: Set<object>; opened: () => number } {
  const proto = level.AbstractLevel.prototype as { attachResource(r: object): void; detachResource(r: object): void };
  const isIterator = (r: object) => r instanceof level.AbstractIterator || r instanceof level.AbstractKeyIterator || r instanceof level.AbstractValueIterator;
  const open = new Set<object>();
  let opened = 0;
  const { attachResource, detachResource } = proto;
  proto.attachResource = function (r) {
    if (isIterator(r)) {
      open.add(r);
      opened++;
    }
    return attachResource.call(this, r);
  };
  proto.detachResource = function (r) {
    open.delete(r);
    return detachResource.call(this, r);
  };
  return { open, opened: () => opened };
}

// -- the embedded functions are compiled TypeScript: under tsx they may call esbuild's __name helper --
const WORKER_SOURCE = `
const __name = (f) => f;
const { parentPort, workerData } = require('node:worker_threads');
const level = require(workerData.abstractLevel);
(${closeDynaliteIterators.toString()})(level);
const iterators = (${countIterators.toString()})(level);
const dynalite = require(workerData.dynalite);
const server = dynalite({ path: workerData.dataDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.once('error', (err) => parentPort.postMessage({ error: String((err && err.message) || err) }));
server.listen(workerData.port, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (m) => {
  if (m === 'iterators') parentPort.postMessage({ iterators: { open: iterators.open.size, opened: iterators.opened() } });
  if (m === 'stop') {
    // dynalite's close() stops the server, waits for its pending operations and closes LevelDB
    server.close((err) => {
      parentPort.postMessage({ stopped: true, error: err ? String(err.message || err) : undefined });
      parentPort.close();
    });
    server.closeAllConnections();
  }
});
`;

interface Reply { port?: number; error?: string; stopped?: boolean; iterators?: { open: number; opened: number } }

/** The dynalite threads of this process (for openDynaliteIterators). */
const running = new Set<Worker>();

/** The next message of the worker that passes `pick`; rejects when the worker dies first. */
function reply<T>(w: Worker, pick: (m: Reply) => T | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onMessage = (m: Reply) => {
      const v = pick(m);
      if (v === undefined) return;
      off();
      resolve(v);
    };
    const onError = (err: Error) => (off(), reject(err));
    const onExit = (code: number) => (off(), reject(new Error(`the dynalite thread exited (code ${code})`)));
    const off = () => {
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
    };
    w.on('message', onMessage);
    w.once('error', onError);
    w.once('exit', onExit);
  });
}

export async function startDynamo(opts: { port?: number; dataDir?: string }): Promise<{ endpoint: string; stop(): Promise<void> }> {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const w = new Worker(WORKER_SOURCE, {
    eval: true,
    execArgv: [],
    workerData: { dynalite: require.resolve('dynalite'), abstractLevel: dynaliteLevelPath(), dataDir: opts.dataDir, port: opts.port ?? 0 },
  });
  // a failure after start (none expected) is reported by the requests that then fail
  w.on('error', () => undefined);
  let port: number;
  try {
    port = await reply(w, (m) => {
      if (m.error !== undefined) throw new Error(`dynalite did not start: ${m.error}`);
      return m.port;
    });
  } catch (err) {
    await w.terminate();
    throw err;
  }
  running.add(w);
  let stopped: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () =>
      (stopped ??= (async () => {
        const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
        w.postMessage('stop');
        await reply(w, (m) => m.stopped).catch(() => undefined);
        running.delete(w);
        // the thread ends by itself once dynalite closed; terminate() only if something still holds it
        await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 5000).unref())]);
        await w.terminate();
      })()),
  };
}

/** Iterators open on, and opened so far by, the dynalite threads of this process. */
export async function openDynaliteIterators(): Promise<{ open: number; opened: number }> {
  const counts = await Promise.all([...running].map((w) => (w.postMessage('iterators'), reply(w, (m) => m.iterators))));
  return counts.reduce((a, c) => ({ open: a.open + c.open, opened: a.opened + c.opened }), { open: 0, opened: 0 });
}
