// The local Step Functions stand-in validates each state machine once, when it starts (asl-validator
// costs ~150 ms of CPU per definition, which every StartExecution used to pay on the API's thread):
// a definition the validator refuses stops the start, before any execution exists.
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
    assert.match(outcome, /State machine definition is invalid/);
    const sfn = await startStepFunctions({ repoRoot: ROOT, region: 'us-east-1', resources: { BucketName: 'b' } });
    await sfn.stop();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
