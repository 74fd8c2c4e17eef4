// npm run bench:soak — does `npm start` hold steady under load? Spawns `npm start` (local/start.ts,
// a fresh DATA_DIR, a free port) in its own process, runs N concurrent clients of mixed requests
// against it (list connectors/jobs/notifications/templates, unread count, create/get/delete a
// connector, partition a small text, create a small job) and samples the RSS of the service's
// process tree. Prints RSS at start, after the first minute, peak and end, the live heap after a
// forced GC, request counts by status and latencies, and PASS/FAIL against "end within 20% of the
// level after the first minute". Figures, not a test.
// Usage: npm run bench:soak [-- --clients 50 --seconds 600]   (or SOAK_CLIENTS, SOAK_SECONDS)
//        SOAK_URL=http://127.0.0.1:8000 SOAK_PID=<pid> npm run bench:soak   (a service already running)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const arg = (name: string, env: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return Number(i > 0 ? process.argv[i + 1] : (process.env[env] ?? dflt));
};
const CLIENTS = arg('--clients', 'SOAK_CLIENTS', 50);
const SECONDS = arg('--seconds', 'SOAK_SECONDS', 600);
const FIRST_MINUTE_S = Math.min(60, SECONDS / 2);
const SAMPLE_MS = 2000;
const repoRoot = resolve(import.meta.dirname, '../..');
const MB = 1024 * 1024;
const mb = (b: number) => `${(b / MB).toFixed(0)} MB`;

// ---- the service under test ----
let child: ChildProcess | undefined;
let dataDir: string | undefined;
let base = process.env.SOAK_URL?.replace(/\/+$/, '');
let pid = Number(process.env.SOAK_PID ?? 0);

async function startService(): Promise<void> {
  dataDir = mkdtempSync(join(tmpdir(), 'wps-soak-'));
  child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--import', resolve(import.meta.dirname, 'soak-probe.ts'), resolve(repoRoot, 'local/start.ts')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        NODE_OPTIONS: [process.env.NODE_OPTIONS, '--openssl-legacy-provider'].filter(Boolean).join(' '),
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  pid = child.pid!;
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  base = await new Promise<string>((ok, fail) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /ready\s+(http:\/\/\S+)/.exec(out);
      if (m) {
        child!.stdout!.off('data', onData);
        child!.stdout!.resume(); // one log line per request from here on: drained, not kept
        ok(m[1]!);
      }
    };
    child!.stdout!.on('data', onData);
    child!.once('exit', (code) => fail(new Error(`npm start exited (${code}) before it was ready:\n${out}\n${stderr}`)));
  });
}

async function stopService(): Promise<void> {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

/** pid and all its descendants (the emulators may run in child processes). */
function processTree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // stat: "pid (comm) state ppid ...": comm may hold spaces, so split after its closing paren.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* exited meanwhile */
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(parents.get(out[i]!) ?? []));
  return out;
}

function treeRss(): number {
  let total = 0;
  for (const p of processTree(pid)) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) total += Number(m[1]) * 1024;
    } catch {
      /* exited meanwhile */
    }
  }
  return total;
}

/** The service's live heap after a forced GC (only when this bench spawned it, through the probe). */
async function liveHeap(): Promise<number | undefined> {
  if (!child?.connected) return undefined;
  return new Promise((ok) => {
    const timer = setTimeout(() => ok(undefined), 30_000);
    child!.once('message', (m: { memory?: NodeJS.MemoryUsage }) => {
      clearTimeout(timer);
      ok(m.memory?.heapUsed);
    });
    child!.send('memory');
  });
}

// ---- the load ----
const statuses = new Map<string, number>();
const latencies = new Map<string, number[]>();
const doc = readFileSync(resolve(repoRoot, '../shared/corpus/docs/fake-text.txt'));

async function call(op: string, method: string, path: string, body?: RequestInit['body'], headers?: Record<string, string>): Promise<any> {
  const t0 = performance.now();
  let key = `${op} ERR`;
  try {
    const res = await fetch(base + path, { method, body, headers, signal: AbortSignal.timeout(60_000) });
    const text = await res.text();
    key = `${op} ${res.status}`;
    return res.ok && text ? JSON.parse(text) : undefined;
  } catch (err) {
    key = `${op} ${(err as Error).name}`;
    return undefined;
  } finally {
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
    const ms = performance.now() - t0;
    const xs = latencies.get(op) ?? [];
    if (xs.length < 200_000) xs.push(ms);
    latencies.set(op, xs);
  }
}

const json = { 'content-type': 'application/json' };
const OPS: [weight: number, name: string, run: (client: number) => Promise<void>][] = [
  [3, 'list sources', async () => void (await call('list sources', 'GET', '/api/v1/sources/'))],
  [2, 'list destinations', async () => void (await call('list destinations', 'GET', '/api/v1/destinations/'))],
  [3, 'list jobs', async () => void (await call('list jobs', 'GET', '/api/v1/jobs/'))],
  [3, 'list notifications', async () => void (await call('list notifications', 'GET', '/api/v1/notifications?limit=20'))],
  [2, 'unread count', async () => void (await call('unread count', 'GET', '/api/v1/notifications/unread-count'))],
  [1, 'list templates', async () => void (await call('list templates', 'GET', '/api/v1/templates/'))],
  [2, 'connector create/get/delete', async (c) => {
    const created = await call('create source', 'POST', '/api/v1/sources/', JSON.stringify({ name: `soak-${c}-${Date.now()}`, type: 'local', config: { remote_url: '/tmp/wps-soak-none' } }), json);
    if (!created?.id) return;
    await call('get source', 'GET', `/api/v1/sources/${created.id}`);
    await call('delete source', 'DELETE', `/api/v1/sources/${created.id}`);
  }],
  [3, 'partition', async () => {
    const form = new FormData();
    form.append('files', new Blob([doc], { type: 'text/plain' }), 'fake-text.txt');
    await call('partition', 'POST', '/general/v0/general', form);
  }],
  [1, 'create job', async () => {
    const form = new FormData();
    form.append('request_data', JSON.stringify({ template_id: 'fast_partition' }));
    form.append('input_files', new Blob([doc], { type: 'text/plain' }), 'fake-text.txt');
    await call('create job', 'POST', '/api/v1/jobs/', form); // mostly 429: one launch per second per account
  }],
];
const totalWeight = OPS.reduce((s, [w]) => s + w, 0);
function pick() {
  let r = Math.random() * totalWeight;
  for (const op of OPS) if ((r -= op[0]) < 0) return op;
  return OPS[0]!;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
};

// ---- run ----
let stopped = false;
const onSignal = () => {
  stopped = true;
  void stopService().then(() => process.exit(130));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

try {
  if (!base) await startService();
  if (!pid) throw new Error('SOAK_URL needs SOAK_PID (the pid of the npm start process, in .data/endpoints.json)');
  console.log(`soak: ${CLIENTS} clients for ${SECONDS} s against ${base} (pid ${pid}); ${availableParallelism()} cores`);
  // One of each request first, so lazily loaded handlers count in the start level, not as growth.
  for (const [, , run] of OPS) await run(0);
  const start = { rss: treeRss(), heap: await liveHeap() };
  console.log(`start            RSS ${mb(start.rss)}${start.heap ? `, live heap ${mb(start.heap)}` : ''}`);

  const t0 = Date.now();
  const until = t0 + SECONDS * 1000;
  let peak = start.rss;
  let firstMinute: { rss: number; heap?: number } | undefined;
  let lastRss = start.rss;
  let lastPrint = t0;
  const sampler = setInterval(() => {
    lastRss = treeRss();
    peak = Math.max(peak, lastRss);
    if (Date.now() - lastPrint >= 30_000) {
      lastPrint = Date.now();
      const done = [...statuses.values()].reduce((a, b) => a + b, 0);
      console.log(`  t=${String(Math.round((Date.now() - t0) / 1000)).padStart(4)} s  RSS ${mb(lastRss)}  peak ${mb(peak)}  requests ${done}`);
    }
  }, SAMPLE_MS);
  const firstMinuteTimer = setTimeout(async () => {
    firstMinute = { rss: treeRss() };
    firstMinute.heap = await liveHeap();
    console.log(`${`after ${FIRST_MINUTE_S} s`.padEnd(17)}RSS ${mb(firstMinute.rss)}${firstMinute.heap ? `, live heap ${mb(firstMinute.heap)}` : ''}`);
  }, FIRST_MINUTE_S * 1000);

  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      while (!stopped && Date.now() < until) await pick()[2](c);
    }),
  );
  const end = { rss: treeRss(), heap: undefined as number | undefined };
  clearInterval(sampler);
  clearTimeout(firstMinuteTimer);
  peak = Math.max(peak, end.rss);
  end.heap = await liveHeap();
  const idle = treeRss();

  console.log(`end              RSS ${mb(end.rss)}${end.heap ? `, live heap ${mb(end.heap)}` : ''} (RSS after that GC, idle: ${mb(idle)})`);
  console.log(`peak             RSS ${mb(peak)}`);
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  console.log(`requests         ${total} in ${SECONDS} s (${(total / SECONDS).toFixed(1)}/s)`);
  for (const [k, n] of [...statuses.entries()].sort()) console.log(`  ${k.padEnd(34)}${String(n).padStart(8)}`);
  console.log('latency (ms)     p50 / p95');
  for (const [op, xs] of [...latencies.entries()].sort()) console.log(`  ${op.padEnd(34)}${pct(xs, 50).toFixed(0).padStart(6)} / ${pct(xs, 95).toFixed(0)}`);
  const serverErrors = [...statuses.entries()].filter(([k]) => / (5\d\d|ERR|\w*Error)$/.test(k)).reduce((s, [, n]) => s + n, 0);
  const ref = firstMinute?.rss ?? start.rss;
  const ratio = end.rss / ref;
  const pass = ratio <= 1.2;
  console.log(`${pass ? 'PASS' : 'FAIL'}: end RSS ${mb(end.rss)} is ${(ratio * 100).toFixed(0)}% of the level after ${FIRST_MINUTE_S} s (${mb(ref)}); target ≤ 120%${serverErrors ? `; ${serverErrors} server errors/failed requests` : ''}`);
  process.exitCode = pass ? 0 : 1;
} finally {
  await stopService();
}
