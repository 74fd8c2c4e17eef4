// npm run bench:notifications — latency of the notification endpoints over HTTP against the local
// stack (dynalite): unread-count (target p95 ≤ 5 ms, one read whatever the inbox size), mark-read of
// 100 unread ids (target p95 ≤ 20 ms) and a list page of 50, with EVENTS notifications in the inbox.
// Figures, not a test: dynalite on one machine is slower than DynamoDB, so the AWS numbers are lower.
// Usage: node --import tsx test/bench/notifications.ts [--events N] [--rounds R] [--data-dir DIR]
//   --data-dir keeps the seeded store in DIR (seeding 100,000 events takes minutes): a later run with
//   the same DIR and --events reuses it (each run marks 100·R more of its notifications read).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack } from '../../local/stack';
import { notificationRecorder } from '../../lambdas/services/jobs';

// -- as `npm start` does: Node 20 is what these machines have (Lambda runs 22) --
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const EVENTS = Number(arg('--events') ?? 3000);
const ROUNDS = Number(arg('--rounds') ?? 20);
const MARK = 100;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms (n=${xs.length})`;

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

  const time = async (fn: () => Promise<Response>) => {
    const s = performance.now();
    const r = await fn();
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    return performance.now() - s;
  };
  const url = (p: string) => `${stack.url}/api/v1/notifications${p}`;
  const unread = async () => ((await (await fetch(url('/unread-count'))).json()) as { unread_count: number }).unread_count;
  for (let i = 0; i < 10; i++) await time(() => fetch(url('/unread-count'))); // warm-up

  const counts: number[] = [];
  for (let i = 0; i < ROUNDS * 10; i++) counts.push(await time(() => fetch(url('/unread-count'))));
  console.log(`GET unread-count (${EVENTS} in the inbox): ${fmt(counts)}`);

  const lists: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < ROUNDS; i++) {
    const s = performance.now();
    const r = await fetch(url(`?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
    cursor = ((await r.json()) as { next_cursor: string | null }).next_cursor;
    lists.push(performance.now() - s);
  }
  console.log(`GET list limit=50 (paging): ${fmt(lists)}`);

  // Each round marks the 100 newest unread notifications (a small inbox is topped up, untimed, so
  // every round marks 100 that are unread).
  const marks: number[] = [];
  let expected = await unread();
  for (let i = 0; i < ROUNDS; i++) {
    if (expected < MARK) {
      await record(MARK);
      expected += MARK;
    }
    const r = await fetch(url(`?unread_only=true&limit=${MARK}`));
    const ids = ((await r.json()) as { events: { id: string }[] }).events.map((e) => e.id);
    if (ids.length !== MARK) throw new Error(`expected ${MARK} unread notifications, listed ${ids.length}`);
    marks.push(await time(() => fetch(url('/mark-read'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ notification_ids: ids }) })));
    expected -= MARK;
  }
  console.log(`POST mark-read (${MARK} unread ids): ${fmt(marks)}`);
  console.log(`unread after marking: ${await unread()} (expected ${expected})`);
} finally {
  await stack.stop();
  if (!kept) rmSync(dataDir, { recursive: true, force: true });
}
