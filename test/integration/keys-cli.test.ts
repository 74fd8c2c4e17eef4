// `npm run keys` creates a key (printed once), lists and revokes it, against a data directory that a
// keyed service then serves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestStack } from '../support/local-stack';

test('keys created by the CLI authenticate against a keyed service; revoked ones do not', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wps-keys-'));
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, ['--import', 'tsx', 'bin/keys.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' });
  const out = cli('create', '--account', 'acme', '--user', 'alice', '--label', 'ci');
  const key = /API key \(shown once, store it now\): (\S+)/.exec(out)?.[1];
  const keyId = /created key (\S+)/.exec(out)?.[1];
  assert.ok(key && keyId, out);
  assert.match(cli('list', '--account', 'acme'), new RegExp(keyId!));
  assert.ok(!cli('list', '--account', 'acme').includes(key!), 'list never shows the key');

  const stack = await startTestStack({ dataDir, authMode: 'keyed' });
  try {
    assert.equal((await stack.call('GET', '/api/v1/sources/', { headers: { 'service-api-key': key! } })).status, 200);
  } finally {
    await stack.close();
  }
  cli('revoke', '--account', 'acme', keyId!);
  const again = await startTestStack({ dataDir, authMode: 'keyed' });
  try {
    assert.equal((await again.call('GET', '/api/v1/sources/', { headers: { 'service-api-key': key! } })).status, 401);
  } finally {
    await again.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
