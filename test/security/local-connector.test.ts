// Finding 2 (issue 8): the `local` connector must not read or write the service's own files. Played
// as the attacker: tenant B, in keyed mode, names the data directory (which holds the master key
// secrets.key and the emulators' data) through the HTTP API; an old record naming it is run as a job
// would run it; a symlink planted inside the connector folder points back at the data directory.
// In keyed mode the type is confined to <DATA_DIR>/connector-files/<account>: one tenant reaches
// neither the service's files nor another tenant's; in any mode the data directory is out of reach;
// inside AWS Lambda the type does not exist.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValidationError } from '../../lambdas/errors';
import { listSourceObjects, readSourceObject, validateConfig, writeDestinationObject } from '../../lambdas/connectors/registry';
import { withTenant } from '../../lambdas/connectors/tenant';
import { keyedStack, locs, messages, withEnv, type Tenants } from './helpers';

let t: Tenants;
const outside = mkdtempSync(join(tmpdir(), 'wps-outside-'));

before(async () => {
  t = await keyedStack();
  // Sealing a connector secret creates the master key file the attacker is after.
  const sealed = await t.stack.call('POST', '/api/v1/sources/', {
    ...t.asA,
    body: { name: 'sealed', type: 's3', config: { remote_url: 's3://tenant-a-bucket/', key: 'AKIAEXAMPLE', secret: 'tenant-a-secret' } },
  });
  assert.equal(sealed.status, 200, sealed.text);
  assert.ok(existsSync(join(t.stack.dataDir, 'secrets.key')));
});
after(async () => {
  await t?.stack.close();
  rmSync(outside, { recursive: true, force: true });
});

async function createSource(path: string) {
  return t.stack.call('POST', '/api/v1/sources/', { ...t.asB, body: { name: 'files', type: 'local', config: { remote_url: path } } });
}

test('keyed mode: the data directory, its files and any path outside the connector folder are refused (422)', async () => {
  for (const path of [t.stack.dataDir, `file://${t.stack.dataDir}`, join(t.stack.dataDir, 's3'), outside, '/etc', '../..', 'inbox/../../']) {
    const r = await createSource(path);
    assert.equal(r.status, 422, `${path} -> ${r.status} ${r.text}`);
    assert.ok(locs(r.body).includes('body.config.remote_url'), r.text);
  }
  const d = await t.stack.call('POST', '/api/v1/destinations/', { ...t.asB, body: { name: 'out', type: 'local', config: { remote_url: t.stack.dataDir } } });
  assert.equal(d.status, 422, d.text);
});

test("keyed mode: a relative path lives under the account's own folder <DATA_DIR>/connector-files/<account>", async () => {
  const r = await createSource('inbox-b');
  assert.equal(r.status, 200, r.text);
  const dir = join(t.stack.dataDir, 'connector-files', 'tenant-b', 'inbox-b');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'doc.txt'), 'hello');
  const keys: string[] = [];
  await withTenant('tenant-b', async () => {
    for await (const o of listSourceObjects('local', r.body.config)) keys.push(o.key);
  });
  assert.deepEqual(keys, ['doc.txt']);
  // Without a calling account (no tenant context) keyed mode refuses outright.
  await assert.rejects(readSourceObject('local', r.body.config, 'doc.txt'), /calling account/);
});

test("keyed mode: one tenant cannot reach another tenant's folder (path, traversal, symlink)", async () => {
  const bDir = join(t.stack.dataDir, 'connector-files', 'tenant-b', 'private');
  mkdirSync(bDir, { recursive: true });
  writeFileSync(join(bDir, 'secret.txt'), 'tenant B only');
  for (const path of [bDir, '../tenant-b/private', `file://${bDir}`, join(t.stack.dataDir, 'connector-files')]) {
    const r = await t.stack.call('POST', '/api/v1/sources/', { ...t.asA, body: { name: 'steal', type: 'local', config: { remote_url: path } } });
    assert.equal(r.status, 422, `${path} -> ${r.status} ${r.text}`);
  }
  // The same relative name is a different folder per account.
  const a = await t.stack.call('POST', '/api/v1/sources/', { ...t.asA, body: { name: 'mine', type: 'local', config: { remote_url: 'private' } } });
  assert.equal(a.status, 200, a.text);
  mkdirSync(join(t.stack.dataDir, 'connector-files', 'tenant-a', 'private'), { recursive: true });
  await withTenant('tenant-a', async () => {
    const keys: string[] = [];
    for await (const o of listSourceObjects('local', a.body.config)) keys.push(o.key);
    assert.deepEqual(keys, [], "tenant A's 'private' is empty: B's file is not there");
    await assert.rejects(readSourceObject('local', a.body.config, '../../tenant-b/private/secret.txt'), /invalid object key|outside/);
  });
  // A symlink planted in A's folder pointing at B's folder.
  const aRoot = join(t.stack.dataDir, 'connector-files', 'tenant-a');
  mkdirSync(aRoot, { recursive: true });
  symlinkSync(bDir, join(aRoot, 'to-b'));
  await withTenant('tenant-a', () => assert.rejects(readSourceObject('local', { remote_url: 'to-b', recursive: true }, 'secret.txt'), /outside/));
});

test('the master key cannot be read through an old record or a planted symlink', async () => {
  await withTenant('tenant-b', async () => {
    // An old record naming the data directory itself, run as a job runs it.
    await assert.rejects(readSourceObject('local', { remote_url: t.stack.dataDir, recursive: true }, 'secrets.key'), /data directory|outside/);
    await assert.rejects(writeDestinationObject('local', { remote_url: t.stack.dataDir }, 'secrets.key', new Uint8Array([1])), /data directory|outside/);
    // A symlink inside the account's connector folder pointing back at the data directory.
    const root = join(t.stack.dataDir, 'connector-files', 'tenant-b');
    mkdirSync(root, { recursive: true });
    symlinkSync(t.stack.dataDir, join(root, 'escape'));
    await assert.rejects(readSourceObject('local', { remote_url: 'escape', recursive: true }, 'secrets.key'), /data directory|outside/);
    await assert.rejects(readSourceObject('local', { remote_url: join(root, 'escape'), recursive: true }, 'secrets.key'), /data directory|outside/);
  });
});

test('any mode: paths into the data directory are refused, the connector folder and other paths are not', async () => {
  await withEnv({ AUTH_MODE: 'none', LOCAL_CONNECTOR_ROOT: undefined }, () => {
    for (const path of [t.stack.dataDir, join(t.stack.dataDir, 'dynamodb'), join(t.stack.dataDir, 'secrets.key')]) {
      assert.throws(() => validateConfig('source', 'local', { remote_url: path }), ValidationError, path);
    }
    assert.doesNotThrow(() => validateConfig('source', 'local', { remote_url: join(t.stack.dataDir, 'connector-files', 'x') }));
    assert.doesNotThrow(() => validateConfig('destination', 'local', { remote_url: outside }));
  });
  // An operator root equal to or containing the data directory is refused too.
  await withEnv({ AUTH_MODE: 'none', LOCAL_CONNECTOR_ROOT: join(t.stack.dataDir, '..') }, () => {
    assert.throws(() => validateConfig('source', 'local', { remote_url: 'anything' }), /LOCAL_CONNECTOR_ROOT/);
  });
});

test('inside AWS Lambda the local type does not exist: 422 naming why, and refused at use', async () => {
  await withEnv({ AWS_LAMBDA_FUNCTION_NAME: 'wps-fn', LOCAL_CONNECTOR_ROOT: outside }, async () => {
    let err: unknown;
    try {
      validateConfig('source', 'local', { remote_url: 'x' });
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof ValidationError, 'a 422');
    const body = { detail: (err as ValidationError).issues };
    assert.deepEqual(locs(body), ['body.type']);
    assert.match(messages(body), /not available on AWS/);
    await assert.rejects(readSourceObject('local', { remote_url: outside }, 'x'), /not available on AWS/);
  });
});
