// CDK assertions over the job and event infrastructure: the job state machine (the ASL file with
// every task placeholder resolved to its own function, STANDARD, traced, logged, timed out), one
// Lambda per task, the service bus and one rule per lambdas/events.ts entry (pattern, bus, target,
// retries, dead-letter queue), and least-privilege IAM: who may start and stop executions and put
// events, on which resources, each grant with its variable. stack.test.ts covers the shared checks
// (runtime, log groups, no wildcard actions, per-profile grants).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CfnElement } from 'aws-cdk-lib';
import aslValidator from 'asl-validator';
import { STATE_MACHINES } from '../../lambdas/state-machines';
import { EVENT_RULES, EVENT_SOURCE, JOB_EVENT_TYPES, matchesPattern, type EventPattern } from '../../lambdas/events';
import { SCHEDULED_TASKS } from '../../lambdas/schedules';
import { PROJECT_ROOT } from '../../lib/base-function';
import { substitute } from '../../lib/jobs';
import { toCdkPattern } from '../../lib/events';
import { logicalIdOf, synthStack } from './synth';

type Res = { Type: string; Properties: Record<string, any> };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Principal?: unknown; Condition?: unknown };

const { stack, template } = synthStack();
const json = template.toJSON() as { Resources: Record<string, Res>; Outputs: Record<string, any> };
const resources = (type: string) => Object.entries(json.Resources).filter(([, r]) => r.Type === type);
const idOf = (c: unknown) => logicalIdOf(c);
const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
const resourcesOf = (s: Statement) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]);
const envOf = (fnId: string) => (json.Resources[fnId]!.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
const getAttArn = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });

function statementsOfRole(roleId: string): Statement[] {
  return resources('AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
}
const statementsOfFunction = (fnId: string) => statementsOfRole(json.Resources[fnId]!.Properties.Role['Fn::GetAtt'][0] as string);

/** CloudFormation intrinsics rendered as text: GetAtt → <Id.Attr>, Ref → <Id>, the name out of an ARN → <Id.Name>. */
function render(v: unknown): string {
  if (typeof v === 'string') return v;
  const o = v as Record<string, any>;
  if (o['Fn::Join']) return (o['Fn::Join'][1] as unknown[]).map(render).join(o['Fn::Join'][0] as string);
  if (o['Fn::GetAtt']) return `<${o['Fn::GetAtt'][0]}.${o['Fn::GetAtt'][1]}>`;
  if (o.Ref) return `<${o.Ref}>`;
  if (o['Fn::Select']) {
    const [index, from] = o['Fn::Select'] as [number, Record<string, any>];
    const [sep, arn] = from['Fn::Split'] as [string, { Ref: string }];
    if (index === 6 && sep === ':' && arn.Ref) return `<${arn.Ref}.Name>`;
  }
  throw new Error(`cannot render ${JSON.stringify(v)}`);
}

const machines = STATE_MACHINES.map((def) => {
  const m = stack.jobs.machine(def.name);
  return {
    def,
    id: idOf(m.stateMachine),
    roleId: idOf(m.stateMachine.role),
    logGroupId: idOf(m.logGroup),
    tasks: m.tasks.map((t) => ({ placeholder: t.placeholder, id: idOf(t.fn), spec: def.tasks[t.placeholder]! })),
  };
});
const job = machines.find((m) => m.def.name === 'job')!;
const busId = idOf(stack.events.bus);
const bucketId = idOf(stack.storage.bucket);
const rules = stack.events.rules.map((r) => ({ def: r.definition, id: idOf(r.rule), targetId: idOf(r.target), dlqId: idOf(r.deadLetterQueue) }));
const routeFns = stack.api.routeFunctions.map(({ route, fn }) => ({ route, id: idOf(fn) }));
const allFunctionIds = resources('AWS::Lambda::Function').map(([id]) => id);

test('job state machine: one per definition, STANDARD, traced, logged to its log group, with an execution timeout', () => {
  template.resourceCountIs('AWS::StepFunctions::StateMachine', STATE_MACHINES.length);
  for (const m of machines) {
    const p = json.Resources[m.id]!.Properties;
    assert.equal(p.StateMachineType, 'STANDARD', m.def.name);
    assert.deepEqual(p.TracingConfiguration, { Enabled: true }, m.def.name);
    assert.ok(['ALL', 'ERROR'].includes(p.LoggingConfiguration.Level), p.LoggingConfiguration.Level);
    assert.equal(p.LoggingConfiguration.IncludeExecutionData, true);
    assert.deepEqual(p.LoggingConfiguration.Destinations, [{ CloudWatchLogsLogGroup: { LogGroupArn: getAttArn(m.logGroupId) } }]);
    const lg = json.Resources[m.logGroupId]!;
    assert.equal(lg.Type, 'AWS::Logs::LogGroup');
    assert.match(lg.Properties.LogGroupName, /^\/aws\/vendedlogs\/states\//);
    assert.ok(lg.Properties.RetentionInDays > 0);
    assert.equal(p.StateMachineName, `${stack.stackName}-${m.def.name}`);
    const definition = JSON.parse(render(p.DefinitionString)) as { TimeoutSeconds?: number };
    assert.equal(definition.TimeoutSeconds, 24 * 3600, 'execution timeout in the definition (the CDK ignores `timeout` for text bodies)');
  }
});

test('definition: the ASL file with every placeholder resolved to its own task function', () => {
  for (const m of machines) {
    const p = json.Resources[m.id]!.Properties;
    assert.equal(p.DefinitionSubstitutions, undefined, 'resolved at synth, not left to CloudFormation');
    assert.equal(p.DefinitionS3Location, undefined);
    const rendered = render(p.DefinitionString);
    assert.ok(!rendered.includes('${'), `unresolved placeholder in ${rendered}`);
    // Expected: the file, each "${Placeholder}" replaced by the ARN of the function built for it.
    const fileText = readFileSync(join(PROJECT_ROOT, m.def.definitionFile), 'utf8');
    const expected = JSON.parse(
      fileText.replace(/\$\{([A-Za-z0-9_]+)\}/g, (_all, key: string) => {
        if (key === 'BucketName' && m.def.resources?.includes(key)) return `<${bucketId}>`;
        const task = m.tasks.find((t) => t.placeholder === key);
        assert.ok(task, `${key} has a task function`);
        return `<${task.id}.Arn>`;
      }),
    ) as Record<string, unknown>;
    const { TimeoutSeconds: _timeout, ...actual } = JSON.parse(rendered) as Record<string, unknown>;
    assert.deepEqual(actual, expected);
    for (const t of m.tasks) assert.ok(rendered.includes(`"<${t.id}.Arn>"`), `${t.placeholder} is used`);
    // What deploys is valid ASL (the ARN tokens made concrete).
    const concrete = JSON.parse(rendered.replace(/<([A-Za-z0-9]+)\.Arn>/g, 'arn:aws:lambda:us-east-1:123456789012:function:$1'));
    const result = aslValidator(concrete, { checkPaths: true, checkArn: true });
    assert.ok(result.isValid, result.errorsText('; '));
  }
});

test('one Lambda per task, with the handler and sizing of lambdas/state-machines.ts', () => {
  for (const m of machines) {
    assert.equal(m.tasks.length, Object.keys(m.def.tasks).length);
    assert.equal(new Set(m.tasks.map((t) => t.id)).size, m.tasks.length, 'a function of its own per task');
    for (const t of m.tasks) {
      const p = json.Resources[t.id]!.Properties;
      assert.equal(p.Handler, `index.${t.spec.export}`, t.placeholder);
      assert.equal(p.MemorySize, t.spec.memoryMb, t.placeholder);
      assert.equal(p.Timeout, t.spec.timeoutSeconds, t.placeholder);
    }
  }
  const processFile = job.tasks.find((t) => t.spec.export === 'processFile')!;
  assert.equal(json.Resources[processFile.id]!.Properties.MemorySize, 3008);
  assert.equal(json.Resources[processFile.id]!.Properties.Timeout, 900);
});

test('task functions reach the table, bucket, secrets key and service bus (grant and variable together)', () => {
  for (const t of job.tasks) {
    const actions = new Set(statementsOfFunction(t.id).flatMap(actionsOf));
    for (const a of ['dynamodb:UpdateItem', 'dynamodb:PutItem', 's3:GetObject*', 's3:PutObject', 'kms:Decrypt', 'events:PutEvents']) {
      assert.ok(actions.has(a), `${t.placeholder}: ${a}`);
    }
    assert.ok(![...actions].some((a) => a.startsWith('states:')), `${t.placeholder} starts no executions`);
    const env = envOf(t.id);
    for (const name of ['TABLE_NAME', 'BUCKET_NAME', 'KMS_KEY_ID', 'EVENT_BUS_NAME']) assert.ok(env[name], `${t.placeholder}: ${name}`);
    assert.deepEqual(env.EVENT_BUS_NAME, { Ref: busId });
  }
});

test('the state machine role invokes exactly its task functions', () => {
  for (const m of machines) {
    const invoke = statementsOfRole(m.roleId).filter((s) => actionsOf(s).some((a) => a.startsWith('lambda:')));
    assert.ok(invoke.length > 0);
    for (const s of invoke) assert.deepEqual(actionsOf(s), ['lambda:InvokeFunction']);
    const arns = invoke.flatMap(resourcesOf).map(render).sort();
    // unqualified ARNs only, as the ASL names them (no version or alias wildcard)
    assert.deepEqual(arns, m.tasks.map((t) => `<${t.id}.Arn>`).sort());
  }
  // Nobody else may invoke functions.
  const roleIds = new Set(machines.map((m) => m.roleId));
  for (const [policyId, p] of resources('AWS::IAM::Policy')) {
    if ((p.Properties.Roles as { Ref: string }[]).every((r) => roleIds.has(r.Ref))) continue;
    for (const s of p.Properties.PolicyDocument.Statement as Statement[]) {
      assert.ok(!actionsOf(s).some((a) => a.startsWith('lambda:')), `${policyId}: ${JSON.stringify(s)}`);
    }
  }
});

test('IAM: StartExecution only on the job state machine, StopExecution only on its executions, PutEvents only on the service bus', () => {
  const executions = `arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:<${job.id}.Name>:*`;
  const smName = render(json.Resources[job.id]!.Properties.StateMachineName);
  const ownMachine = `arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:stateMachine:${smName}`;
  const childExecutions = `arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:${smName}/*`;
  let starts = 0;
  let puts = 0;
  for (const [policyId, p] of resources('AWS::IAM::Policy')) {
    for (const s of p.Properties.PolicyDocument.Statement as Statement[]) {
      const where = `${policyId}: ${JSON.stringify(s)}`;
      const actions = actionsOf(s);
      for (const a of actions) assert.ok(a !== '*' && !/^(states|events|lambda):.*\*/.test(a), `wildcard action in ${where}`);
      const states = actions.filter((a) => a.startsWith('states:'));
      const ownRole = (p.Properties.Roles as { Ref: string }[]).every((r) => r.Ref === job.roleId);
      if (states.length && ownRole) {
        // the Distributed Map's child executions: of this state machine only (named: a Ref would be circular)
        assert.equal(states.length, actions.length, `states actions only: ${where}`);
        const start = states.includes('states:StartExecution');
        if (start) assert.deepEqual(states, ['states:StartExecution'], where);
        else assert.deepEqual([...states].sort(), ['states:DescribeExecution', 'states:StopExecution'], where);
        assert.equal(render(s.Resource), start ? ownMachine : childExecutions, where);
      } else if (states.length) {
        assert.equal(actions.length, 1, `one states action per statement: ${where}`);
        if (states[0] === 'states:StartExecution') {
          starts++;
          assert.deepEqual(s.Resource, { Ref: job.id }, where);
        } else {
          assert.equal(states[0], 'states:StopExecution', where);
          assert.equal(render(s.Resource), executions, where);
        }
      }
      if (actions.some((a) => a.startsWith('events:'))) {
        puts++;
        assert.deepEqual(actions, ['events:PutEvents'], where);
        assert.deepEqual(s.Resource, getAttArn(busId), where);
      }
    }
  }
  assert.ok(starts > 0 && puts > 0, 'grants exist');
});

test('who may start jobs and publish events: the jobs, workflows and MCP routes, the workflow scheduler, tasks, the cleanup target; each with its variable', () => {
  // the writing routes of the job area (read-only GET routes start nothing: lib/api.ts routeAccess), and
  // the MCP endpoint, whose tools run workflows and cancel jobs through the same services
  const jobAreaRoutes = routeFns.filter((r) => ['jobs', 'workflows', 'mcp'].includes(r.route.handler.file) && r.route.auth !== false && r.route.method !== 'GET');
  assert.ok(jobAreaRoutes.length > 0);
  const cleanup = rules.filter((r) => r.def.target.export === 'jobExecutionEnded').map((r) => r.targetId);
  assert.equal(cleanup.length, 1);
  const scheduler = stack.schedules.tasks.filter((t) => t.definition.handler.file === 'scheduler').map((t) => idOf(t.fn));
  assert.equal(scheduler.length, 1);
  const expectedStarters = new Set([...jobAreaRoutes.map((r) => r.id), ...scheduler]);
  const expectedPublishers = new Set([...expectedStarters, ...job.tasks.map((t) => t.id), ...cleanup]);
  for (const id of allFunctionIds) {
    const actions = new Set(statementsOfFunction(id).flatMap(actionsOf));
    const env = envOf(id);
    const starter = expectedStarters.has(id);
    assert.equal(actions.has('states:StartExecution'), starter, `${id}: StartExecution`);
    assert.equal(actions.has('states:StopExecution'), starter, `${id}: StopExecution`);
    assert.deepEqual(env[job.def.arnEnv], starter ? { Ref: job.id } : undefined, `${id}: ${job.def.arnEnv}`);
    const publisher = expectedPublishers.has(id);
    assert.equal(actions.has('events:PutEvents'), publisher, `${id}: PutEvents`);
    assert.deepEqual(env.EVENT_BUS_NAME, publisher ? { Ref: busId } : undefined, `${id}: EVENT_BUS_NAME`);
  }
});

test('event bus: one, named after the stack', () => {
  template.resourceCountIs('AWS::Events::EventBus', 1);
  assert.equal(json.Resources[busId]!.Properties.Name, `${stack.stackName}-events`);
});

test('event rules: one per EVENT_RULES entry, on its bus, with its pattern (default-bus rules narrowed to our state machine)', () => {
  template.resourceCountIs('AWS::Events::Rule', EVENT_RULES.length + SCHEDULED_TASKS.length);
  assert.deepEqual(rules.map((r) => r.def.name), EVENT_RULES.map((r) => r.name));
  for (const r of rules) {
    const p = json.Resources[r.id]!.Properties;
    assert.equal(p.State, 'ENABLED');
    if (r.def.bus === 'service') {
      assert.deepEqual(p.EventBusName, { Ref: busId }, r.def.name);
      assert.deepEqual(p.EventPattern, r.def.pattern, r.def.name);
    } else {
      assert.equal(p.EventBusName, undefined, `${r.def.name} is on the default bus`);
      const detail = r.def.pattern.detail as EventPattern;
      assert.deepEqual(p.EventPattern, { ...r.def.pattern, detail: { ...detail, stateMachineArn: [{ Ref: job.id }] } }, r.def.name);
    }
  }
});

test('event rules match the events they are for, and only those', () => {
  const concrete = (pattern: unknown, smArn: string): EventPattern =>
    JSON.parse(JSON.stringify(pattern), (_k, v: unknown) => (v && typeof v === 'object' && 'Ref' in v ? smArn : v)) as EventPattern;
  const patternOf = (name: string) => json.Resources[rules.find((r) => r.def.name === name)!.id]!.Properties.EventPattern as unknown;

  const notifications = concrete(patternOf('record-notifications'), '');
  for (const type of JOB_EVENT_TYPES) assert.ok(matchesPattern({ source: EVENT_SOURCE, 'detail-type': type, detail: {} }, notifications), type);
  assert.ok(!matchesPattern({ source: EVENT_SOURCE, 'detail-type': 'job.deleted', detail: {} }, notifications));
  assert.ok(!matchesPattern({ source: 'someone.else', 'detail-type': 'job.failed', detail: {} }, notifications));

  const event = JSON.parse(readFileSync(join(PROJECT_ROOT, 'test', 'infra', 'fixtures', 'sfn-execution-status-change.json'), 'utf8')) as {
    detail: Record<string, unknown>;
  };
  const ours = String(event.detail.stateMachineArn);
  const ended = concrete(patternOf('job-execution-ended'), ours);
  assert.ok(matchesPattern(event, ended), 'a timed-out execution of the job state machine');
  for (const status of ['FAILED', 'ABORTED']) assert.ok(matchesPattern({ ...event, detail: { ...event.detail, status } }, ended), status);
  assert.ok(!matchesPattern({ ...event, detail: { ...event.detail, status: 'SUCCEEDED' } }, ended), 'succeeded');
  assert.ok(!matchesPattern({ ...event, detail: { ...event.detail, stateMachineArn: `${ours}-other` } }, ended), "another application's state machine");
});

test('event targets: the handler of each rule, retried, with a dead-letter queue for undeliverable and failed events', () => {
  for (const r of rules) {
    const p = json.Resources[r.id]!.Properties;
    assert.equal(p.Targets.length, 1, r.def.name);
    const [target] = p.Targets as any[];
    assert.deepEqual(target.Arn, getAttArn(r.targetId), r.def.name);
    assert.deepEqual(target.DeadLetterConfig, { Arn: getAttArn(r.dlqId) }, r.def.name);
    assert.ok(target.RetryPolicy.MaximumRetryAttempts > 0, r.def.name);
    assert.ok(target.RetryPolicy.MaximumEventAgeInSeconds > 0, r.def.name);
    const fn = json.Resources[r.targetId]!.Properties;
    assert.equal(fn.Handler, `index.${r.def.target.export}`, r.def.name);
    // EventBridge may invoke the target (this rule only) and send to the DLQ (this rule only).
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction', FunctionName: getAttArn(r.targetId), Principal: 'events.amazonaws.com', SourceArn: getAttArn(r.id),
    });
    const queuePolicy = resources('AWS::SQS::QueuePolicy').find(([, q]) => (q.Properties.Queues as { Ref: string }[]).some((x) => x.Ref === r.dlqId));
    assert.ok(queuePolicy, `${r.def.name}: DLQ policy`);
    const allows = (queuePolicy[1].Properties.PolicyDocument.Statement as Statement[]).filter((s) => s.Effect === 'Allow');
    assert.deepEqual(allows.map((s) => ({ a: s.Action, p: s.Principal, c: s.Condition })), [
      { a: 'sqs:SendMessage', p: { Service: 'events.amazonaws.com' }, c: { ArnEquals: { 'aws:SourceArn': getAttArn(r.id) } } },
    ]);
    const dlq = json.Resources[r.dlqId]!.Properties;
    assert.equal(dlq.QueueName, `${stack.stackName}-${r.def.name}-dlq`);
    assert.equal(dlq.SqsManagedSseEnabled, true);
    // A handler that throws is retried by Lambda, then its event lands in the same DLQ.
    const [[, invokeConfig]] = resources('AWS::Lambda::EventInvokeConfig').filter(([, c]) => c.Properties.FunctionName.Ref === r.targetId) as [[string, Res]];
    assert.deepEqual(invokeConfig.Properties.DestinationConfig, { OnFailure: { Destination: getAttArn(r.dlqId) } });
    assert.ok(invokeConfig.Properties.MaximumRetryAttempts >= 1);
  }
});

test('outputs: the state machine ARN and the event bus name', () => {
  assert.deepEqual(json.Outputs.StateMachineArn.Value, { Ref: job.id });
  assert.deepEqual(json.Outputs.EventBusName.Value, { Ref: busId });
});

test('substitution and pattern helpers refuse what they cannot map', () => {
  const asl = (resource: string) => JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Task', Resource: resource, End: true } } });
  assert.deepEqual(substitute(asl('${A}'), { A: 'arn:a' }), JSON.parse(asl('arn:a')));
  assert.throws(() => substitute(asl('${B}'), { A: 'arn:a', B: 'arn:b' }), /tasks with no \$\{placeholder\}.*A/);
  assert.throws(() => substitute(asl('${C}'), { A: 'arn:a' }), /\$\{C\} has no task/);
  assert.throws(() => substitute(asl('prefix-${A}'), { A: 'arn:a' }), /placeholder/);
  assert.deepEqual(toCdkPattern({ source: ['x'], 'detail-type': ['y'], detail: { a: ['b'] } }), { source: ['x'], detailType: ['y'], detail: { a: ['b'] } });
  assert.throws(() => toCdkPattern({ 'detail-typo': ['y'] }), /detail-typo/);
});

test('schedule rules: one per SCHEDULED_TASKS entry with its rate, invoking its own function', () => {
  for (const t of stack.schedules.tasks) {
    const rule = json.Resources[idOf(t.rule)]!.Properties;
    assert.equal(rule.ScheduleExpression, t.definition.rate);
    assert.equal(rule.EventPattern, undefined);
    assert.deepEqual(rule.Targets.map((x: { Arn: unknown }) => x.Arn), [getAttArn(idOf(t.fn))]);
    assert.equal(json.Resources[idOf(t.fn)]!.Properties.Handler, `index.${t.definition.handler.export}`);
  }
  assert.deepEqual(stack.schedules.tasks.map((t) => t.definition.name), SCHEDULED_TASKS.map((t) => t.name));
});
