// npm run bench:notifications — latency of the notification endpoints over HTTP against the local
// stack (dynalite): unread-count (target p95 ≤ 5 ms, one read whatever the inbox size), mark-read of
// 100 unread ids (target p95 ≤ 20 ms) and a list page of 50, with EVENTS notifications in the inbox.
// Figures, not a test: dynalite on one machine is slower than DynamoDB, so the AWS numbers are lower.
// Warm: the figures are of a warm service. A fresh process first runs each path through V8's tiers
// (unread-count was still getting faster after 1,000 calls: p95 5 ms, then 2.5-3 ms after 3,000; mark-read
// after 30 calls p95 ~21 ms, after 100 ~17 ms), so each endpoint is called first --warm-counts times
// (3,000) and --warm-marks times (100); the warm-up calls are timed too and printed on their own line.
// The calls are made from a thread of their own (a client is not part of the API's event loop).
// Usage: node --import tsx test/bench/notifications.ts [--events N] [--rounds R] [--data-dir DIR]
//   [--warm-counts C] [--warm-marks M]
//   --data-dir keeps the seeded store in DIR (seeding 100,000 events takes minutes): a later run with
//   the same DIR and --events reuses it (each run marks 100·(R+M) more of its notifications read, then tops up).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { startLocalStack } from '../../local/stack';
import { notificationRecorder } from '../../lambdas/services/jobs';

// -- as `npm start` does: Node 20 is what these machines have (Lambda runs 22) --
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const EVENTS = Number(arg('--events') ?? 3000);
const ROUNDS = Number(arg('--rounds') ?? 60);
const WARM_COUNTS = Number(arg('--warm-counts') ?? 3000);
const WARM_MARKS = Number(arg('--warm-marks') ?? 100);
const MARK = 100;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms (n=${xs.length})`;

/** The timed calls (plain JS: an eval thread). Each mark-read round marks the 100 newest unread
 * notifications; a small inbox is topped up first, untimed, by the bench thread. */
const CLIENT_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, rounds, mark, warmCounts, warmMarks } = workerData;
const url = (p) => base + p;
const time = async (fn) => {
  const s = performance.now();
  const r = await fn();
  await r.arrayBuffer();
  if (!r.ok) throw new Error('HTTP ' + r.status);
  return performance.now() - s;
};
const unread = async () => (await (await fetch(url('/unread-count'))).json()).unread_count;
const topUp = (n) => new Promise((resolve) => { parentPort.once('message', resolve); parentPort.postMessage({ topUp: n }); });
(async () => {
  const warmCountMs = [];
  for (let i = 0; i < warmCounts; i++) warmCountMs.push(await time(() => fetch(url('/unread-count'))));
  const counts = [];
  for (let i = 0; i < rounds * 10; i++) counts.push(await time(() => fetch(url('/unread-count'))));
  const lists = [];
  let cursor = null;
  for (let i = 0; i < rounds; i++) {
    const s = performance.now();
    const r = await fetch(url('?limit=50' + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '')));
    cursor = (await r.json()).next_cursor;
    lists.push(performance.now() - s);
  }
  const marks = [];
  const warmMarkMs = [];
  let expected = await unread();
  for (let i = 0; i < rounds + warmMarks; i++) {
    if (expected < mark) {
      await topUp(mark);
      expected += mark;
    }
    const r = await fetch(url('?unread_only=true&limit=' + mark));
    const ids = (await r.json()).events.map((e) => e.id);
    if (ids.length !== mark) throw new Error('expected ' + mark + ' unread notifications, listed ' + ids.length);
    const ms = await time(() => fetch(url('/mark-read'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ notification_ids: ids }) }));
    (i >= warmMarks ? marks : warmMarkMs).push(ms);
    expected -= mark;
  }
  parentPort.postMessage({ counts, lists, marks, warmCountMs, warmMarkMs, after: await unread(), expected });
})();
`;

const kept = arg('--data-dir');
const dataDir = kept ?? mkdtempSync(join(tmpdir(), 'wps-bench-notes-'));
const seededMark = join(dataDir, `.bench-notifications-${EVENTS}`);
const stack = await startLocalStack({ dataDir, port: 0, authMode: 'none' });
let recorded = 0;
/** Records `n` job events into the default user's inbox, one second apart, 50 at a time. */
const record = async (n: number) => {
  const base = Date.parse('2026-01-01T00:00:00Z');
  for (let i = 0; i < n; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, () => {
        const k = recorded++;
        return notificationRecorder().record(`bench-${k}`, 'job.completed', { account_id: 'default', job_id: `j${k}`, workflow_id: null }, new Date(base + k * 1000));
      }),
    );
  }
};
try {
  const t0 = performance.now();
  if (kept && existsSync(seededMark)) {
    console.log(`reusing the ${EVENTS} events seeded in ${dataDir}`);
  } else {
    await record(EVENTS);
    if (kept) writeFileSync(seededMark, '');
    console.log(`recorded ${EVENTS} events into the default user's inbox in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  recorded = EVENTS + 1_000_000 * Math.floor(Math.random() * 1000); // top-ups below: fresh event ids

  // The client runs on a thread of its own, as a user's client runs in a process of its own: its
  // request building and response parsing do not queue on the event loop of the API it measures.
  const client = new Worker(CLIENT_SOURCE, { eval: true, workerData: { base: `${stack.url}/api/v1/notifications`, rounds: ROUNDS, mark: MARK, warmCounts: WARM_COUNTS, warmMarks: WARM_MARKS } });
  const results = await new Promise<{ counts: number[]; lists: number[]; marks: number[]; warmCountMs: number[]; warmMarkMs: number[]; after: number; expected: number }>((resolve, reject) => {
    client.on('message', async (m: { topUp?: number; done?: never }) => {
      if (m.topUp) {
        await record(m.topUp);
        client.postMessage({ toppedUp: m.topUp });
      } else resolve(m as never);
    });
    client.once('error', reject);
    client.once('exit', (code) => reject(new Error(`the client thread exited (code ${code})`)));
  });
  await client.terminate();
  const warm = (xs: number[]) => (xs.length ? fmt(xs) : 'none');
  console.log(`warm-up (a fresh process's first calls, not in the figures below): unread-count ${warm(results.warmCountMs)}; mark-read ${warm(results.warmMarkMs)}`);
  console.log(`GET unread-count (${EVENTS} in the inbox): ${fmt(results.counts)}`);
  console.log(`GET list limit=50 (paging): ${fmt(results.lists)}`);
  console.log(`POST mark-read (${MARK} unread ids): ${fmt(results.marks)}`);
  console.log(`unread after marking: ${results.after} (expected ${results.expected})`);
} finally {
  await stack.stop();
  if (!kept) rmSync(dataDir, { recursive: true, force: true });
}
