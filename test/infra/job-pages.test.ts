// Page fan-out in the stack (issue 12): the job definition's file processor splits a long PDF into an
// inline Map of page ranges, each range its own Lambda (3 GB, 15 min, the file-processing reservation),
// then a merge Lambda; failures of either go to RecordFileFailure (the file fails, the job goes on).
// The split threshold reaches the file-processing function as PAGE_RANGE_PAGES(_FAST), from
// -c pageRanges (default 40,400).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logicalIdOf, synthStack } from './synth';
import { DEFAULT_PAGES_PER_RANGE, DEFAULT_PAGES_PER_RANGE_FAST } from '../../lambdas/domain/job-pages';
import { stackPropsFromContext } from '../../lib/context';

type Res = { Type: string; Properties: Record<string, any> };
const { stack, template } = synthStack();
const json = template.toJSON() as { Resources: Record<string, Res> };
const job = stack.jobs.machine('job');
const fnId = (placeholder: string) => logicalIdOf(job.tasks.find((t) => t.placeholder === placeholder)!.fn);

function render(v: unknown): string {
  if (typeof v === 'string') return v;
  const o = v as Record<string, any>;
  if (o['Fn::Join']) return (o['Fn::Join'][1] as unknown[]).map(render).join(o['Fn::Join'][0] as string);
  if (o['Fn::GetAtt']) return `<${o['Fn::GetAtt'][0]}.${o['Fn::GetAtt'][1]}>`;
  if (o.Ref) return `<${o.Ref}>`;
  throw new Error(`cannot render ${JSON.stringify(v)}`);
}
const definition = JSON.parse(render(json.Resources[logicalIdOf(job.stateMachine)]!.Properties.DefinitionString));
const fileStates = definition.States.ProcessFiles.ItemProcessor.States;

test('a file child execution: ProcessFile → SplitPages → inline PartitionPages Map (own Lambda per range) → MergePages → ProcessMerged', () => {
  assert.equal(fileStates.ProcessFile.Next, 'SplitPages');
  assert.deepEqual(fileStates.SplitPages.Choices, [{ Variable: '$.result.pages', IsPresent: true, Next: 'PartitionPages' }]);
  const map = fileStates.PartitionPages;
  assert.equal(map.Type, 'Map');
  assert.equal(map.ItemProcessor.ProcessorConfig.Mode, 'INLINE');
  assert.equal(map.ItemsPath, '$.result.pages.ranges');
  assert.ok(map.MaxConcurrency >= 1 && map.MaxConcurrency <= 40, 'bounded (an inline Map runs at most 40 at once)');
  assert.equal(map.ItemProcessor.States.PartitionPageRange.Resource, `<${fnId('PartitionPageRangeFunctionArn')}.Arn>`);
  assert.equal(map.Next, 'MergePages');
  assert.equal(fileStates.MergePages.Resource, `<${fnId('MergePagesFunctionArn')}.Arn>`);
  assert.equal(fileStates.ProcessMerged.Resource, `<${fnId('ProcessFileFunctionArn')}.Arn>`);
  for (const name of ['ProcessFile', 'PartitionPages', 'MergePages', 'ProcessMerged']) {
    assert.deepEqual(fileStates[name].Catch.map((c: { Next: string; ErrorEquals: string[] }) => [c.ErrorEquals, c.Next]), [[['States.ALL'], 'RecordFileFailure']], name);
  }
});

test('the range function is as big as file processing, with its reservation; the state machine may invoke both new functions', () => {
  const range = json.Resources[fnId('PartitionPageRangeFunctionArn')]!.Properties;
  assert.equal(range.MemorySize, 3008);
  assert.equal(range.Timeout, 900);
  assert.equal(range.ReservedConcurrentExecutions, json.Resources[fnId('ProcessFileFunctionArn')]!.Properties.ReservedConcurrentExecutions);
  for (const id of [fnId('PartitionPageRangeFunctionArn'), fnId('MergePagesFunctionArn')]) {
    assert.ok(json.Resources[id]!.Properties.Environment.Variables.BUCKET_NAME, `${id} reads and writes the bucket`);
    const smRole = render(json.Resources[logicalIdOf(job.stateMachine)]!.Properties.RoleArn).replace(/^<|\.Arn>$/g, '');
    const statements = Object.values(json.Resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: { Ref: string }) => x.Ref === smRole))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    assert.ok(statements.some((s) => [s.Action].flat().includes('lambda:InvokeFunction') && JSON.stringify(s.Resource).includes(id)), `the state machine invokes ${id}`);
  }
});

test('the split threshold: PAGE_RANGE_PAGES(_FAST) on the file-processing function, 40/400 by default, -c pageRanges to change', () => {
  const vars = (j: typeof json, id: string) => j.Resources[id]!.Properties.Environment.Variables;
  assert.equal(vars(json, fnId('ProcessFileFunctionArn')).PAGE_RANGE_PAGES, String(DEFAULT_PAGES_PER_RANGE));
  assert.equal(vars(json, fnId('ProcessFileFunctionArn')).PAGE_RANGE_PAGES_FAST, String(DEFAULT_PAGES_PER_RANGE_FAST));
  const fromContext = (c: Record<string, string>) => stackPropsFromContext((k) => c[k]);
  const ctx = fromContext({ pageRanges: '20,300' });
  assert.deepEqual(ctx.props.pageRanges, { pages: 20, fastPages: 300 });
  assert.throws(() => fromContext({ pageRanges: '20' }), /pageRanges/);
  const other = synthStack({ pageRanges: { pages: 20, fastPages: 300 } });
  const otherJob = other.stack.jobs.machine('job');
  const id = logicalIdOf(otherJob.tasks.find((t) => t.placeholder === 'ProcessFileFunctionArn')!.fn);
  const v = vars(other.template.toJSON() as typeof json, id);
  assert.deepEqual([v.PAGE_RANGE_PAGES, v.PAGE_RANGE_PAGES_FAST], ['20', '300']);
});
