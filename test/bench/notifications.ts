// npm run bench:notifications — latency of the notification endpoints over HTTP against the local
// stack (dynalite): unread-count (target p95 < 50 ms, one read whatever the inbox size), mark-read of
// 100 ids (target p95 < 100 ms) and a list page of 50. Figures, not a test: dynalite on one machine
// is slower than DynamoDB, so the AWS numbers are lower.
// Usage: node --import tsx test/bench/notifications.ts [--events N] [--rounds R]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack } from '../../local/stack';
import { notificationRecorder } from '../../lambdas/services/jobs';

// -- as `npm start` does: Node 20 is what these machines have (Lambda runs 22) --
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const EVENTS = arg('--events', 3000);
const ROUNDS = arg('--rounds', 20);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms (n=${xs.length})`;

const dataDir = mkdtempSync(join(tmpdir(), 'wps-bench-notes-'));
const stack = await startLocalStack({ dataDir, port: 0, authMode: 'none' });
try {
  const t0 = performance.now();
  const base = Date.now() - EVENTS * 1000;
  for (let i = 0; i < EVENTS; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, EVENTS - i) }, (_, k) =>
        notificationRecorder().record(`bench-${i + k}`, 'job.completed', { account_id: 'default', job_id: `j${i + k}`, workflow_id: null }, new Date(base + (i + k) * 1000)),
      ),
    );
  }
  console.log(`recorded ${EVENTS} events into the default user's inbox in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const time = async (fn: () => Promise<Response>) => {
    const s = performance.now();
    const r = await fn();
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    return performance.now() - s;
  };
  const url = (p: string) => `${stack.url}/api/v1/notifications${p}`;
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

  const marks: number[] = [];
  let page: string | null = null;
  for (let i = 0; i < ROUNDS; i++) {
    const r = await fetch(url(`?unread_only=true&limit=100${page ? `&cursor=${encodeURIComponent(page)}` : ''}`));
    const body = (await r.json()) as { events: { id: string }[]; next_cursor: string | null };
    page = body.next_cursor;
    const ids = body.events.map((e) => e.id);
    marks.push(await time(() => fetch(url('/mark-read'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ notification_ids: ids }) })));
  }
  console.log(`POST mark-read (100 ids): ${fmt(marks)}`);
  const left = (await (await fetch(url('/unread-count'))).json()) as { unread_count: number };
  console.log(`unread after marking: ${left.unread_count} (expected ${Math.max(0, EVENTS - ROUNDS * 100)})`);
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
