// Bounded concurrency over an iterable, shared by connector writers, the engine's provider runners
// (embedding batches, enrichment and contextual-chunking calls) and domain clean-ups.

/** Runs fn over items with at most `concurrency` at once; the first error stops new starts and is thrown. */
export async function forEachLimited<T>(items: Iterable<T>, concurrency: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  const it = items[Symbol.iterator]();
  let index = 0;
  let failed: unknown;
  const worker = async () => {
    for (;;) {
      if (failed !== undefined) return;
      const next = it.next();
      if (next.done) return;
      const i = index++;
      try {
        await fn(next.value, i);
      } catch (err) {
        failed ??= err;
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  if (failed !== undefined) throw failed;
}

/** Maps items through fn with at most `concurrency` at once, results in the items' order; errors as forEachLimited. */
export async function mapLimited<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  await forEachLimited(items, concurrency, async (item, i) => {
    out[i] = await fn(item, i);
  });
  return out;
}

/**
 * Fair dispatch between tenants: tasks wait in one FIFO per key (an account), and a free slot goes to
 * the next key in turn, so a key with a thousand tasks queued delays another key's first task by at
 * most one task, never by the thousand. At most `concurrency` tasks run at once, and at most
 * `perKey` of one key. With `burst`, a key that waits while every running slot belongs to other keys
 * gets one slot beyond `concurrency` (a long task of one tenant never makes another wait for it).
 */
export class FairQueue<K> {
  private readonly waiting = new Map<K, (() => void)[]>();
  private readonly running = new Map<K, number>();
  private active = 0;

  constructor(private readonly opts: { concurrency: number; perKey?: number; burst?: boolean }) {}

  /** Runs fn when its key's turn comes; resolves or rejects as fn does. */
  run<T>(key: K, fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.active += 1;
        this.running.set(key, (this.running.get(key) ?? 0) + 1);
        const done = () => {
          this.active -= 1;
          const n = (this.running.get(key) ?? 1) - 1;
          if (n) this.running.set(key, n);
          else this.running.delete(key);
          this.pump();
        };
        let p: Promise<T>;
        try {
          p = fn();
        } catch (err) {
          p = Promise.reject(err);
        }
        p.then(
          (v) => { done(); resolve(v); },
          (e) => { done(); reject(e); },
        );
      };
      const list = this.waiting.get(key);
      if (list) list.push(start);
      else this.waiting.set(key, [start]);
      this.pump();
    });
  }

  /** Tasks waiting (not yet started), all keys or one. */
  queued(key?: K): number {
    if (key !== undefined) return this.waiting.get(key)?.length ?? 0;
    let n = 0;
    for (const l of this.waiting.values()) n += l.length;
    return n;
  }

  /** Tasks running now. */
  get runningCount(): number {
    return this.active;
  }

  private eligible(key: K): boolean {
    const mine = this.running.get(key) ?? 0;
    if (this.opts.perKey !== undefined && mine >= this.opts.perKey) return false;
    if (this.active < this.opts.concurrency) return true;
    // -- the burst slot: every running task is another key's, and only one burst at a time --
    return Boolean(this.opts.burst) && mine === 0 && this.active === this.opts.concurrency;
  }

  private pump(): void {
    for (;;) {
      let started = false;
      // -- a Map iterates in insertion order: the key served is moved to the end (round-robin) --
      for (const [key, list] of this.waiting) {
        if (!this.eligible(key)) continue;
        const next = list.shift()!;
        this.waiting.delete(key);
        if (list.length) this.waiting.set(key, list);
        next();
        started = true;
        break;
      }
      if (!started) return;
    }
  }
}
