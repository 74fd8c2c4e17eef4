// Finding 3, process level: whatever escapes a request (a thrown exception in a callback, a rejected
// promise) is logged and the `npm start` process keeps running. Checked in a real child process
// with the guard `local/start.ts` installs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('an uncaught exception and an unhandled rejection are logged and the process lives on', () => {
  const script = `
    import { installProcessGuards } from './local/process-guard.ts';
    installProcessGuards();
    setTimeout(() => { throw new Error('boom in a callback'); }, 5);
    setTimeout(() => { Promise.reject(new Error('nobody awaited me')); }, 10);
    setTimeout(() => { console.log('still serving'); }, 100);
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /still serving/);
  assert.match(r.stderr, /"level":"error".*boom in a callback/);
  assert.match(r.stderr, /unhandledRejection.*nobody awaited me/);
});
