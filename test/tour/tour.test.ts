// The README tour as a test: every shell command between <!-- tour:start --> and <!-- tour:end -->
// (README.md between its markers) runs as written, with bash, from the root of
// the clone, against a fresh local stack whose port reaches the tour only through PORT (the variable
// the tour itself reads). Each command must exit 0 and print what its `# → text` lines promise.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawn, spawnSync } from 'node:child_process';
import { PROJECT_ROOT } from '../../lib/base-function';
import { startTestStack, type TestStack } from '../support/local-stack';

interface Step { command: string; expect: string[] }

/** The tour's text: README.md between the markers. */
export function tourText(root = PROJECT_ROOT): { file: string; text: string } {
  for (const file of ['README.md']) {
    const path = join(root, file);
    if (!existsSync(path)) continue;
    const m = /<!-- tour:start -->([\s\S]*?)<!-- tour:end -->/.exec(readFileSync(path, 'utf8'));
    if (m) return { file, text: m[1]! };
  }
  throw new Error('no <!-- tour:start --> … <!-- tour:end --> in README.md');
}

/** A command is complete when bash can parse it (multi-line quotes and `\` continuations included). */
const complete = (src: string) => spawnSync('bash', ['-n', '-c', src]).status === 0;

export function tourSteps(text: string): Step[] {
  const steps: Step[] = [];
  for (const block of text.matchAll(/```bash\n([\s\S]*?)```/g)) {
    let pending: string[] = [];
    for (const line of block[1]!.split('\n')) {
      const promise = /^# → (.+)$/.exec(line);
      if (promise && !pending.length) {
        const last = steps.at(-1);
        if (!last) throw new Error(`a promise before any command: ${line}`);
        last.expect.push(promise[1]!.trim());
        continue;
      }
      if (!pending.length && (!line.trim() || line.trim().startsWith('#'))) continue;
      pending.push(line);
      const src = pending.join('\n');
      if (!src.trimEnd().endsWith('\\') && complete(src)) {
        steps.push({ command: src, expect: [] });
        pending = [];
      }
    }
    if (pending.length) throw new Error(`an unfinished command in the tour: ${pending.join('\n')}`);
  }
  return steps;
}

const corpus = join(PROJECT_ROOT, '..', 'shared', 'corpus', 'docs');
const skip = !existsSync(corpus) && `the tour uses ../shared/corpus/docs, absent beside this clone (${corpus})`;
const jq = spawnSync('jq', ['--version']).status === 0;
let stack: TestStack | undefined;
after(async () => stack?.close());

test('the tour parses into commands, each with something to check', () => {
  const steps = tourSteps(tourText().text);
  assert.ok(steps.length >= 20, `${steps.length} commands`);
  assert.ok(steps.every((s) => !/^\s*open\s/m.test(s.command)), 'no `open` (macOS only)');
  assert.ok(steps.filter((s) => s.expect.length).length >= 15);
});

test('every tour command runs as written against a local stack and prints what the text promises', { skip: skip || (!jq && 'jq is not installed') }, async () => {
  const { file, text } = tourText();
  const steps = tourSteps(text);
  rmSync('/tmp/wps-tour', { recursive: true, force: true }); // the folders the tour creates
  stack = await startTestStack();
  const port = new URL(stack.url).port;
  const out = mkdtempSync(join(tmpdir(), 'wps-tour-'));
  // One bash process, so the tour's variables carry from command to command; each command's output
  // and status go to their own files. pipefail: `curl … | jq` fails when curl does, not only jq.
  const script = 'set -o pipefail\n' + steps.map((s, i) => `{ ${s.command}\n} > "${out}/${i}.out" 2>&1; echo $? > "${out}/${i}.rc"`).join('\n');
  writeFileSync(join(out, 'tour.sh'), script);
  // Asynchronously: the stack serves the tour's requests from this very process.
  const child = spawn('bash', [join(out, 'tour.sh')], { cwd: PROJECT_ROOT, env: { ...process.env, PORT: port }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(status, 0, stderr);
  try {
    steps.forEach((s, i) => {
      const printed = existsSync(join(out, `${i}.out`)) ? readFileSync(join(out, `${i}.out`), 'utf8') : '';
      const rc = existsSync(join(out, `${i}.rc`)) ? readFileSync(join(out, `${i}.rc`), 'utf8').trim() : 'not run';
      assert.equal(rc, '0', `${file}: \`${s.command}\` exited ${rc}:\n${printed.slice(0, 2000)}`);
      for (const e of s.expect) assert.ok(printed.includes(e), `${file}: \`${s.command}\` should print ${JSON.stringify(e)}, printed:\n${printed.slice(0, 2000)}`);
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync('/tmp/wps-tour', { recursive: true, force: true });
  }
});
