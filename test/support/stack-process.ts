// The local service as `npm start` runs it, in a child process on a given data directory, so a test
// can kill it the hard way (SIGKILL: no shutdown, no cleanup) and start it again on the same data.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EmulatorCredentials } from '../../local/emulators/sigv4-guard';

const repoRoot = resolve(fileURLToPath(import.meta.url), '..', '..', '..');

export interface StackProcess {
  url: string;
  pid: number;
  /** Emulator endpoints (dynamodb, s3, ...) as the process wrote them to endpoints.json. */
  endpoints: Record<string, string>;
  /** The process's emulator credential (from endpoints.json): a direct client of the emulators signs with it. */
  credentials: EmulatorCredentials;
  call(method: string, path: string, body?: FormData | unknown): Promise<{ status: number; body: any; text: string }>;
  /** SIGKILL, as a crash would; resolves once the process is gone. */
  kill(): Promise<void>;
  /** Ctrl-C (SIGTERM): an orderly stop. */
  stop(): Promise<void>;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r()));

export async function startStackProcess(dataDir: string, env: Record<string, string> = {}, startTimeoutMs = 180_000): Promise<StackProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', ...env };
  delete childEnv.NODE_TEST_CONTEXT; // not a test runner subprocess
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], { cwd: repoRoot, env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4000); });
  const file = join(dataDir, 'endpoints.json');
  const until = Date.now() + startTimeoutMs;
  let info: Record<string, unknown> | undefined;
  while (!info) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the service process exited while starting: ${stderr}`);
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`the service process did not start in ${startTimeoutMs} ms: ${stderr}`);
    }
    try {
      // a file left by a killed predecessor names another pid: wait for this process's own
      const parsed = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : undefined;
      if (parsed?.pid === child.pid) info = parsed;
    } catch {
      /* being written */
    }
    if (!info) await new Promise((r) => setTimeout(r, 100));
  }
  const url = String(info.url);
  const { url: _u, pid: _p, credentials, ...endpoints } = info;
  return {
    url,
    pid: child.pid!,
    endpoints: endpoints as Record<string, string>,
    credentials: credentials as EmulatorCredentials,
    call: async (method, path, body) => {
      const init: RequestInit = { method };
      if (body instanceof FormData) init.body = body;
      else if (body !== undefined) {
        init.body = JSON.stringify(body);
        init.headers = { 'content-type': 'application/json' };
      }
      const res = await fetch(url + path, init);
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: parsed, text };
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}
