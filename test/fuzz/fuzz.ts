// `npm run fuzz`: malformed requests across every route of lambdas/routes.ts and hostile documents
// (to /general/v0/general and as jobs) against the service in keyed mode, each with a 30 s limit.
// Prints the counts by status, every 5xx with its route and input, the hangs, the service's peak
// RSS and a final healthcheck; exits 1 when there is a 5xx, a hang or an unhealthy service.
//
//   npm run fuzz                                  # starts `npm start` in keyed mode on a free port
//   npm run fuzz -- --seed 7 --concurrency 2
//   npm run fuzz -- --url http://127.0.0.1:8000 --key <api key> [--pid <service pid>]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateCases, type FuzzCase, type FuzzIds } from './cases';
import { hostileDocuments } from '../support/hostile-docs';
import { rawRequest } from '../support/raw-http';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';

const TIMEOUT_MS = 30_000;
const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    key: { type: 'string' },
    pid: { type: 'string' },
    seed: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '4' },
  },
});

type Outcome = { status: number | 'hang' | 'no answer' | 'client error'; ms: number; note?: string };

let svc: ServiceProcess | undefined;
let url = args.url?.replace(/\/+$/, '');
let key = args.key ?? '';
if (!url) {
  console.log('starting the service (npm start, AUTH_MODE=keyed) ...');
  svc = await startServiceProcess({ authMode: 'keyed', env: { LOG_LEVEL: 'error' } });
  url = svc.url;
  key = svc.createKey('fuzz', 'fuzzer');
}
const base = url;
const peakRss = (): number | undefined => {
  if (svc) return svc.peakRssBytes();
  if (!args.pid) return undefined;
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${args.pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : undefined;
};

async function send(c: FuzzCase & { form?: FormData }): Promise<Outcome> {
  const started = Date.now();
  if (c.raw !== undefined) {
    // -- a request that asks to close is answered and closed by the server; any other is half-closed
    // -- after writing ("that is all"), so a body cut short ends as the client leaving --
    const r = await rawRequest(base, c.raw, TIMEOUT_MS, { endAfterWrite: !/\r\nConnection: close\r\n/i.test(c.raw) }).catch((err: Error) => ({ status: undefined, timedOut: false, head: err.message, body: '' }));
    const ms = Date.now() - started;
    if (r.timedOut) return { status: 'hang', ms };
    return r.status === undefined ? { status: 'no answer', ms, note: r.head.slice(0, 80) } : { status: r.status, ms, note: r.body.slice(0, 160) };
  }
  try {
    const body = (c.form ?? c.body) as RequestInit['body'];
    const res = await fetch(base + c.path, { method: c.method, headers: c.headers, body, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' });
    const text = await res.text();
    return { status: res.status, ms: Date.now() - started, note: text.slice(0, 160) };
  } catch (err) {
    const e = err as Error;
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return { status: 'hang', ms: Date.now() - started };
    return { status: 'client error', ms: Date.now() - started, note: `${e.message} ${String((e as { cause?: Error }).cause?.message ?? '')}`.slice(0, 120) };
  }
}

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method,
    headers: { 'unstructured-api-key': key, ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

function fileForm(requestData: unknown, filename: string, data: Uint8Array, contentType = 'text/plain'): FormData {
  const form = new FormData();
  form.append('request_data', JSON.stringify(requestData));
  form.append('input_files', new Blob([data], { type: contentType }), filename);
  return form;
}

// ---- real resources, so that valid ids reach the deeper checks ----------------------------------
// In keyed mode a local connector's paths are relative to the account's own folder
// (<DATA_DIR>/connector-files/<account>): the fuzzer's account is `fuzz`. Against a running service
// (--url) the folder cannot be written from here and simply holds nothing.
const dir = 'fuzz-files';
if (svc) {
  const abs = join(svc.dataDir, 'connector-files', 'fuzz', dir);
  mkdirSync(abs, { recursive: true });
  writeFileSync(join(abs, 'note.txt'), 'A note for the fuzzer.');
}
const source = await call('POST', '/api/v1/sources/', { name: 'fuzz-src', type: 'local', config: { remote_url: dir } });
const destination = await call('POST', '/api/v1/destinations/', { name: 'fuzz-dst', type: 'local', config: { remote_url: dir } });
const workflow = await call('POST', '/api/v1/workflows/', { name: 'fuzz-wf', workflow_type: 'basic', source_id: source.body.id, destination_id: destination.body.id });
const job = await call('POST', '/api/v1/jobs/', fileForm({ template_id: 'fast_partition' }, 'note.txt', Buffer.from('Fuzz input.')));
const channel = await call('POST', '/api/v1/notifications/channels', { channel_type: 'webhook', url: 'https://hooks.example.com/fuzz', event_types: ['job.failed'], enabled: false });
const upload = await call('POST', '/api/v1/uploads/', { filename: 'fuzz.pdf', content_type: 'application/pdf', size: 1000 });
for (const [what, r] of Object.entries({ source, destination, workflow, job, channel, upload })) {
  if (r.status >= 300) throw new Error(`setup: ${what} → ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
}
const ids: FuzzIds = {
  source_id: source.body.id,
  destination_id: destination.body.id,
  workflow_id: workflow.body.id,
  job_id: job.body.id,
  channel_id: channel.body.id,
  notification_id: '0190a000-0000-7000-8000-000000000000',
  template_id: 'fast_partition',
  file_id: job.body.input_file_ids[0],
  upload_id: upload.body.id,
};

// ---- malformed requests ---------------------------------------------------------------------------
const seed = Number(args.seed);
const cases = generateCases(ids, key, dir, seed);
const byStatus = new Map<string, number>();
const serverErrors: string[] = [];
const hangs: string[] = [];
const noAnswer: string[] = [];
const count = (s: Outcome['status']) => byStatus.set(String(s), (byStatus.get(String(s)) ?? 0) + 1);
const describe = (c: FuzzCase) => `${c.route} · ${c.what} · ${c.method} ${c.path.slice(0, 90)}`;
const routes = new Set(cases.map((c) => c.route));
console.log(`seed ${seed}: ${cases.length} malformed requests over ${routes.size - 1} routes + raw requests, concurrency ${args.concurrency}, ${TIMEOUT_MS / 1000} s limit each`);
const started = Date.now();
let next = 0;
await Promise.all(
  Array.from({ length: Number(args.concurrency) }, async () => {
    while (next < cases.length) {
      const c = cases[next++]!;
      const o = await send(c);
      count(o.status);
      if (typeof o.status === 'number' && o.status >= 500) serverErrors.push(`${o.status} ${describe(c)} → ${o.note ?? ''}`);
      if (o.status === 'hang') hangs.push(describe(c));
      if (o.status === 'no answer' || o.status === 'client error') noAnswer.push(`${o.status} ${describe(c)} ${o.note ?? ''}`);
    }
  }),
);
const rssAfterRequests = peakRss();
console.log(`malformed requests done in ${((Date.now() - started) / 1000).toFixed(1)} s; peak RSS so far ${rssAfterRequests ? `${Math.round(rssAfterRequests / 1024 / 1024)} MB` : 'n/a'}`);

// ---- hostile documents: the synchronous endpoint, then as jobs -----------------------------------
const docs = await hostileDocuments();
console.log(`\n${docs.length} hostile documents`);
const docRows: [string, string][] = [];
const jobIds: [string, string][] = [];
for (const doc of docs) {
  const form = new FormData();
  form.append('files', new Blob([doc.data], { type: doc.contentType }), doc.filename);
  form.append('strategy', 'auto');
  const o = await send({ route: 'partition', what: doc.name, method: 'POST', path: '/general/v0/general', headers: { 'unstructured-api-key': key }, form });
  count(o.status);
  if (typeof o.status === 'number' && o.status >= 500) serverErrors.push(`${o.status} partition · ${doc.name} → ${o.note ?? ''}`);
  if (o.status === 'hang') hangs.push(`partition · ${doc.name}`);
  // -- launch spacing: one on-demand job per second per account --
  await new Promise((r) => setTimeout(r, 1100));
  const j = await call('POST', '/api/v1/jobs/', fileForm({ job_nodes: [{ name: 'P', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'auto' } }] }, doc.filename, doc.data, doc.contentType)).catch(
    (err: Error) =>
      ({ status: err.name === 'TimeoutError' ? 'hang' : 'client error', body: `${err.message} ${String((err as { cause?: Error }).cause?.message ?? '')}` }) as { status: number | string; body: any },
  );
  if (j.status === 'client error') noAnswer.push(`client error create_job · ${doc.name} ${j.body}`);
  count(j.status as Outcome['status']);
  if (typeof j.status === 'number' && j.status >= 500) serverErrors.push(`${j.status} create_job · ${doc.name} → ${JSON.stringify(j.body).slice(0, 160)}`);
  if (j.status === 'hang') hangs.push(`create_job · ${doc.name}`);
  if (j.status === 200) jobIds.push([doc.name, j.body.id]);
  docRows.push([doc.name, `  ${doc.name.padEnd(52)} partition ${String(o.status).padEnd(4)} ${String(o.ms).padStart(6)} ms   job ${j.status}`]);
}
// -- every job to an end state (bounded), its reads never a 5xx --
const until = Date.now() + 240_000;
const finals = new Map<string, string>();
while (Date.now() < until && finals.size < jobIds.length) {
  for (const [name, id] of jobIds) {
    if (finals.has(name)) continue;
    const r = await call('GET', `/api/v1/jobs/${id}`);
    if (r.status >= 500) serverErrors.push(`${r.status} get_job · ${name}`);
    if (['COMPLETED', 'FAILED', 'STOPPED'].includes(r.body?.status)) {
      const failed = await call('GET', `/api/v1/jobs/${id}/failed-files`);
      finals.set(name, `${r.body.status}${failed.body?.failed_files?.length ? `: ${String(failed.body.failed_files[0].error).slice(0, 70)}` : ''}`);
    }
  }
  if (finals.size < jobIds.length) await new Promise((r) => setTimeout(r, 2000));
}
// -- by the document's name itself: a name longer than the column is not split back out of its row --
for (const [name, row] of docRows) console.log(`${row} → ${finals.get(name) ?? 'not finished in 240 s'}`);

// ---- report ----------------------------------------------------------------------------------------
const health = await fetch(`${base}/healthcheck`, { signal: AbortSignal.timeout(TIMEOUT_MS) }).then((r) => r.status, (e: Error) => e.message);
const rss = peakRss();
const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
console.log(`\nrequests: ${total} (${cases.length} malformed, ${docs.length * 2} hostile-document calls)`);
console.log('by status:', [...byStatus.entries()].sort().map(([s, n]) => `${s}: ${n}`).join(', '));
console.log(`5xx: ${serverErrors.length}`);
for (const e of serverErrors) console.log(`  ${e}`);
console.log(`hangs over ${TIMEOUT_MS / 1000} s: ${hangs.length}`);
for (const h of hangs) console.log(`  ${h}`);
console.log(`closed without an answer / refused by the client: ${noAnswer.length}`);
for (const n of noAnswer) console.log(`  ${n}`);
console.log(`peak RSS of the service: ${rss ? `${Math.round(rss / 1024 / 1024)} MB` : 'n/a (pass --pid)'}`);
console.log(`final healthcheck: ${health}${svc ? `, process ${svc.alive() ? 'alive' : `exited ${JSON.stringify(svc.exit())}`}` : ''}`);

const ok = serverErrors.length === 0 && hangs.length === 0 && health === 200 && (!svc || svc.alive());
await svc?.stop();
process.exit(ok ? 0 : 1);
