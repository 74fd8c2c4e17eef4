// Start-up mistakes of `npm start` (issue 31), each one line and a non-zero exit before anything starts:
// a second start on the same data directory names the running one's pid (it used to crash with
// "Database is closed" and hang), and a port in use names the port and the variable that changes it.
// `npm start` runs with the Node options the tests use (the local S3 emulator's paged listings need
// the legacy OpenSSL provider). `npm run keys` says where its key goes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';

const REPO = resolve(import.meta.dirname, '../..');
let svc: ServiceProcess;
let sesPort = 0;
before(async () => {
  // -- a free port for the SES emulator, fixed by configuration --
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  sesPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  svc = await startServiceProcess({ authMode: 'none', env: { LOCAL_PORT_SES: String(sesPort) } });
});
after(async () => svc?.stop());

function start(env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
    cwd: REPO,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

test('a second npm start on the same data directory says which process runs there and exits 1', () => {
  const r = start({ DATA_DIR: svc.dataDir, PORT: '0' });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stderr, new RegExp(`already running \\(pid ${svc.pid}\\) on ${svc.dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  assert.ok(svc.alive(), 'the first start keeps running');
});

test('a port in use is one line naming the port and PORT, exit 1', () => {
  const port = new URL(svc.url).port;
  const r = start({ DATA_DIR: mkdtempSync(join(tmpdir(), 'wps-port-')), PORT: port });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use: start with another, e\\.g\\. PORT=${Number(port) + 1} npm start`));
  assert.equal(r.stderr.trim().split('\n').filter((l) => l.startsWith('[wps]')).length, 1);
});

test('npm start runs with the Node options the tests use', () => {
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.match(pkg.scripts.start!, /--openssl-legacy-provider/);
  assert.match(readFileSync(join(REPO, 'test', 'run.mjs'), 'utf8'), /--openssl-legacy-provider/);
});

test('npm run keys says which service or data directory it writes to, without the AWS SDK notice', () => {
  const keys = (dataDir: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'bin/keys.ts', 'list', '--account', 'acme'], { cwd: REPO, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8', timeout: 60_000 });
  const running = keys(svc.dataDir);
  assert.equal(running.status, 0, running.stderr);
  assert.match(running.stderr, new RegExp(`keys: the service running on ${svc.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(pid ${svc.pid}`));
  assert.doesNotMatch(running.stderr, /NodeVersionSupportWarning|upgrade to node/);
  const fresh = keys(mkdtempSync(join(tmpdir(), 'wps-keys-none-')));
  assert.equal(fresh.status, 0, fresh.stderr);
  assert.match(fresh.stderr, /keys: no service data at DATA_DIR .*: the key is for a service started there/);
});

test("an emulator's port is fixed by LOCAL_PORT_<NAME>; the others stay free ports", () => {
  const endpoints = JSON.parse(readFileSync(join(svc.dataDir, 'endpoints.json'), 'utf8')) as Record<string, string>;
  assert.equal(endpoints.sesv2, `http://127.0.0.1:${sesPort}`);
  assert.notEqual(new URL(endpoints.s3!).port, String(sesPort));
});
