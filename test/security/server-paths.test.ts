// Finding 6 (issue 27): no file-existence oracle and no server paths. Played as tenant B of a keyed
// local stack: an embed node's model_path (or an absolute model_name) named any host path and the
// answer told "does not exist" from "has no config.json"; local-connector errors (422s, connection
// checks, reads, listings, writes, a job's failed files) printed absolute server paths. Model names
// resolve only inside the operator's models directory (symlinks leading out count as missing), and
// every message names things as the tenant did.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValidationError } from '../../lambdas/errors';
import { createEmbedder, parseEmbedNode } from '../../lambdas/engine/embedding/index';
import { listSourceObjects, readSourceObject, writeDestinationObject } from '../../lambdas/connectors/registry';
import { withTenant } from '../../lambdas/connectors/tenant';
import { writeTinyModel } from '../integration/embedding/tiny-model';
import { eventually } from '../support/local-stack';
import { keyedStack, locs, messages, waitForJob, type Tenants } from './helpers';

let t: Tenants;
const scratch = mkdtempSync(join(tmpdir(), 'wps-paths-'));
const models = join(scratch, 'models');
const outside = join(scratch, 'elsewhere');

before(async () => {
  t = await keyedStack();
  mkdirSync(models, { recursive: true });
  writeTinyModel(models, 'tiny-bert');
  writeTinyModel(outside, 'stolen');
  mkdirSync(join(models, 'half'), { recursive: true });
  // A symlink inside the models directory leading to a complete model outside it.
  symlinkSync(join(outside, 'stolen'), join(models, 'escape'));
});
after(async () => {
  await t?.stack.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Every server directory a message must not show. */
function assertNoServerPath(what: string, text: string): void {
  for (const p of [t.stack.dataDir, scratch, models, outside, process.cwd()]) assert.ok(!text.includes(p), `${what} shows server path ${p}: ${text}`);
}

test('an embed node names a model, never a path: any host path gets the same 422, whether it exists or not', async () => {
  const answers: string[] = [];
  const probes = ['/etc', '/nonexistent-wps-probe', join(t.stack.dataDir, 'connector-files', 'tenant-a'), '../../etc', 'models/../../etc'];
  for (const [i, probe] of probes.entries()) {
    for (const field of ['model_path', 'model_name']) {
      const nodes = [
        { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
        { name: 'Embedder', type: 'embed', subtype: 'local', settings: { [field]: probe } },
      ];
      const r = await t.stack.call('POST', '/api/v1/workflows/', { ...t.asB, body: { name: `probe-${i}`, workflow_type: 'custom', workflow_nodes: nodes } });
      assert.equal(r.status, 422, `${field}=${probe}: ${r.status} ${r.text}`);
      assert.ok(locs(r.body).includes(`body.workflow_nodes.1.settings.${field}`), r.text);
      // -- the answer is the same for every probe once the tenant's own text is taken out: no oracle --
      // (a probe under a service directory is itself shown as <server path>)
      answers.push(messages(r.body).split(probe.slice(0, 200)).join('<name>').split('<server path>').join('<name>'));
    }
  }
  assert.equal(new Set(answers).size, 1, `answers differ:\n${[...new Set(answers)].join('\n')}`);
});

test("a model resolves only inside the models directory: a symlink out reads as missing; messages name the model only", async () => {
  const env = { LOCAL_EMBEDDING_MODELS_DIR: models };
  const ok = await createEmbedder(parseEmbedNode('local', { model_name: 'tiny-bert' }), env);
  assert.equal(ok.provider, 'local');
  const failure = async (settings: Record<string, unknown>) => {
    try {
      await createEmbedder(parseEmbedNode('local', settings), env);
    } catch (err) {
      assert.ok(err instanceof ValidationError, String(err));
      const text = JSON.stringify(err.issues);
      assertNoServerPath(`model ${JSON.stringify(settings)}`, text);
      return text;
    }
    assert.fail(`${JSON.stringify(settings)} was accepted`);
  };
  const missing = await failure({ model_name: 'no-such-model' });
  const escaped = await failure({ model_name: 'escape' });
  assert.match(missing, /does not exist in the models directory/);
  assert.equal(escaped.split('escape').join('X'), missing.split('no-such-model').join('X'), 'a symlink leading out answers as a missing name');
  assert.match(await failure({ model_path: 'half' }), /model 'half' has no config\.json/);
  // Without a models directory a name finds nothing, and the message says why without a path.
  await assert.rejects(createEmbedder(parseEmbedNode('local', { model_name: 'tiny-bert' }), {}), /LOCAL_EMBEDDING_MODELS_DIR/);
});

test('local connector: 422s, connection checks, reads, listings and writes show the tenant its own names only', async () => {
  for (const path of ['../tenant-a', '../../', '/etc']) {
    const r = await t.stack.call('POST', '/api/v1/sources/', { ...t.asB, body: { name: 'x', type: 'local', config: { remote_url: path } } });
    assert.equal(r.status, 422, r.text);
    assertNoServerPath(`422 for ${path}`, r.text);
  }
  const src = await t.stack.call('POST', '/api/v1/sources/', { ...t.asB, body: { name: 'missing', type: 'local', config: { remote_url: 'not-there' } } });
  assert.equal(src.status, 200, src.text);
  const started = await t.stack.call('POST', `/api/v1/sources/${src.body.id}/connection-check`, t.asB);
  assert.equal(started.status, 202, started.text);
  const check = await eventually(async () => {
    const r = await t.stack.call('GET', `/api/v1/sources/${src.body.id}/connection-check`, t.asB);
    return r.body?.status && r.body.status !== 'SCHEDULED' ? r.body : undefined;
  }, 'connection check');
  assert.equal(check.status, 'FAILURE');
  assert.match(check.reason, /not-there/);
  assertNoServerPath('check reason', check.reason);

  const root = join(t.stack.dataDir, 'connector-files', 'tenant-b');
  mkdirSync(join(root, 'inbox'), { recursive: true });
  writeFileSync(join(root, 'blocker'), 'a file where a folder is expected');
  await withTenant('tenant-b', async () => {
    const failures: string[] = [];
    const collect = async (p: Promise<unknown>) => failures.push(await p.then(() => 'resolved', (e: Error) => e.message));
    await collect(readSourceObject('local', { remote_url: 'inbox', recursive: true }, 'nope.txt'));
    await collect((async () => {
      for await (const o of listSourceObjects('local', { remote_url: 'blocker', recursive: true })) void o;
    })());
    await collect(writeDestinationObject('local', { remote_url: 'blocker' }, 'doc.txt.json', new Uint8Array([1])));
    await collect(writeDestinationObject('local', { remote_url: 'inbox' }, 'blocker-child/x.json', new Uint8Array([1])).then(() =>
      writeDestinationObject('local', { remote_url: 'inbox/blocker-child/x.json' }, 'y.json', new Uint8Array([1]))));
    for (const f of failures) {
      assert.notEqual(f, 'resolved');
      assertNoServerPath('local connector error', f);
    }
    assert.match(failures[0]!, /nope\.txt/);
  });
});

test("a job's failed files and details show no server path", async () => {
  const root = join(t.stack.dataDir, 'connector-files', 'tenant-b');
  mkdirSync(join(root, 'job-in'), { recursive: true });
  writeFileSync(join(root, 'job-in', 'a.txt'), 'Some text to partition.');
  writeFileSync(join(root, 'job-out'), 'a file where the destination folder should be');
  const src = await t.stack.call('POST', '/api/v1/sources/', { ...t.asB, body: { name: 'in', type: 'local', config: { remote_url: 'job-in' } } });
  const dst = await t.stack.call('POST', '/api/v1/destinations/', { ...t.asB, body: { name: 'out', type: 'local', config: { remote_url: 'job-out' } } });
  assert.equal(dst.status, 200, dst.text);
  const nodes = [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }];
  const wf = await t.stack.call('POST', '/api/v1/workflows/', {
    ...t.asB,
    body: { name: 'paths', workflow_type: 'custom', workflow_nodes: nodes, source_id: src.body.id, destination_id: dst.body.id },
  });
  assert.equal(wf.status, 200, wf.text);
  const run = await t.stack.call('POST', `/api/v1/workflows/${wf.body.id}/run`, t.asB);
  assert.equal(run.status, 202, run.text);
  const done = await waitForJob(t.stack, t.asB, run.body.id);
  assertNoServerPath('job', JSON.stringify(done));
  const failed = await t.stack.call('GET', `/api/v1/jobs/${run.body.id}/failed-files`, t.asB);
  assert.ok(failed.text.includes('job-out') || failed.text.includes('a.txt'), `the failure is reported: ${failed.text}`);
  assertNoServerPath('failed files', failed.text);
});

test('the last line of defence: API errors and recorded failures carry no path under a service directory', async () => {
  const { errorResponse } = await import('../../lambdas/http/errors');
  const { BadRequest } = await import('../../lambdas/errors');
  const { withoutServerPaths } = await import('../../lambdas/domain/server-paths');
  const leaked = `ENOENT: no such file or directory, open '${join(t.stack.dataDir, 'connector-files', 'x.pdf')}'`;
  const bad = errorResponse(new BadRequest(`cannot read: ${leaked}`));
  assertNoServerPath('400 detail', String(bad.body));
  const invalid = errorResponse(ValidationError.single(['body', 'x'], leaked));
  assertNoServerPath('422 msg', String(invalid.body));
  assert.equal(withoutServerPaths(`see ${process.cwd()}/lambdas/x.ts and /tmpx`), 'see <server path> and /tmpx');
});
