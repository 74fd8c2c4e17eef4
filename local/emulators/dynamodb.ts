// DynamoDB emulator: dynalite (pure JS, LevelDB on disk). No transactions and no TTL: the store is
// designed around single-item conditional writes and filters expired items on read.
//
// dynalite runs on its own worker thread (a plain-JS eval worker: no file to load through tsx), not on
// the thread of the API and the other emulators: its request parsing, LevelDB calls and JSON work no
// longer queue behind the API's handlers (and theirs behind it), and its garbage stays in its own heap.
// A thread, not a child process: it ends with the process whatever the way out (Ctrl-C, a crash,
// SIGKILL), so no emulator is ever left running on its own. stop() closes dynalite's server and with
// it the LevelDB store (a later start on the same directory finds every item), then ends the thread.
// With `credentials` (the local stack passes its per-start one) the thread answers only requests
// SigV4-signed with it, checked before dynalite reads them (sigv4-guard.ts).
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { cacheParsesByShape } from './dynalite-parse-templates';
import { cacheTableRecords, closeDynaliteIterators, coalesceReads, countIterators } from './dynalite-patches';
import { guardHttpServer, sigV4, type EmulatorCredentials } from './sigv4-guard';

const require = createRequire(import.meta.url);

/** Where dynalite's own LevelDB binding loads abstract-level from (the copy whose iterators it opens). */
function dynaliteLevelPath(fromDynalite: NodeJS.Require): string {
  const fromLevel = createRequire(fromDynalite.resolve('level'));
  return createRequire(fromLevel.resolve('classic-level')).resolve('abstract-level');
}

/** Old-generation size the dynalite thread starts with (see startDynamo). */
const DYNALITE_INITIAL_OLD_SPACE_MB = 128;

// -- the embedded functions are compiled TypeScript: under tsx they may call esbuild's __name helper --
const WORKER_SOURCE = `
const __name = (f) => f;
const { parentPort, workerData } = require('node:worker_threads');
const level = require(workerData.abstractLevel);
(${closeDynaliteIterators.toString()})(level);
const iterators = (${countIterators.toString()})(level);
const dynalite = require(workerData.dynalite);
const dynaliteDb = require(workerData.dynaliteDb);
const cacheParsesByShape = ${cacheParsesByShape.toString()};
cacheParsesByShape(require(workerData.updateParser));
cacheParsesByShape(require(workerData.projectionParser));
cacheParsesByShape(require(workerData.conditionParser), { parseAsIs: /between|attribute_type/i });
const createStore = dynaliteDb.create;
dynaliteDb.create = (options) => {
  const store = createStore(options);
  (${cacheTableRecords.toString()})(store);
  (${coalesceReads.toString()})(store.db, store.lifecycleManager);
  return store;
};
const server = dynalite({ path: workerData.dataDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
// the per-start credential's check, on this thread, before dynalite reads a request (sigv4-guard.ts)
if (workerData.credentials) (${guardHttpServer.toString()})(server, (${sigV4.toString()})(workerData.credentials, require('node:crypto')).verify, 'dynamodb');
server.once('error', (err) => parentPort.postMessage({ error: String((err && err.message) || err) }));
server.listen(workerData.port, '127.0.0.1', () => {
  // once started, as the process guard of npm start on the main thread: one failed request, not the emulator
  process.on('uncaughtException', (err) => console.error(JSON.stringify({ level: 'error', msg: 'uncaught exception in the dynalite thread (it keeps running)', error: String((err && err.stack) || err) })));
  parentPort.postMessage({ port: server.address().port });
});
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
      let v: T | undefined;
      try {
        v = pick(m);
      } catch (err) {
        off();
        return reject(err);
      }
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

export async function startDynamo(opts: { port?: number; dataDir?: string; /** Refuse every request not SigV4-signed with this credential. */ credentials?: EmulatorCredentials }): Promise<{ endpoint: string; stop(): Promise<void> }> {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const fromDynalite = createRequire(require.resolve('dynalite'));
  // The thread's old generation starts at 128 MB instead of V8's small default: dynalite promotes
  // ~10 MB a second under load, and with a ~20 MB limit it ran a full collection (5-10 ms pause, every
  // request in it waiting) about every second (bench:notifications at 1,000, ~40 s: 24 → 2 full
  // collections of that thread, mark-read p95 23-37 → 17-25 ms). V8 reads the flag when a
  // thread's heap is made: it applies to the threads started after this one, not to the main thread.
  setFlagsFromString(`--initial-old-space-size=${DYNALITE_INITIAL_OLD_SPACE_MB}`);
  const w = new Worker(WORKER_SOURCE, {
    eval: true,
    execArgv: [],
    workerData: { dynalite: require.resolve('dynalite'), dynaliteDb: fromDynalite.resolve('./db'), updateParser: fromDynalite.resolve('./db/updateParser'), projectionParser: fromDynalite.resolve('./db/projectionParser'), conditionParser: fromDynalite.resolve('./db/conditionParser'), abstractLevel: dynaliteLevelPath(fromDynalite), dataDir: opts.dataDir, port: opts.port ?? 0, credentials: opts.credentials },
  });
  // a failure after start (none expected): said loudly; the DynamoDB calls then fail with it
  w.on('error', (err) => console.error(JSON.stringify({ level: 'error', msg: 'the dynalite thread stopped: DynamoDB calls fail until a restart', error: err.stack ?? String(err) })));
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
