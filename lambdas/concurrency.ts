// Bounded concurrency over an iterable, shared by connector writers and domain clean-ups.

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
