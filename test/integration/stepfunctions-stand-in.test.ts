// The local Step Functions stand-in validates each state machine once, when it starts, on a thread of
// its own (asl-validation.ts: asl-validator costs ~150 ms of CPU per definition, and once run on the
// API's thread it made every later SDK call there allocate twice as much): a definition the validator
// refuses stops the start, before any execution exists, with the file and the validator's findings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStepFunctions } from '../../local/emulators/stepfunctions';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('a definition asl-validator refuses stops the stand-in at start; the real one starts', async () => {
  const root = mkdtempSync(join(tmpdir(), 'wps-sfn-'));
  try {
    const asl = JSON.parse(readFileSync(join(ROOT, 'statemachines/job.asl.json'), 'utf8'));
    asl.States.PlanFiles.Next = 'NoSuchState';
    mkdirSync(join(root, 'statemachines'));
    writeFileSync(join(root, 'statemachines/job.asl.json'), JSON.stringify(asl));
    const outcome = await startStepFunctions({ repoRoot: root, region: 'us-east-1', resources: { BucketName: 'b' } }).then(
      async (started) => {
        await started.stop();
        return 'started';
      },
      (err: Error) => err.message,
    );
    assert.match(outcome, /State machine definition statemachines\/job\.asl\.json is invalid/);
    assert.match(outcome, /MISSING_TRANSITION_TARGET: .*NoSuchState/);
    const sfn = await startStepFunctions({ repoRoot: ROOT, region: 'us-east-1', resources: { BucketName: 'b' } });
    await sfn.stop();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
