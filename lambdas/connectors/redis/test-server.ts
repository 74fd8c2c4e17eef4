// A real Redis for tests and benchmarks: the Debian `redis-server` binary started on a free loopback
// port in a temporary directory (no persistence), stopped and removed afterwards. When the binary is
// absent (`apt-get install -y redis-server` installs it) `redisServerBinary()` says so and callers
// skip. Tests read back with the same official client the destination uses. TLS by default
// (--tls-port only, no plain port: the connector sends a password over TLS only) with the stand-ins'
// certificate (standInTls, trusted through CONNECTOR_CA_FILE); `tls: false` listens in clear text
// (for a server without a password). Not imported by any handler.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type RedisClientType } from 'redis';
import { standInTls } from '../records/stand-in';

export interface RedisTestServer {
  host: string;
  port: number;
  /** The certificate the server presents (undefined with `tls: false`): ssl on / rediss:// to reach it. */
  tls?: { key: string; cert: string; certFile: string };
  /** A connected client with admin rights (the default user), for setup and read-back. */
  admin: RedisClientType<Record<string, never>, Record<string, never>, Record<string, never>, 2>;
  stop(): Promise<void>;
}

/** The redis-server binary, or undefined with the reason (tests skip with it). */
export function redisServerBinary(): { path?: string; skip?: string } {
  const which = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = which.stdout.trim();
  return path ? { path } : { skip: 'redis-server is not installed (apt-get install -y redis-server): the redis tests skip' };
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Starts redis-server; `password` sets the default user's password (requirepass); `tls: false` serves clear text. */
export async function startRedisServer(opts: { password?: string; tls?: boolean } = {}): Promise<RedisTestServer> {
  const bin = redisServerBinary();
  if (!bin.path) throw new Error(bin.skip);
  const dir = mkdtempSync(join(tmpdir(), 'wps-redis-'));
  const port = await freePort();
  const tls = opts.tls === false ? undefined : standInTls();
  const args = ['--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'];
  if (tls) {
    const keyFile = join(dir, 'tls-key.pem');
    writeFileSync(keyFile, tls.key, { mode: 0o600 });
    args.push('--port', '0', '--tls-port', String(port), '--tls-cert-file', tls.certFile, '--tls-key-file', keyFile, '--tls-ca-cert-file', tls.certFile, '--tls-auth-clients', 'no');
  } else args.push('--port', String(port));
  if (opts.password) args.push('--requirepass', opts.password);
  const child: ChildProcess = spawn(bin.path, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  // Wait until it accepts connections, then connect the admin client once.
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`redis-server did not start: ${stderr || 'no connection within 10 s'}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const socket = tls ? { host: '127.0.0.1', port, reconnectStrategy: false as const, tls: true as const, ca: tls.cert } : { host: '127.0.0.1', port, reconnectStrategy: false as const };
  const admin = createClient({ socket, password: opts.password, RESP: 2 }) as unknown as RedisTestServer['admin'];
  admin.on('error', () => undefined);
  await admin.connect();
  return {
    host: '127.0.0.1',
    port,
    tls,
    admin,
    async stop() {
      await admin.close().catch(() => undefined);
      const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
