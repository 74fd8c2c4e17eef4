// Polling until a value turns up.

/** Calls `fn` every 100 ms until it gives a value; throws `timed out waiting for <what>` after `timeoutMs`. */
export async function eventually<T>(fn: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
