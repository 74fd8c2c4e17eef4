// Start-up mistakes of `npm start`, each answered in one line before anything starts (issue 31): a
// second start on the same data directory (a lock file holding the running start's pid; a lock whose
// process is gone is taken over) and a port another program holds.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const lockFile = (dataDir: string) => join(dataDir, 'npm-start.pid');

/** True while a process of this id lives (one of another user's counts: signalling it is refused). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the data directory for this process, or names the live process that has it. */
export function claimDataDir(dataDir: string): { ok: true } | { ok: false; pid: number } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  for (let i = 0; i < 2; i++) {
    try {
      writeFileSync(lockFile(dataDir), String(process.pid), { flag: 'wx', mode: 0o600 });
      return { ok: true };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(lockFile(dataDir), 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) return { ok: false, pid };
      rmSync(lockFile(dataDir), { force: true }); // -- left by a start that was killed --
    }
  }
  return { ok: true };
}

export function releaseDataDir(dataDir: string): void {
  try {
    if (Number(readFileSync(lockFile(dataDir), 'utf8').trim()) === process.pid) rmSync(lockFile(dataDir), { force: true });
  } catch {
    /* already gone */
  }
}

/** True when nothing listens on host:port (port 0 always is). */
export function portFree(port: number, host: string): Promise<boolean> {
  if (!port) return Promise.resolve(true);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}
