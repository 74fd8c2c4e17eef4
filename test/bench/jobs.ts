// npm run bench:jobs — latency of a one-page on-demand job, create → COMPLETED, over HTTP against the
// local stack started here: N sequential jobs (launches at least LAUNCH_SPACING_MS apart, the
// service's rule), p50/p95 of the whole, and the time split by step from the job-step log lines (each
// handler logs when it starts and ends, with the job's id), so the overhead between steps — the
// state machine's hops and the emulator calls they make — is visible next to the steps themselves.
// The client waits on the job's end as a user's client would wait on its webhook: it reads the job
// (GET) as soon as the job's last step logged its end, and otherwise every POLL_MS (a backstop), so
// polling neither adds its interval nor loads the service while the job runs.
// Figures, not a test.
// Usage: npm run bench:jobs [-- --jobs N] [-- --file <corpus doc>] [-- --poll-ms M]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';

import { startServiceProcess } from '../support/service-process';
import { LAUNCH_SPACING_MS } from '../../lambdas/domain/job-gate';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const JOBS = Number(arg('--jobs', '20'));
const FILE = arg('--file', 'embedded-link.pdf');
const POLL_MS = Number(arg('--poll-ms', '250'));
const corpus = resolve(import.meta.dirname, '../../../shared/corpus/docs');

/** Job step log lines by job id (the service's stdout, LOG_LEVEL=debug for the "started" lines). */
interface Mark { at: number; kind: 'start' | 'end'; step: string }
const marks = new Map<string, Mark[]>();
/** Durations of the orchestrator and event-bus calls (by name), over all measured jobs. */
const calls = new Map<string, number[]>();
/** Wakes the client waiting on a job: its last step logged that it ended. */
const ended = new Map<string, () => void>();
const onLine = (l: string) => {
  if (!l.startsWith('{')) return;
  try {
    const e = JSON.parse(l) as { msg?: string; time?: string; job_id?: string; step?: string; eventType?: string; ms?: number };
    if (!e.job_id) return;
    // -- the calls inside the create request and the steps that leave the handler: SFN, EventBridge --
    const call = e.msg === 'job execution started' ? 'StartExecution' : e.msg === 'event published' ? `PutEvents ${e.eventType}` : undefined;
    if (call) {
      calls.set(call, [...(calls.get(call) ?? []), e.ms!]);
      return;
    }
    if (!e.step || (e.msg !== 'job step started' && e.msg !== 'job step done')) return;
    const list = marks.get(e.job_id) ?? [];
    list.push({ at: Date.parse(e.time!), kind: e.msg === 'job step started' ? 'start' : 'end', step: e.step });
    marks.set(e.job_id, list);
    if (e.msg === 'job step done' && (e.step === 'finishJob' || e.step === 'failJob')) ended.get(e.job_id)?.();
  } catch {
    /* not a log line */
  }
};
const say = (s: string) => console.log(s);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))]!;
const ms = (x: number) => `${x.toFixed(0).padStart(5)} ms`;

const service = await startServiceProcess({ authMode: 'none', env: { LOG_LEVEL: 'debug' }, onStdoutLine: onLine });
const doc = readFileSync(resolve(corpus, FILE));
const requestData = JSON.stringify({ job_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }] });

async function runJob(): Promise<{ id: string; t0: number; created: number; done: number; status: string }> {
  const form = new FormData();
  form.append('request_data', requestData);
  form.append('input_files', new Blob([doc], { type: 'application/pdf' }), FILE);
  const t0 = Date.now();
  const r = await fetch(`${service.url}/api/v1/jobs/`, { method: 'POST', body: form });
  if (r.status !== 200) throw new Error(`create: HTTP ${r.status} ${await r.text()}`);
  const { id } = (await r.json()) as { id: string };
  const created = Date.now();
  for (;;) {
    const s = (await (await fetch(`${service.url}/api/v1/jobs/${id}`)).json()) as { status: string };
    if (['COMPLETED', 'FAILED', 'STOPPED'].includes(s.status)) return { id, t0, created, done: Date.now(), status: s.status };
    // -- woken by the job's last step (its log line), or after POLL_MS: a tight poll would load the
    // -- service's single thread and slow the very job it waits for --
    await new Promise<void>((res) => {
      const timer = setTimeout(res, POLL_MS);
      ended.set(id, () => (clearTimeout(timer), res()));
    });
  }
}

try {
  say(`one-page job (${FILE}, partition fast), ${JOBS} sequential jobs ≥ ${LAUNCH_SPACING_MS} ms apart, status read when the last step ends (backstop poll ${POLL_MS} ms); load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  await runJob(); // warm-up: handler modules, the partition sandbox, the page workers
  await new Promise((res) => setTimeout(res, LAUNCH_SPACING_MS));
  const totals: number[] = [];
  const segments = new Map<string, number[]>();
  const add = (name: string, v: number) => {
    if (!segments.has(name)) segments.set(name, []);
    segments.get(name)!.push(v);
  };
  calls.clear();
  let lastLaunch = 0;
  for (let i = 0; i < JOBS; i++) {
    const wait = lastLaunch + LAUNCH_SPACING_MS + 5 - Date.now();
    if (wait > 0) await new Promise((res) => setTimeout(res, wait));
    const j = await runJob();
    lastLaunch = j.created; // -- the launch was recorded before the answer: 1 s from the answer is 1 s from the launch --
    if (j.status !== 'COMPLETED') throw new Error(`job ${j.id} ended ${j.status}`);
    totals.push(j.done - j.t0);
    // the timeline: create, then each step and the gap before it, then finish → observed
    add('create (POST /api/v1/jobs/)', j.created - j.t0);
    let prev = j.created;
    let prevName = 'created';
    for (const m of marks.get(j.id) ?? []) {
      if (m.kind === 'start') add(`  hop ${prevName} → ${m.step}`, m.at - prev);
      else add(`  step ${m.step}`, m.at - prev);
      prev = m.at;
      prevName = m.step;
    }
    add(`  ${prevName} done → COMPLETED seen by the client`, j.done - prev);
  }
  say(`create → COMPLETED: p50 ${pct(totals, 50).toFixed(0)} ms, p95 ${pct(totals, 95).toFixed(0)} ms, min ${Math.min(...totals)} ms, max ${Math.max(...totals)} ms (n=${totals.length})`);
  say('split (p50 / p95 per segment; log times have 1 ms resolution):');
  for (const [name, xs] of segments) say(`${name.padEnd(52)} ${ms(pct(xs, 50))} / ${ms(pct(xs, 95))}`);
  say('calls inside the create request and the steps (p50 / p95):');
  for (const [name, xs] of calls) say(`  ${name.padEnd(50)} ${ms(pct(xs, 50))} / ${ms(pct(xs, 95))}`);
  say(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  say(`service peak RSS ${((service.peakRssBytes() ?? 0) / 2 ** 20).toFixed(0)} MiB`);
} finally {
  await service.stop();
}
