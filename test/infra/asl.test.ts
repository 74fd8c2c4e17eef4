// Every state machine file (statemachines/*.asl.json) is valid ASL: asl-validator's schema and
// checks (with placeholders replaced by well-formed ARNs), plus the structural checks of
// asl-check.ts, and its placeholders are exactly the tasks lambdas/state-machines.ts maps to
// handlers (the substitutions the CDK and the local runner make). The checks themselves are exercised on a fixture and broken copies of it, so this
// file fails when a check stops working even while statemachines/ is still empty.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import aslValidator from 'asl-validator';
import { STATE_MACHINES } from '../../lambdas/state-machines';
import { checkAsl, placeholders } from './asl-check';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const MACHINES_DIR = join(ROOT, 'statemachines');
const FIXTURE = join(HERE, 'fixtures', 'job-like.asl.json');

/** Replaces ${Name} with a syntactically valid Lambda ARN, as the CDK's substitution would. */
function substituted(text: string): unknown {
  return JSON.parse(text.replace(/\$\{([A-Za-z][A-Za-z0-9_]*)\}/g, 'arn:aws:lambda:us-east-1:123456789012:function:$1'));
}

function validate(text: string, substitutions?: string[]): string[] {
  const errors = checkAsl(JSON.parse(text), { substitutions });
  const result = aslValidator(substituted(text), { checkPaths: true, checkArn: true });
  if (!result.isValid) errors.push(`asl-validator: ${result.errorsText('; ')}`);
  return errors;
}

const fixtureText = readFileSync(FIXTURE, 'utf8');
const fixture = () => JSON.parse(fixtureText) as Record<string, any>;
const broken = (mutate: (d: Record<string, any>) => void) => {
  const d = fixture();
  mutate(d);
  return JSON.stringify(d);
};

test('the fixture passes every check', () => {
  assert.deepEqual(validate(fixtureText), []);
  assert.deepEqual(placeholders(JSON.parse(fixtureText)), [
    'AcquireSlotFunctionArn', 'ChunkNodeFunctionArn', 'PartitionNodeFunctionArn', 'ReleaseSlotFunctionArn', 'ValidateFunctionArn',
  ]);
  assert.deepEqual(validate(fixtureText, placeholders(JSON.parse(fixtureText))), []);
});

test('the checks catch broken definitions', () => {
  const cases: [string, string, RegExp][] = [
    ['StartAt names no state', broken((d) => (d.StartAt = 'Nope')), /StartAt "Nope" is not a state/],
    ['dangling Next', broken((d) => (d.States.AcquireSlot.Next = 'Nowhere')), /AcquireSlot: Next "Nowhere"/],
    ['dangling Choice target', broken((d) => (d.States.SlotAcquired.Choices[0].Next = 'X')), /Choices\[0\]\.Next "X"/],
    ['dangling Default', broken((d) => (d.States.SlotAcquired.Default = 'X')), /Default "X"/],
    ['dangling Catch', broken((d) => (d.States.Validate.Catch[0].Next = 'X')), /Catch\[0\]\.Next "X"/],
    ['unreachable state', broken((d) => (d.States.Orphan = { Type: 'Pass', End: true })), /Orphan: unreachable/],
    ['Map state jumps out of its scope', broken((d) => (d.States.ProcessFiles.ItemProcessor.States.Partition.Next = 'Done')), /Partition: Next "Done" is not a state in this scope/],
    ['unreachable state in a branch', broken((d) => (d.States.Finish.Branches[1].States.Lost = { Type: 'Succeed' })), /Branches\[1\]\.States\.Lost: unreachable/],
    ['neither Next nor End', broken((d) => delete d.States.AcquireSlot.Next), /AcquireSlot: needs exactly one of Next or End/],
    ['malformed placeholder', broken((d) => (d.States.Validate.Resource = '${Validate-Arn}')), /malformed placeholder/],
    ['JSONata', broken((d) => (d.QueryLanguage = 'JSONata')), /write JSONPath/],
  ];
  for (const [label, text, expected] of cases) {
    const errors = validate(text);
    assert.ok(errors.some((e) => expected.test(e)), `${label}: expected ${expected}, got ${JSON.stringify(errors)}`);
  }
  const unlisted = validate(fixtureText, ['ValidateFunctionArn']);
  assert.ok(unlisted.some((e) => /AcquireSlotFunctionArn\} is not in the substitutions map/.test(e)), JSON.stringify(unlisted));
  assert.ok(validate(broken((d) => (d.States.Done.Type = 'Finished'))).some((e) => e.startsWith('asl-validator:')));
});

test('statemachines/ exists', () => {
  assert.ok(existsSync(MACHINES_DIR) && statSync(MACHINES_DIR).isDirectory(), `${MACHINES_DIR} is missing`);
});

const files = existsSync(MACHINES_DIR) ? readdirSync(MACHINES_DIR).filter((f) => f.endsWith('.asl.json')).sort() : [];

test('every STATE_MACHINES entry has its ASL file here (so the loop below validates something)', () => {
  assert.ok(files.length > 0, 'no statemachines/*.asl.json found');
  for (const m of STATE_MACHINES) assert.ok(files.includes(m.definitionFile.replace(/^statemachines\//, '')), `${m.definitionFile} is missing`);
});

for (const file of files) {
  const machine = STATE_MACHINES.find((m) => m.definitionFile === `statemachines/${file}`);
  test(`statemachines/${file} is valid ASL`, () => {
    const text = readFileSync(join(MACHINES_DIR, file), 'utf8');
    assert.ok(machine, `statemachines/${file} has no entry in STATE_MACHINES (lambdas/state-machines.ts), so nothing substitutes its placeholders`);
    const declared = [...Object.keys(machine.tasks), ...(machine.resources ?? [])];
    assert.deepEqual(validate(text, declared), []);
    // Every declared task and resource is used: a stale entry would deploy a Lambda nothing calls.
    assert.deepEqual(placeholders(JSON.parse(text)), declared.sort());
  });
}

test('every STATE_MACHINES entry names an existing ASL file and exported task handlers', async () => {
  assert.ok(STATE_MACHINES.length > 0);
  for (const m of STATE_MACHINES) {
    assert.ok(existsSync(join(ROOT, m.definitionFile)), `${m.name}: ${m.definitionFile} exists`);
    for (const [placeholder, task] of Object.entries(m.tasks)) {
      const mod = (await import(pathToFileURL(join(ROOT, 'lambdas', 'handlers', `${task.file}.ts`)).href)) as Record<string, unknown>;
      assert.equal(typeof mod[task.export], 'function', `${m.name}.${placeholder}: lambdas/handlers/${task.file}.ts exports ${task.export}`);
    }
  }
});
