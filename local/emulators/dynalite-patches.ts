// The dynalite patches the DynamoDB emulator's thread applies (dynamodb.ts embeds each function's
// source in that thread's code, so each must be self-contained: no imports, no outer names):
// iterator closing, kept table records, coalesced reads, and an open-iterator count for tests.
// The expression parse templates are in dynalite-parse-templates.ts.
type LevelClass = abstract new (...args: never[]) => object;
export interface DynaliteLevel {
  AbstractLevel: LevelClass;
  AbstractIterator: LevelClass;
  AbstractKeyIterator: LevelClass;
  AbstractValueIterator: LevelClass;
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
export function closeDynaliteIterators(level: DynaliteLevel): void {
  // The common base of AbstractIterator, AbstractKeyIterator and AbstractValueIterator.
  const common = Object.getPrototypeOf(level.AbstractIterator.prototype);
  if (!common.return) {
    common.return = function () {
      return this.close();
    };
  }
}

type GetTable = (name: string, checkStatus: boolean | ((err: Error | null, table?: unknown) => void), cb?: (err: Error | null, table?: unknown) => void) => void;

/** The callback-style store of dynalite's table records (one per table: key schema, indexes, status). */
interface TableRecords {
  get(key: string, cb: (err: Error | null, value?: unknown) => void): void;
  put(key: string, value: unknown, cb: (err?: Error | null) => void): void;
  del(key: string, cb: (err?: Error | null) => void): void;
  batch(ops: { key: string }[], cb: (err?: Error | null) => void): void;
}

/**
 * dynalite reads the table's record from LevelDB (and decodes its JSON) once per item it reads or
 * writes: 101 LevelDB reads for a BatchGetItem of 100 keys. The records change only with
 * CreateTable/UpdateTable/DeleteTable, which write them through `put`, `del` or `batch`: so a record
 * read while no such write is under way is kept in memory until the next one starts (LevelDB may
 * serve a read issued after a write before that write lands, so a read overlapping a write is never
 * kept). A read through the table store gets its own copy, as a read from LevelDB would (the table
 * actions change the record they read before writing it back); the item actions, which ask
 * `getTable` for an active table and only read it, share the kept record, frozen (a copy per item
 * was ~14 µs: 1.4 ms of a BatchGetItem of 100 keys).
 */
export function cacheTableRecords(store: { tableDb: TableRecords; getTable: GetTable }): void {
  const tables = store.tableDb;
  const kept = new Map<string, unknown>();
  /** Changes at the start and at the end of every write. */
  let writes = 0;
  let writing = 0;
  const freeze = (v: unknown): unknown => {
    if (v && typeof v === 'object') for (const x of Object.values(Object.freeze(v))) freeze(x);
    return v;
  };
  const { get, put, del, batch } = tables;
  tables.get = function (key, cb) {
    if (kept.has(key)) return void queueMicrotask(() => cb(null, structuredClone(kept.get(key))));
    const at = writing === 0 ? writes : -1;
    get.call(this, key, (err, value) => {
      if (!err && value !== undefined && at === writes && writing === 0) kept.set(key, freeze(structuredClone(value)));
      cb(err, value);
    });
  };
  // getTable(name, cb) is the item actions' call (a table neither being created nor deleted);
  // getTable(name, false, cb) the table actions', which go through tables.get above
  const getTable = store.getTable;
  store.getTable = function (name, checkStatus, cb) {
    const record = typeof checkStatus === 'function' ? (kept.get(name) as { TableStatus?: string } | undefined) : undefined;
    if (record && (record.TableStatus === 'ACTIVE' || record.TableStatus === 'UPDATING')) {
      return void queueMicrotask(() => (checkStatus as (err: Error | null, table?: unknown) => void)(null, record));
    }
    return getTable.call(this, name, checkStatus, cb);
  };
  const writer = <A extends unknown[]>(write: (this: TableRecords, ...a: [...A, (err?: Error | null) => void]) => void) =>
    function (this: TableRecords, ...a: [...A, ((err?: Error | null) => void)?]) {
      writes++;
      writing++;
      kept.clear();
      const cb = typeof a[a.length - 1] === 'function' ? (a.pop() as (err?: Error | null) => void) : undefined;
      write.call(this, ...(a as unknown as A), (err?: Error | null) => {
        writes++;
        writing--;
        kept.clear();
        cb?.(err);
      });
    };
  tables.put = writer(put);
  tables.del = writer(del);
  tables.batch = writer(batch);
}

/** dynalite's LevelDB, with its callback-style get and its promise-style getMany. */
interface ItemReads {
  get(key: string, cb?: (err: Error | null, value?: unknown) => void): unknown;
  getMany(keys: string[]): Promise<unknown[]>;
}

/**
 * dynalite reads each item with its own LevelDB get (a BatchGetItem of 100 keys: 100 reads, each a
 * trip through libuv's thread pool and back, each answered in its own setImmediate). The gets
 * issued in one turn of the event loop are read with one getMany instead (LevelDB reads the keys
 * one after the other in one thread-pool job) and answered in order, each as its own get would be:
 * the value, or undefined when the key is absent. If the getMany fails (the database is closing),
 * each get is tried on its own, so its caller sees the error a get would give.
 */
export function coalesceReads(db: ItemReads, lifecycle: { trackOperation<T>(p: Promise<T>): Promise<T>; getState(): string } | undefined): void {
  const get = db.get;
  let waiting: [string, (err: Error | null, value?: unknown) => void][] | undefined;
  const flush = () => {
    const batch = waiting!;
    waiting = undefined;
    if (batch.length === 1 || lifecycle?.getState() === 'closed') return batch.forEach(([k, cb]) => get.call(db, k, cb));
    const read = db.getMany(batch.map(([k]) => k));
    (lifecycle ? lifecycle.trackOperation(read) : read).then(
      (values) => batch.forEach(([, cb], i) => cb(null, values[i])),
      () => batch.forEach(([k, cb]) => get.call(db, k, cb)),
    );
  };
  db.get = function (key, cb) {
    if (typeof cb !== 'function') return get.call(this, key);
    if (!waiting) {
      waiting = [];
      setImmediate(flush);
    }
    waiting.push([key, cb]);
  };
}

/**
 * Counts the iterators open on dynalite's databases, so a leak like the one above shows (asked for by
 * openDynaliteIterators; a Set insert and delete per iterator).
 */
export function countIterators(level: DynaliteLevel): { open: Set<object>; opened: () => number } {
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
