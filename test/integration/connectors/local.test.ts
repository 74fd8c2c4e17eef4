// Local-filesystem connector against real temp directories: checks, containment under
// LOCAL_CONNECTOR_ROOT (including symlink escapes), and the list/read/write round trip.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  checkConnection,
  listSourceObjects,
  readSourceObject,
  validateConfig,
  writeDestinationObject,
} from '../../../lambdas/connectors/registry';
import { collect, tempDir, text, untext } from './helpers';

const dir = tempDir('local-connector');
const root = join(dir.path, 'root');
const outside = join(dir.path, 'outside');
const savedRoot = process.env.LOCAL_CONNECTOR_ROOT;

before(() => {
  mkdirSync(join(root, 'in', 'sub'), { recursive: true });
  mkdirSync(join(root, 'out'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(root, 'in', 'a.txt'), 'alpha');
  writeFileSync(join(root, 'in', 'sub', 'b.txt'), 'bravo!');
  writeFileSync(join(root, 'file.txt'), 'not a dir');
  writeFileSync(join(outside, 'secret.txt'), 'do not read');
  symlinkSync(outside, join(root, 'escape'));
});

after(() => {
  if (savedRoot === undefined) delete process.env.LOCAL_CONNECTOR_ROOT;
  else process.env.LOCAL_CONNECTOR_ROOT = savedRoot;
  dir.remove();
});

test('without a root: absolute paths and file:// URLs work', async () => {
  delete process.env.LOCAL_CONNECTOR_ROOT;
  const byUrl = validateConfig('source', 'local', { remote_url: pathToFileURL(join(root, 'in')).href });
  assert.deepEqual(await checkConnection('source', 'local', byUrl), { status: 'SUCCESS' });
  const byPath = validateConfig('destination', 'local', { path: join(root, 'out') });
  assert.deepEqual(await checkConnection('destination', 'local', byPath), { status: 'SUCCESS' });
});

test('check FAILURE with a reason: missing directory, a file, not writable', async () => {
  delete process.env.LOCAL_CONNECTOR_ROOT;
  const missing = await checkConnection('source', 'local', validateConfig('source', 'local', { path: join(root, 'nope') }));
  assert.equal(missing.status, 'FAILURE');
  assert.match(missing.reason!, /is not accessible: ENOENT/);
  const file = await checkConnection('destination', 'local', validateConfig('destination', 'local', { path: join(root, 'file.txt') }));
  assert.equal(file.status, 'FAILURE');
  assert.match(file.reason!, /is not a directory/);
});

// Root bypasses permission bits (CAP_DAC_OVERRIDE): as root (CI), the check runs in a child process
// whose capability bounding set drops that override (util-linux setpriv), so the mode 0555 directory
// is read-only for it as for an ordinary user.
test('check FAILURE with a reason: a directory that is not writable', async () => {
  delete process.env.LOCAL_CONNECTOR_ROOT;
  const ro = join(dir.path, 'readonly');
  mkdirSync(ro);
  chmodSync(ro, 0o555);
  let r: { status: string; reason?: string };
  if (process.getuid?.() !== 0) {
    r = await checkConnection('destination', 'local', validateConfig('destination', 'local', { path: ro }));
  } else {
    const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
    // util-linux is an essential Debian package: its absence is a broken machine, not a reason to skip
    assert.ok(setpriv, 'running as root needs util-linux setpriv to drop CAP_DAC_OVERRIDE (a read-only directory is writable for root)');
    const registry = pathToFileURL(join(import.meta.dirname, '../../../lambdas/connectors/registry.ts')).href;
    const script = `const m = await import(${JSON.stringify(registry)}); console.log(JSON.stringify(await m.checkConnection('destination', 'local', m.validateConfig('destination', 'local', { path: ${JSON.stringify(ro)} }))));`;
    const out = execFileSync(setpriv!, ['--inh-caps=-all', '--bounding-set=-dac_override,-dac_read_search,-fowner', '--', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, LOG_LEVEL: 'error' },
      encoding: 'utf8',
    });
    r = JSON.parse(out.trim().split('\n').pop()!);
  }
  assert.equal(r.status, 'FAILURE', JSON.stringify(r));
  assert.match(r.reason!, /not writable/);
});

test('with LOCAL_CONNECTOR_ROOT: relative paths resolve inside it; outside paths and symlink escapes fail', async () => {
  process.env.LOCAL_CONNECTOR_ROOT = root;
  const rel = validateConfig('source', 'local', { path: 'in' });
  assert.deepEqual(await checkConnection('source', 'local', rel), { status: 'SUCCESS' });
  assert.throws(() => validateConfig('source', 'local', { path: outside }), /outside the allowed root/);
  const viaLink = validateConfig('source', 'local', { path: 'escape' });
  const r = await checkConnection('source', 'local', viaLink);
  assert.equal(r.status, 'FAILURE');
  assert.match(r.reason!, /outside the allowed root/);
  await assert.rejects(collect(listSourceObjects('local', viaLink)), /outside the allowed root/);
  await assert.rejects(readSourceObject('local', rel, '../escape/secret.txt'), /invalid object key/);
  const top = validateConfig('source', 'local', { path: '.' });
  await assert.rejects(readSourceObject('local', top, 'escape/secret.txt'), /outside the allowed root/);
  assert.ok(!(await collect(listSourceObjects('local', top))).some((o) => o.key.startsWith('escape')));
  delete process.env.LOCAL_CONNECTOR_ROOT;
});

test('list is relative, sorted, recursive by default and flat with recursive: false', async () => {
  delete process.env.LOCAL_CONNECTOR_ROOT;
  const c = validateConfig('source', 'local', { path: join(root, 'in') });
  const all = await collect(listSourceObjects('local', c));
  assert.deepEqual(all.map(({ key, size }) => ({ key, size })), [
    { key: 'a.txt', size: 5 },
    { key: 'sub/b.txt', size: 6 },
  ]);
  for (const o of all) assert.match(String(o.version), /^\d+-\d+$/, 'a version (size and modification time) to skip unchanged files by');
  const flat = await collect(listSourceObjects('local', { ...c, recursive: false }));
  assert.deepEqual(flat.map(({ key, size }) => ({ key, size })), [{ key: 'a.txt', size: 5 }]);
});

test('read returns the bytes; write creates subdirectories; keys cannot escape', async () => {
  delete process.env.LOCAL_CONNECTOR_ROOT;
  const s = validateConfig('source', 'local', { path: join(root, 'in') });
  assert.equal(untext(await readSourceObject('local', s, 'sub/b.txt')), 'bravo!');
  const d = validateConfig('destination', 'local', { path: join(root, 'out') });
  await writeDestinationObject('local', d, 'job-1/deep/out.json', text('{"ok":true}'));
  assert.equal(readFileSync(join(root, 'out', 'job-1', 'deep', 'out.json'), 'utf8'), '{"ok":true}');
  await assert.rejects(writeDestinationObject('local', d, '../in/a.txt', text('x')), /invalid object key/);
  assert.equal(readFileSync(join(root, 'in', 'a.txt'), 'utf8'), 'alpha');
});
