// Environment variables set for a while and put back as they were (unset where they were unset).

/** Sets `vars` in process.env; an undefined value unsets one. */
export function setEnv(vars: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

/** The variables `names` as they are now; `restore` puts them back (those named, or every one). */
export function savedEnv(names: readonly string[]) {
  const saved = Object.fromEntries(names.map((k) => [k, process.env[k]]));
  return {
    restore(...keys: string[]): void {
      setEnv(keys.length > 0 ? Object.fromEntries(Object.entries(saved).filter(([k]) => keys.includes(k))) : saved);
    },
  };
}

/** Runs `fn` with `vars` set (undefined: unset), then puts them back as they were. */
export async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T> | T): Promise<T> {
  const saved = savedEnv(Object.keys(vars));
  setEnv(vars);
  try {
    return await fn();
  } finally {
    saved.restore();
  }
}
