// Runs the test tiers with node's own test runner (TypeScript through tsx).
// Usage: node test/run.mjs [unit|infra|integration|security|e2e ...]   (no argument: every tier)
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const TIERS = ['unit', 'contract', 'infra', 'integration', 'security', 'e2e', 'tour', 'browser'];
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const tiers = wanted.length ? wanted : TIERS;

function collect(dir) {
  let out = [];
  let entries = [];
  try { entries = readdirSync(dir); } catch { return out; }
  for (const name of entries.sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(collect(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const files = tiers.flatMap((t) => collect(join('test', t)));
if (files.length === 0) {
  console.error(`no test files found for tiers: ${tiers.join(', ')}`);
  process.exit(1);
}
// A file gets 20 minutes: the bundle test synthesizes and esbuilds every Lambda (≈7 min on two busy
// cores, beside another test file) before its first assertion; a hang still ends the run well inside CI's 90.
const res = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=tap', '--test-reporter-destination=stdout',
    '--test-reporter=./test/failures-reporter.mjs', '--test-reporter-destination=stdout', '--test-concurrency=2', '--test-timeout=1200000', ...files],
  { stdio: 'inherit', env: { LOG_LEVEL: 'warn', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, '--openssl-legacy-provider'].filter(Boolean).join(' ') } },
);
process.exit(res.status ?? 1);
