// Fair share in the partition sandbox (issue 28): a tenant with documents queued never holds another
// tenant's document behind them. With one child (PARTITION_SANDBOX_WORKERS=1), B queues four slow
// documents, then A sends a 20-byte one: A's gets a child at once (a burst child, one beyond the
// setting) instead of waiting behind B's four, and B alone never gets more than the setting.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { partitionInSandbox, sandboxBusyPids, sandboxWorkerCount, shutdownPartitionSandbox } from '../../../lambdas/engine/partition/sandbox';

const saved = process.env.PARTITION_SANDBOX_WORKERS;
after(async () => {
  await shutdownPartitionSandbox();
  if (saved === undefined) delete process.env.PARTITION_SANDBOX_WORKERS;
  else process.env.PARTITION_SANDBOX_WORKERS = saved;
});

/** About a second of partitioning: one paragraph of 1 MB (bench:adversarial's slowest ordinary shape). */
const slow = () => new TextEncoder().encode('the cat sat on the mat '.repeat(45_000));
const tiny = new TextEncoder().encode('A short paragraph.');

test('a tenant queueing slow documents delays another tenant by at most one burst child start', async () => {
  await shutdownPartitionSandbox();
  process.env.PARTITION_SANDBOX_WORKERS = '1';
  let peakAlone = 0;
  const sampler = setInterval(() => (peakAlone = Math.max(peakAlone, sandboxWorkerCount())), 20);
  // -- B alone: one child at a time --
  await Promise.all([0, 1].map((i) => partitionInSandbox({ data: slow(), filename: `b-warm-${i}.txt` }, {}, { tenant: 'B' })));
  clearInterval(sampler);
  assert.equal(peakAlone, 1, 'one tenant alone never gets a burst child');

  const bs = [0, 1, 2, 3].map((i) =>
    partitionInSandbox({ data: slow(), filename: `b-${i}.txt` }, {}, { tenant: 'B' }),
  );
  await new Promise((r) => setTimeout(r, 100));
  // -- A's document is given a child at once (a burst child: B holds the only one), not queued behind
  // -- B's four: decided by the dispatch, so a slow cold start under load cannot change the answer --
  const a = partitionInSandbox({ data: tiny, filename: 'a.txt' }, {}, { tenant: 'A' });
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(sandboxWorkerCount(), 2, 'A got a child of its own while B still had documents queued');
  assert.match(Buffer.from((await a).elementsJson).toString('utf8'), /A short paragraph/);
  // -- the burst child stays warm for the next waiting tenant, but B's queued documents never use it --
  let peakBusy = 0;
  const busySampler = setInterval(() => (peakBusy = Math.max(peakBusy, sandboxBusyPids().length)), 20);
  const more = [0, 1].map((i) => partitionInSandbox({ data: slow(), filename: `b-more-${i}.txt` }, {}, { tenant: 'B' }));
  await Promise.all([...bs, ...more]);
  clearInterval(busySampler);
  assert.ok(peakBusy <= 1, `B alone runs one document at a time although a second child is idle (${peakBusy} at once)`);
  assert.equal(sandboxWorkerCount(), 2, 'the burst child is kept warm a while (the idle sweep retires it)');
});

test("a caller's synchronous document is not queued behind its own account's job documents", async () => {
  await shutdownPartitionSandbox();
  process.env.PARTITION_SANDBOX_WORKERS = '1';
  const batch = [0, 1, 2].map((i) => partitionInSandbox({ data: slow(), filename: `job-${i}.txt` }, {}, { tenant: 'B' }));
  await new Promise((r) => setTimeout(r, 100));
  const order: string[] = [];
  batch.forEach((p, i) => void p.then(() => order.push(`job-${i}`)));
  // -- B's API call: a child of its own at once (its jobs hold the only one), and it goes before B's queued job work --
  const call = partitionInSandbox({ data: tiny, filename: 'call.txt' }, {}, { tenant: 'B', interactive: true }).then((r) => (order.push('call'), r));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(sandboxWorkerCount(), 2, 'the synchronous document got a child while the jobs held the only one');
  assert.match(Buffer.from((await call).elementsJson).toString('utf8'), /A short paragraph/);
  await Promise.all(batch);
  assert.equal(order[0], 'call', order.join(','));
});
