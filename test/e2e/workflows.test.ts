// Workflows end to end: CRUD with validation, list filters and paging, soft delete, and run: a job
// that reads every file of a local source directory and writes one JSON result per file into the
// destination directory; a second run while one is active is refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { tick } from '../../lambdas/handlers/scheduler';

const corpus = resolve(process.cwd(), '../shared/corpus/docs');
let stack: TestStack;
const root = mkdtempSync(join(tmpdir(), 'wps-wf-'));
const inDir = join(root, 'in');
const outDir = join(root, 'out');
let sourceId: string;
let destinationId: string;

before(async () => {
  if (NEEDS_LOCAL) return;
  mkdirSync(join(inDir, 'sub'), { recursive: true });
  mkdirSync(outDir);
  copyFileSync(join(corpus, 'fake-text.txt'), join(inDir, 'fake-text.txt'));
  copyFileSync(join(corpus, 'README.md'), join(inDir, 'sub', 'README.md'));
  stack = await startTestStack();
  sourceId = (await stack.call('POST', '/api/v1/sources/', { body: { name: 'in', type: 'local', config: { remote_url: inDir } } })).body.id;
  destinationId = (await stack.call('POST', '/api/v1/destinations/', { body: { name: 'out', type: 'local', config: { remote_url: outDir } } })).body.id;
});
after(async () => {
  await stack?.close();
});

const customNodes = [
  { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
  { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 500 } },
];

test('create validates the type, nodes, connectors and schedule', { skip: NEEDS_LOCAL }, async () => {
  const bad: [unknown, string][] = [
    [{ name: 'x', workflow_type: 'gold' }, 'workflow_type'],
    [{ name: 'x', workflow_type: 'custom' }, 'workflow_nodes'],
    [{ name: 'x', workflow_type: 'custom', workflow_nodes: [{ name: 'e', type: 'embed', subtype: 'local' }] }, 'type'],
    [{ name: 'x', workflow_type: 'basic', source_id: '6f1f7a53-3a6d-4c55-9a43-1f1f9c1f0b11' }, 'source_id'],
    [{ name: 'x', workflow_type: 'basic', schedule: 'hourly-ish' }, 'schedule'],
    [{ name: 'x', workflow_type: 'basic', schedule: 'daily' }, 'schedule'],
  ];
  for (const [body, field] of bad) {
    const r = await stack.call('POST', '/api/v1/workflows/', { body });
    assert.equal(r.status, 422, `${JSON.stringify(body)} → ${r.text}`);
    assert.ok(r.body.detail.some((d: { loc: unknown[] }) => d.loc.includes(field)), r.text);
  }
});

test('CRUD, schedule as cron entries, filters, paging and soft delete', { skip: NEEDS_LOCAL }, async () => {
  const created = await stack.call('POST', '/api/v1/workflows/', {
    body: { name: 'nightly', workflow_type: 'custom', workflow_nodes: customNodes, source_id: sourceId, destination_id: destinationId, schedule: 'daily' },
  });
  assert.equal(created.status, 200, created.text);
  const wf = created.body;
  assert.deepEqual(wf.sources, [sourceId]);
  assert.deepEqual(wf.destinations, [destinationId]);
  assert.deepEqual(wf.schedule, { crontab_entries: [{ cron_expression: '0 0 * * *' }] });
  assert.equal(wf.status, 'active');
  assert.equal(wf.workflow_nodes.length, 2);
  assert.ok(wf.workflow_nodes.every((n: { id: string }) => n.id));

  const basic = await stack.call('POST', '/api/v1/workflows/', { body: { name: 'basic one', workflow_type: 'basic' } });
  assert.equal(basic.status, 200, basic.text);
  assert.deepEqual(basic.body.workflow_nodes.map((n: { type: string }) => n.type), ['partition', 'chunk', 'embed']);

  const updated = await stack.call('PUT', `/api/v1/workflows/${wf.id}`, { body: { name: 'nightly v2', schedule: 'weekly' } });
  assert.equal(updated.status, 200, updated.text);
  assert.equal(updated.body.name, 'nightly v2');
  assert.equal(updated.body.schedule.crontab_entries[0].cron_expression, '0 0 * * 0');
  assert.deepEqual(updated.body.workflow_nodes, wf.workflow_nodes);
  assert.ok(updated.body.updated_at);
  // A crontab expression (the platform's schedule is a free string) is echoed back as given.
  const cron = await stack.call('PUT', `/api/v1/workflows/${wf.id}`, { body: { schedule: '*/30 9-17 * * MON-FRI' } });
  assert.equal(cron.status, 200, cron.text);
  assert.deepEqual(cron.body.schedule, { crontab_entries: [{ cron_expression: '*/30 9-17 * * MON-FRI' }] });
  const seconds = await stack.call('PUT', `/api/v1/workflows/${wf.id}`, { body: { schedule: '*/30 * * * * *' } });
  assert.equal(seconds.status, 422, seconds.text);
  assert.deepEqual(seconds.body.detail[0].loc, ['body', 'schedule']);
  // Off the scheduler again: a schedule left here would be due during the scheduler test below at some
  // times of day (that test counts every launch of its ticks).
  const unscheduled = await stack.call('PUT', `/api/v1/workflows/${wf.id}`, { body: { schedule: null } });
  assert.equal(unscheduled.status, 200, unscheduled.text);

  const bySource = await stack.call('GET', `/api/v1/workflows/?source_id=${sourceId}`);
  assert.deepEqual(bySource.body.map((w: { id: string }) => w.id), [wf.id]);
  const byName = await stack.call('GET', '/api/v1/workflows/?name=basic');
  assert.deepEqual(byName.body.map((w: { id: string }) => w.id), [basic.body.id]);
  const paged = await stack.call('GET', '/api/v1/workflows/?page=1&page_size=1&sort_by=name&sort_direction=desc');
  assert.deepEqual(paged.body.map((w: { name: string }) => w.name), ['nightly v2']);
  const page2 = await stack.call('GET', '/api/v1/workflows/?page=2&page_size=1&sort_by=name&sort_direction=desc');
  assert.deepEqual(page2.body.map((w: { name: string }) => w.name), ['basic one']);
  assert.equal((await stack.call('GET', '/api/v1/workflows/?page_size=0')).status, 422);
  assert.equal((await stack.call('GET', '/api/v1/workflows/?sort_by=colour')).status, 422);

  const del = await stack.call('DELETE', `/api/v1/workflows/${basic.body.id}`);
  assert.equal(del.status, 200);
  assert.equal((await stack.call('GET', `/api/v1/workflows/${basic.body.id}`)).status, 404);
  const deleted = await stack.call('GET', '/api/v1/workflows/?show_only_soft_deleted=true');
  assert.deepEqual(deleted.body.map((w: { id: string }) => w.id), [basic.body.id]);
  const live = await stack.call('GET', '/api/v1/workflows/');
  assert.ok(!live.body.some((w: { id: string }) => w.id === basic.body.id));
});

test('run reads the source, writes each result to the destination, one active job at a time', { skip: NEEDS_LOCAL }, async () => {
  const wf = (
    await stack.call('POST', '/api/v1/workflows/', {
      body: { name: 'copy', workflow_type: 'custom', workflow_nodes: customNodes, source_id: sourceId, destination_id: destinationId },
    })
  ).body;
  const run = await stack.call('POST', `/api/v1/workflows/${wf.id}/run`);
  assert.equal(run.status, 202, run.text);
  assert.equal(run.body.workflow_id, wf.id);
  assert.equal(run.body.workflow_name, 'copy');
  assert.equal(run.body.job_type, 'persistent');
  // the source is listed when the job runs (PlanFiles), not in the request: its files come after
  assert.deepEqual(run.body.input_file_ids, []);

  const again = await stack.call('POST', `/api/v1/workflows/${wf.id}/run`);
  assert.equal(again.status, 409, again.text);

  const done = await eventually(async () => {
    const r = await stack.call('GET', `/api/v1/jobs/${run.body.id}`);
    return ['COMPLETED', 'FAILED'].includes(r.body.status) ? r.body : undefined;
  }, 'workflow job', 120_000);
  assert.equal(done.status, 'COMPLETED');
  assert.equal(done.input_file_ids.length, 2);
  for (const rel of ['fake-text.txt.json', join('sub', 'README.md.json')]) {
    const file = join(outDir, rel);
    assert.ok(existsSync(file), `${rel} written to the destination`);
    const els = JSON.parse(readFileSync(file, 'utf8'));
    assert.ok(els.length > 0 && els.every((e: { type: string }) => e.type === 'CompositeElement' || e.type === 'Table'));
  }
  const jobs = await stack.call('GET', `/api/v1/jobs/?workflow_id=${wf.id}`);
  assert.deepEqual(jobs.body.map((j: { id: string }) => j.id), [run.body.id]);
});

test('a due schedule starts one scheduled job; an overlapping tick does not start it again', { skip: NEEDS_LOCAL }, async () => {
  const wf = (
    await stack.call('POST', '/api/v1/workflows/', {
      body: { name: 'quarterly-hour', workflow_type: 'custom', workflow_nodes: customNodes, source_id: sourceId, destination_id: destinationId, schedule: 'every 15 minutes' },
    })
  ).body;
  const now = Date.now();
  // Not due yet: nothing starts.
  const early = await tick({ time: new Date(now).toISOString() });
  assert.equal(early.launched, 0);
  const later = new Date(now + 16 * 60_000).toISOString();
  const [first, second] = await Promise.all([tick({ time: later }), tick({ time: later })]);
  assert.equal(first.launched + second.launched, 1, 'exactly one of two overlapping ticks launches the run');
  const jobs = (await stack.call('GET', `/api/v1/jobs/?workflow_id=${wf.id}`)).body as { id: string; job_type: string }[];
  assert.equal(jobs.length, 1);
  assert.equal(jobs[0]!.job_type, 'scheduled');
  const done = await eventually(async () => {
    const r = await stack.call('GET', `/api/v1/jobs/${jobs[0]!.id}`);
    return ['COMPLETED', 'FAILED'].includes(r.body.status) ? r.body : undefined;
  }, 'scheduled job', 120_000);
  assert.equal(done.status, 'COMPLETED');
  // The same instant again: the next run was advanced, so nothing more starts.
  assert.equal((await tick({ time: later })).launched, 0);
  // Removing the schedule takes the workflow off the scheduler.
  await stack.call('PUT', `/api/v1/workflows/${wf.id}`, { body: { schedule: null } });
  await tick({ time: new Date(now + 48 * 60 * 60_000).toISOString() });
  assert.equal((await stack.call('GET', `/api/v1/jobs/?workflow_id=${wf.id}`)).body.length, 1);
});

test('credentials in node settings are masked in responses and sealed at rest; a masked value sent back is kept', { skip: NEEDS_LOCAL }, async () => {
  const secret = 'sk-test-not-a-real-key-0123456789abcdef';
  const nodes = [...customNodes, { name: 'Embedder', type: 'embed', subtype: 'openai', settings: { model_name: 'text-embedding-3-small', api_key: secret } }];
  const created = await stack.call('POST', '/api/v1/workflows/', { body: { name: 'with key', workflow_type: 'custom', workflow_nodes: nodes } });
  assert.equal(created.status, 200, created.text);
  assert.ok(!created.text.includes(secret));
  assert.equal(created.body.workflow_nodes[2].settings.api_key, '**********');
  const put = await stack.call('PUT', `/api/v1/workflows/${created.body.id}`, { body: { workflow_nodes: created.body.workflow_nodes } });
  assert.equal(put.status, 200, put.text);
  assert.ok(!put.text.includes(secret));
  const ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: stack.endpoints.dynamodb });
  const scan = await ddb.send(new ScanCommand({ TableName: stack.env.TABLE_NAME }));
  ddb.destroy();
  const dump = JSON.stringify(scan.Items);
  assert.ok(!dump.includes(secret), 'the clear key must not be stored');
  const stored = scan.Items!.find((i) => i.id?.S === created.body.id)!;
  const storedKey = stored.nodes!.L![2]!.M!.settings!.M!.api_key!.S!;
  assert.match(storedKey, /^aes:/, 'the key is sealed, and the masked PUT kept it');
});

test('run with uploaded files, and a workflow without a source needs them', { skip: NEEDS_LOCAL }, async () => {
  const wf = (await stack.call('POST', '/api/v1/workflows/', { body: { name: 'uploads', workflow_type: 'custom', workflow_nodes: customNodes } })).body;
  const none = await stack.call('POST', `/api/v1/workflows/${wf.id}/run`);
  assert.equal(none.status, 422);
  const form = new FormData();
  form.append('input_files', new Blob([readFileSync(join(corpus, 'fake-text.txt'))], { type: 'text/plain' }), 'upload.txt');
  const run = await stack.call('POST', `/api/v1/workflows/${wf.id}/run`, { raw: form });
  assert.equal(run.status, 202, run.text);
  const done = await eventually(async () => {
    const r = await stack.call('GET', `/api/v1/jobs/${run.body.id}`);
    return ['COMPLETED', 'FAILED'].includes(r.body.status) ? r.body : undefined;
  }, 'upload job', 120_000);
  assert.equal(done.status, 'COMPLETED');
  const out = await stack.call('GET', `/api/v1/jobs/${run.body.id}/download?file_id=${run.body.input_file_ids[0]}`);
  assert.equal(out.status, 200);
  assert.ok(out.body.length > 0);
});
