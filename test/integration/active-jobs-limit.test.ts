// Issue 28, "jobs queued": one account may not queue work without end behind its gate of five. The
// JobService on a dynalite table with an orchestrator that never runs anything, so the jobs it
// creates stay SCHEDULED (as jobs waiting at a full gate do): the limit holds for on-demand jobs and
// workflow runs together, another account is not held by it, and a job that ends gives the room back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestTable } from '../support/dynamo';
import { JobService } from '../../lambdas/domain/jobs';
import { AccountQuotas, DEFAULT_ACCOUNT_LIMITS } from '../../lambdas/domain/quotas';
import { keys } from '../../lambdas/data/keys';
import type { DynamoStore } from '../../lambdas/adapters/dynamo-store';
import type { BlobStore, Clock, SecretBox } from '../../lambdas/domain/ports';
import type { ConnectorRuntime } from '../../lambdas/domain/connectors';

let table: { store: DynamoStore; stop(): Promise<void> };
before(async () => {
  table = await startTestTable('active-jobs-limit');
});
after(async () => table?.stop());

const LIMIT = 3;
const blobs = new Map<string, Uint8Array | string>();
const blobStore: BlobStore = {
  put: async (k: string, d: Uint8Array | string) => void blobs.set(k, d),
  get: async (k: string) => (blobs.has(k) ? Buffer.from(blobs.get(k)!) : undefined),
  exists: async (k: string) => blobs.has(k),
  size: async (k: string) => (blobs.has(k) ? Buffer.byteLength(blobs.get(k)!) : undefined),
  putStream: async (k: string, lines: AsyncIterable<string>) => {
    let all = '';
    for await (const l of lines) all += l;
    blobs.set(k, all);
  },
} as unknown as BlobStore;
const box: SecretBox = { seal: async (v) => v, open: async (v) => v };
// -- launches are spaced a second apart per account: the clock moves two seconds a call --
let t = Date.parse('2026-12-05T10:00:00Z');
const clock: Clock = { now: () => new Date((t += 2000)) };

function service(): JobService {
  const quotas = new AccountQuotas(table.store, { ...DEFAULT_ACCOUNT_LIMITS, activeJobs: LIMIT }, clock);
  const idle = { startJob: async (id: string) => `arn:idle:${id}`, stopJob: async () => undefined };
  return new JobService(table.store, blobStore, idle, { publish: async () => undefined }, {} as ConnectorRuntime, box, undefined, clock, quotas);
}

const requestData = JSON.stringify({ template_id: 'fast_partition' });
const file = () => [{ filename: 'a.txt', data: Buffer.from('hello'), contentType: 'text/plain' }];

test('jobs scheduled or in progress: at most the limit per account (409 naming it), on-demand and workflow runs together', async () => {
  const jobs = service();
  const b = { accountId: 'tenant-b', userId: 'u' };
  const made = [];
  for (let i = 0; i < LIMIT; i++) made.push(await jobs.create(b, requestData, file()));
  await assert.rejects(jobs.create(b, requestData, file()), (err: Error & { status?: number }) => {
    assert.match(err.message, new RegExp(`At most ${LIMIT} jobs scheduled or in progress per account`));
    return err.constructor.name === 'Conflict';
  });
  const run = { workflowId: 'wf-1', workflowName: 'wf', jobType: 'persistent' as const, nodes: [] };
  await assert.rejects(jobs.runWorkflow(b, run, file()), /At most 3 jobs scheduled or in progress/);
  // -- another account is not held by B's jobs --
  await jobs.create({ accountId: 'tenant-a', userId: 'u' }, requestData, file());
  // -- a job that ended (here: cancelled) gives the room back --
  assert.equal((await jobs.cancel(b, made[0]!.id)).status, 'cancelled');
  const again = await jobs.create(b, requestData, file());
  assert.equal(again.status, 'SCHEDULED');
  assert.ok(await table.store.get(keys.job('tenant-b', again.id)));
});
