// FairQueue: round-robin between keys, per-key and total bounds, and the burst slot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FairQueue } from '../../lambdas/concurrency';

const tick = () => new Promise((r) => setImmediate(r));

function gate() {
  let open!: () => void;
  const p = new Promise<void>((r) => (open = r));
  return { p, open };
}

test('a key with many tasks queued delays another key by one task at most', async () => {
  const q = new FairQueue<string>({ concurrency: 1 });
  const order: string[] = [];
  const all: Promise<void>[] = [];
  for (let i = 0; i < 50; i++) all.push(q.run('B', async () => { order.push(`B${i}`); await tick(); }));
  all.push(q.run('A', async () => { order.push('A0'); }));
  await Promise.all(all);
  assert.ok(order.indexOf('A0') <= 2, `A ran at position ${order.indexOf('A0')}: ${order.slice(0, 5).join(',')}`);
});

test('at most concurrency at once, at most perKey of one key', async () => {
  const q = new FairQueue<string>({ concurrency: 3, perKey: 2 });
  let now = 0, peak = 0, peakB = 0, nowB = 0;
  const task = (k: string) => async () => {
    now++; peak = Math.max(peak, now);
    if (k === 'B') { nowB++; peakB = Math.max(peakB, nowB); }
    await tick(); await tick();
    now--; if (k === 'B') nowB--;
  };
  await Promise.all([...Array.from({ length: 10 }, () => q.run('B', task('B'))), ...Array.from({ length: 10 }, () => q.run('A', task('A')))]);
  assert.equal(peak, 3);
  assert.equal(peakB, 2);
});

test('burst: a key waiting while every slot is held by another key gets one slot more', async () => {
  const q = new FairQueue<string>({ concurrency: 2, burst: true });
  const held = gate();
  const b1 = q.run('B', () => held.p);
  const b2 = q.run('B', () => held.p);
  const b3 = q.run('B', async () => 'b3');
  let aRan = false;
  const a = q.run('A', async () => { aRan = true; });
  await a;
  assert.ok(aRan, 'A ran while B held both slots');
  assert.equal(q.queued('B'), 1, 'B does not get the burst slot for itself');
  held.open();
  await Promise.all([b1, b2, b3]);
});

test('a rejected task frees its slot and the error reaches its caller', async () => {
  const q = new FairQueue<string>({ concurrency: 1 });
  await assert.rejects(q.run('A', async () => { throw new Error('boom'); }), /boom/);
  assert.equal(await q.run('A', async () => 7), 7);
  assert.equal(q.runningCount, 0);
});
