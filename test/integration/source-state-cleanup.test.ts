// Forgetting a deleted workflow's source-document state on the real single table (dynalite): the
// delete request spends a bounded time, leaves a clean-up marker when state is left, and the tick's
// sweep forgets the rest, page by page, then drops the marker; other workflows' state is untouched.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceStates } from '../../lambdas/domain/source-state';
import { forEachLimited } from '../../lambdas/concurrency';
import { keys } from '../../lambdas/data/keys';
import { startTestTable } from '../support/dynamo';

let table: Awaited<ReturnType<typeof startTestTable>>;
before(async () => {
  table = await startTestTable('wps-cleanup');
});
after(async () => {
  await table?.stop();
});

async function seed(states: SourceStates, workflowId: string, n: number): Promise<void> {
  await forEachLimited(Array.from({ length: n }, (_, i) => i), 16, (i) =>
    states.record('acct', workflowId, { docKey: `doc-${i}.txt`, version: '1', sourceId: 'src', lastJobId: 'job' }, '2026-11-25T00:00:00Z'),
  );
}
const count = (workflowId: string) => table.store.queryPrefix(keys.account('acct'), keys.sourceDocPrefix(workflowId)).then((x) => x.length);
const markers = () => table.store.queryPrefix(keys.stateCleanupPartition, '');

test('a delete out of budget leaves a marker; the sweep forgets the rest and drops it; other workflows keep theirs', async () => {
  const states = new SourceStates(table.store);
  await seed(states, 'wf-big', 1_200);
  await seed(states, 'wf-other', 5);

  // a zero budget still forgets one page (the request makes progress), then stops
  const first = await states.forgetWorkflow('acct', 'wf-big', '2026-11-25T00:00:00Z', 0);
  assert.deepEqual(first, { deleted: 500, done: false });
  assert.equal(await count('wf-big'), 700);
  assert.deepEqual((await markers()).map((m) => [m.accountId, m.workflowId]), [['acct', 'wf-big']]);

  const swept = await states.sweep(60_000);
  assert.deepEqual(swept, { deleted: 700, pending: 0 });
  assert.equal(await count('wf-big'), 0);
  assert.equal((await markers()).length, 0);
  assert.equal(await count('wf-other'), 5);
});

test('a delete within budget forgets everything at once and leaves no marker; an idle sweep does nothing', async () => {
  const states = new SourceStates(table.store);
  await seed(states, 'wf-small', 30);
  assert.deepEqual(await states.forgetWorkflow('acct', 'wf-small', '2026-11-25T00:00:00Z', 10_000), { deleted: 30, done: true });
  assert.equal(await count('wf-small'), 0);
  assert.equal((await markers()).length, 0);
  assert.deepEqual(await states.sweep(1_000), { deleted: 0, pending: 0 });
});
