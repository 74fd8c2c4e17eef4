// npm run bench:fair — tenant A's latency alone and while tenant B floods the shared queues and pools
// (issue 28): a connection check, a one-page job (create → COMPLETED) and a 20-byte synchronous
// partition, p50/p95 of each. B's flood: connection checks to a TLS endpoint that never answers, slow
// synchronous partitions (long runs of letters) kept in flight, and jobs of slow documents. Keyed local
// stack in this process; B's per-minute check rate is raised so the flood is not simply refused.
// Figures, not a test.
// Usage: npm run bench:fair [-- --rounds N]
process.env.ACCOUNT_CHECKS_PER_MINUTE = '1000';
process.env.LOG_LEVEL ??= 'error';

import { createServer, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { eventually } from '../support/local-stack';
import { keyedStack, jobForm, launchJob, waitForJob, type Tenants } from '../security/helpers';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const ROUNDS = arg('--rounds', 5);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};

const t: Tenants = await keyedStack();
const held: Socket[] = [];
const hole = createServer((s) => void held.push(s));
await new Promise<void>((r) => hole.listen(0, '127.0.0.1', r));
const holePort = (hole.address() as { port: number }).port;

async function destination(as: Tenants['asA'], name: string, host: string): Promise<string> {
  const r = await t.stack.call('POST', '/api/v1/destinations/', { ...as, body: { name, type: 'elasticsearch', config: { hosts: [host], index_name: 'e', es_api_key: 'k' } } });
  if (r.status !== 200) throw new Error(`destination: ${r.status} ${r.text}`);
  return r.body.id;
}

async function check(as: Tenants['asA'], id: string): Promise<number> {
  const started = performance.now();
  await t.stack.call('POST', `/api/v1/destinations/${id}/connection-check`, as);
  await eventually(async () => ((await t.stack.call('GET', `/api/v1/destinations/${id}/connection-check`, as)).body.status !== 'SCHEDULED' ? true : undefined), 'check', 600_000);
  return performance.now() - started;
}

async function syncPartition(as: Tenants['asA'], text: string, name: string): Promise<number> {
  const started = performance.now();
  const form = new FormData();
  form.append('files', new Blob([text], { type: 'text/plain' }), name);
  const r = await t.stack.call('POST', '/general/v0/general', { ...as, raw: form });
  if (r.status !== 200) throw new Error(`partition: ${r.status} ${r.text.slice(0, 200)}`);
  return performance.now() - started;
}

async function job(as: Tenants['asA'], text: string): Promise<number> {
  const started = performance.now();
  const r = await launchJob(t.stack, as, jobForm({ job_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }] }, [{ name: 'a.txt', text }]));
  if (r.status !== 200) throw new Error(`job: ${r.status} ${r.text}`);
  await waitForJob(t.stack, as, r.body.id);
  return performance.now() - started;
}

const aDest = await destination(t.asA, 'a', 'https://127.0.0.1:1');
const PAGE = 'A one-page note. '.repeat(150);

async function measureA(label: string): Promise<void> {
  const checks: number[] = [];
  const jobs: number[] = [];
  const syncs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    checks.push(await check(t.asA, aDest));
    syncs.push(await syncPartition(t.asA, 'A 20-byte document.', 'a.txt'));
    jobs.push(await job(t.asA, PAGE));
  }
  const row = (what: string, xs: number[]) => `  ${label.padEnd(18)} ${what.padEnd(22)} p50 ${pct(xs, 50).toFixed(0).padStart(6)} ms   p95 ${pct(xs, 95).toFixed(0).padStart(6)} ms`;
  console.log(row('connection check', checks));
  console.log(row('sync partition 20 B', syncs));
  console.log(row('one-page job', jobs));
}

console.log(`bench:fair — tenant A alone, then under tenant B's flood (${ROUNDS} rounds each; load ${loadavg()[0]!.toFixed(2)})`);
await measureA('A alone');

// -- B's flood, kept up while A is measured --
let flooding = true;
const bDests = await Promise.all(Array.from({ length: 40 }, (_, i) => destination(t.asB, `b${i}`, `https://127.0.0.1:${holePort}`)));
const floods: Promise<unknown>[] = [];
floods.push((async () => {
  // -- refused asks (a 429, a reset connection) are part of the flood, not the bench's failure --
  // -- a round a quarter second apart: refused asks answer in a millisecond, and a loop without a pause
  // -- would spin this process (service and bench share it), measuring the bench, not the service --
  while (flooding) {
    await Promise.all(bDests.map((id) => t.stack.call('POST', `/api/v1/destinations/${id}/connection-check`, t.asB).catch(() => undefined)));
    await new Promise((r) => setTimeout(r, 250));
  }
})());
const SLOW = Array.from({ length: 150 }, () => 'abcdefghij'.repeat(100)).join('\n');
for (let w = 0; w < 4; w++) floods.push((async () => {
  while (flooding) await syncPartition(t.asB, SLOW, `b-${w}.txt`).catch(() => undefined);
})());
floods.push((async () => {
  while (flooding) await job(t.asB, SLOW).catch(() => undefined);
})());
await new Promise((r) => setTimeout(r, 3000));
await measureA("A under B's flood");
flooding = false;
held.forEach((s) => s.destroy());
hole.close();
await Promise.race([Promise.allSettled(floods), new Promise((r) => setTimeout(r, 30_000))]);
await t.stack.close();
process.exit(0);
