// The service as `npm start` runs it, in its own process (local/start.ts), for tests and tools that
// must see whether a request can kill it or how much memory it takes: the process's exit, its peak
// RSS (VmHWM) and its log stay observable from outside. Keys are created with the real CLI (bin/keys.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServiceProcess {
  url: string;
  pid: number;
  dataDir: string;
  /** True while the process has not exited. */
  alive(): boolean;
  /** Alive and answering /healthcheck with a 200. */
  healthy(): Promise<boolean>;
  /** How it ended, once it has. */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Everything it wrote to stderr so far (crash stacks, error logs). */
  stderr(): string;
  /** Peak resident set size in bytes (Linux VmHWM), or undefined where /proc is unavailable. */
  peakRssBytes(): number | undefined;
  /** A new API key for (account, user), made by `npm run keys -- create` against this service. */
  createKey(account: string, user: string): string;
  /** Runs `npm run keys` (bin/keys.ts) against this service's data; its standard output. */
  keys(...args: string[]): string;
  stop(): Promise<void>;
}

export async function startServiceProcess(
  opts: { authMode?: 'none' | 'keyed'; env?: Record<string, string>; startTimeoutMs?: number; /** Every line it writes to stdout (its JSON log, the request log). */ onStdoutLine?: (line: string) => void } = {},
): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wps-proc-'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    AUTH_MODE: opts.authMode ?? 'keyed',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    NODE_OPTIONS: [process.env.NODE_OPTIONS, '--openssl-legacy-provider'].filter(Boolean).join(' '),
    ...opts.env,
  };
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let partial = '';
  if (opts.onStdoutLine) {
    const onLine = opts.onStdoutLine;
    child.stdout!.on('data', (c: Buffer) => {
      const lines = (partial + c.toString('utf8')).split('\n');
      partial = lines.pop()!;
      for (const l of lines) onLine(l);
    });
  }
  let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  child.on('exit', (code, signal) => (ended = { code, signal }));
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString('utf8');
    if (err.length > 2_000_000) err = err.slice(-1_000_000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in time:\n${out}\n${err}`)), opts.startTimeoutMs ?? 120_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /\[wps\] ready\s+(http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
      // -- keep only the tail: the request log grows with every call --
      if (out.length > 100_000) out = out.slice(-10_000);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited (${code}) before it was ready:\n${out}\n${err}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    dataDir,
    alive: () => ended === undefined,
    healthy: async () => ended === undefined && (await fetch(`${url}/healthcheck`).then((r) => r.ok, () => false)),
    exit: () => ended,
    stderr: () => err,
    peakRssBytes: () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        return m ? Number(m[1]) * 1024 : undefined;
      } catch {
        return undefined;
      }
    },
    keys: (...args) => spawnSync(process.execPath, ['--import', 'tsx', 'bin/keys.ts', ...args], { cwd: REPO, env, encoding: 'utf8' }).stdout,
    createKey: (account, user) => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'bin/keys.ts', 'create', '--account', account, '--user', user], {
        cwd: REPO,
        env,
        encoding: 'utf8',
      });
      const m = /API key \(shown once, store it now\): (\S+)/.exec(r.stdout);
      if (!m) throw new Error(`key creation failed: ${r.stdout}\n${r.stderr}`);
      return m[1]!;
    },
    stop: async () => {
      if (ended === undefined) {
        const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await done;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
