// What Tesseract prints ("Estimating resolution as ...", diacritics notes) reaches the service's
// JSON log as debug lines with the job's context, never as plain text between the JSON lines
// (lambdas/engine/partition/ocr/tesseract-worker.cjs). A child process runs one recognition with
// LOG_LEVEL=debug, so its whole stdout and stderr can be read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repoRoot = resolve(import.meta.dirname, '../../..');
const image = resolve(repoRoot, '../shared/corpus/docs/english-and-korean.png');

const script = `
import { readFileSync } from 'node:fs';
import { recognize, shutdownOcr } from ${JSON.stringify(resolve(repoRoot, 'lambdas/engine/partition/ocr/tesseract.ts'))};
import { withLogContext } from ${JSON.stringify(resolve(repoRoot, 'lambdas/logger.ts'))};
const r = await withLogContext({ job_id: 'job-ocr-log' }, () => recognize(new Uint8Array(readFileSync(${JSON.stringify(image)})), ['eng']));
console.log(JSON.stringify({ msg: 'done', lines: r.lines.length }));
await shutdownOcr();
`;

test('tesseract output goes through the JSON logger with the job id', async () => {
  // A file, not `-e`: the OCR worker threads inherit the process's flags, and --input-type is refused there.
  const dir = mkdtempSync(join(tmpdir(), 'ocr-log-'));
  const file = join(dir, 'run.mts');
  writeFileSync(file, script);
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'debug' },
    timeout: 120_000,
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
  const lines = `${stdout}\n${stderr}`.split('\n').filter((l) => l.trim());
  const plain = lines.filter((l) => { try { JSON.parse(l); return false; } catch { return true; } });
  assert.deepEqual(plain, [], 'every line is JSON');
  const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.ok(parsed.some((l) => l.msg === 'done' && (l.lines as number) > 0), 'the recognition ran');
  const fromTesseract = parsed.filter((l) => l.msg === 'tesseract');
  assert.ok(fromTesseract.length > 0, `Tesseract's notes are logged: ${stdout}`);
  for (const l of fromTesseract) {
    assert.equal(l.level, 'debug');
    assert.equal(l.job_id, 'job-ocr-log');
    assert.equal(typeof l.tesseract, 'string');
  }
});
