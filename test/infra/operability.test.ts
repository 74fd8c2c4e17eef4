// Operability (issue 12): alarms to an SNS topic (DLQs, executions, Lambda errors/throttles, API
// 5xx/latency), a dashboard of the same, API access logs, S3 server access logs, the synchronous
// partition function bounded by the gateway's 29 s, reserved concurrency for the heavy functions,
// per-key WAF rate limits on the stage, and grants per route (read-only routes cannot write).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROUTES } from '../../lambdas/routes';
import { READ_ONLY_METHODS, READ_ROUTE_EXTRAS } from '../../lib/api';
import { API_KEY_HEADERS } from '../../lib/waf';
import { logicalIdOf, synthStack } from './synth';

type Res = { Type: string; Properties: Record<string, any>; DependsOn?: string[] };
const { stack, template } = synthStack({ alarmEmail: 'ops@example.com' });
const json = template.toJSON() as { Resources: Record<string, Res> };
const of = (type: string) => Object.entries(json.Resources).filter(([, r]) => r.Type === type);
// A labelled metric renders as a one-element Metrics list: lift it to the alarm's top level.
const alarms = of('AWS::CloudWatch::Alarm').map(([, a]) => {
  const p = a.Properties;
  const single = p.Metrics?.length === 1 ? p.Metrics[0].MetricStat : undefined;
  if (!single) return p;
  const stat = single.Stat as string;
  return { ...p, MetricName: single.Metric.MetricName, Dimensions: single.Metric.Dimensions, ...(/^p\d/.test(stat) ? { ExtendedStatistic: stat } : { Statistic: stat }) };
});
const [[topicId]] = of('AWS::SNS::Topic').filter(([id]) => id === logicalIdOf(stack.operations.alarmTopic)) as [[string, Res]];
const str = (v: unknown) => JSON.stringify(v);
/** Every function of the service (routes, tasks, consumers, targets, schedules). */
const ownFunctions = of('AWS::Lambda::Function').filter(([, r]) => r.Properties.Environment?.Variables?.NODE_OPTIONS).map(([id]) => id);

test('alarm topic with the e-mail subscription; every alarm notifies it', () => {
  template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: { Ref: topicId } });
  assert.ok(alarms.length > 0);
  for (const a of alarms) assert.deepEqual(a.AlarmActions, [{ Ref: topicId }], a.AlarmDescription);
});

test('every dead-letter queue: an alarm on visible messages > 0', () => {
  const dlqs = [...stack.queues.queues.map((q) => q.deadLetterQueue), ...stack.events.rules.map((r) => r.deadLetterQueue)];
  assert.ok(dlqs.length >= 5);
  for (const q of dlqs) {
    const id = logicalIdOf(q);
    const a = alarms.find((x) => x.MetricName === 'ApproximateNumberOfMessagesVisible' && str(x.Dimensions).includes(`"${id}"`));
    assert.ok(a, `alarm on ${q.node.path}`);
    assert.equal(a.Threshold, 0);
    assert.equal(a.ComparisonOperator, 'GreaterThanThreshold');
  }
});

test('state machines: failed and timed-out executions alarm', () => {
  for (const m of stack.jobs.machines) {
    const id = logicalIdOf(m.stateMachine);
    for (const metric of ['ExecutionsFailed', 'ExecutionsTimedOut']) {
      assert.ok(alarms.some((a) => a.MetricName === metric && str(a.Dimensions).includes(`"${id}"`)), `${metric} alarm on ${m.definition.name}`);
    }
  }
});

test('Lambda errors and throttles: metric-math alarms that together cover every function', () => {
  for (const metric of ['Errors', 'Throttles']) {
    const covered = new Set<string>();
    for (const a of alarms.filter((x) => x.Metrics?.some((m: any) => m.MetricStat?.Metric?.MetricName === metric))) {
      assert.ok(a.Metrics.length <= 11, 'at most ten metrics and the expression');
      for (const m of a.Metrics.filter((x: any) => x.MetricStat)) covered.add(str(m.MetricStat.Metric.Dimensions[0].Value));
    }
    assert.deepEqual([...covered].sort(), ownFunctions.map((id) => str({ Ref: id })).sort(), `${metric}: every function is in one alarm`);
  }
});

test('API: 5xx and p99 latency alarms on the stage; a dashboard of the same metrics', () => {
  const apiName = of('AWS::ApiGateway::RestApi')[0]![1].Properties.Name;
  assert.equal(apiName, 'TestStack-api');
  const dims = [{ Name: 'ApiName', Value: apiName }, { Name: 'Stage', Value: 'prod' }];
  assert.ok(alarms.some((a) => a.MetricName === '5XXError' && str(a.Dimensions) === str(dims)));
  assert.ok(alarms.some((a) => a.MetricName === 'Latency' && a.ExtendedStatistic === 'p99' && a.Threshold < 29_000));
  const [[, dash]] = of('AWS::CloudWatch::Dashboard') as [[string, Res]];
  const body = str(dash.Properties.DashboardBody);
  for (const m of ['ApproximateNumberOfMessagesVisible', 'ExecutionsFailed', 'ExecutionsTimedOut', 'Errors', 'Throttles', '5XXError', 'Latency']) assert.ok(body.includes(m), `dashboard shows ${m}`);
});

test('API stage access logs: JSON with requestId, ip, caller, resourcePath, status, apiKeyId', () => {
  const [[, st]] = of('AWS::ApiGateway::Stage') as [[string, Res]];
  const dest = str(st.Properties.AccessLogSetting.DestinationArn);
  assert.ok(dest.includes(`:log-group:`) && dest.includes(str({ Ref: logicalIdOf(stack.api.accessLogs) })), dest);
  const format = JSON.parse(st.Properties.AccessLogSetting.Format);
  for (const k of ['requestId', 'ip', 'caller', 'resourcePath', 'status', 'apiKeyId']) assert.ok(k in format, k);
  assert.equal(format.requestId, '$context.requestId');
  assert.equal(format.ip, '$context.identity.sourceIp');
  // access logging needs the account's API Gateway CloudWatch role: kept (retained) by the stack
  const [[, account]] = of('AWS::ApiGateway::Account') as [[string, Res]];
  assert.ok(account.Properties.CloudWatchRoleArn);
});

test('S3 server access logs of the data bucket go to a log bucket of their own', () => {
  const dataId = logicalIdOf(stack.storage.bucket);
  const logId = logicalIdOf(stack.storage.logBucket);
  assert.notEqual(dataId, logId);
  assert.deepEqual(json.Resources[dataId]!.Properties.LoggingConfiguration, { DestinationBucketName: { Ref: logId }, LogFilePrefix: 'data-bucket/' });
  const policy = of('AWS::S3::BucketPolicy').find(([, p]) => str(p.Properties.Bucket) === str({ Ref: logId }))!;
  assert.ok(str(policy[1].Properties.PolicyDocument).includes('logging.s3.amazonaws.com'));
  assert.ok(json.Resources[logId]!.Properties.LifecycleConfiguration.Rules.some((r: any) => r.ExpirationInDays === 90));
});

test('the synchronous partition route function stops at the gateway 29 s (not 900 s)', () => {
  const partition = stack.api.routeFunctions.filter(({ route }) => route.handler.file === 'partition');
  assert.ok(partition.length >= 1);
  for (const { fn } of partition) assert.ok(json.Resources[logicalIdOf(fn)]!.Properties.Timeout <= 29, 'Timeout <= 29');
  for (const { fn } of stack.api.routeFunctions) assert.ok(json.Resources[logicalIdOf(fn)]!.Properties.Timeout <= 29);
});

test('reserved concurrency: partition and file processing by default, none when turned off', () => {
  const partition = stack.api.routeFunctions.find(({ route }) => route.handler.file === 'partition')!.fn;
  const processFile = stack.jobs.machine('job').tasks.find((t) => t.placeholder === 'ProcessFileFunctionArn')!.fn;
  assert.equal(json.Resources[logicalIdOf(partition)]!.Properties.ReservedConcurrentExecutions, 10);
  assert.equal(json.Resources[logicalIdOf(processFile)]!.Properties.ReservedConcurrentExecutions, 25);
  // a long PDF's page ranges are file processing too (job-pages.ts): the same reservation
  const pageRange = stack.jobs.machine('job').tasks.find((t) => t.placeholder === 'PartitionPageRangeFunctionArn')!.fn;
  assert.equal(json.Resources[logicalIdOf(pageRange)]!.Properties.ReservedConcurrentExecutions, 25);
  const others = ownFunctions.filter((id) => ![partition, processFile, pageRange].some((f) => id === logicalIdOf(f)));
  for (const id of others) assert.equal(json.Resources[id]!.Properties.ReservedConcurrentExecutions, undefined, id);
});

test('per-key limits: a WAF WebACL on the stage, rate-based on each API-key header and on the IP of keyless requests', () => {
  const [[aclId, acl]] = of('AWS::WAFv2::WebACL') as [[string, Res]];
  assert.equal(acl.Properties.Scope, 'REGIONAL');
  const rules = acl.Properties.Rules as any[];
  for (const header of API_KEY_HEADERS) {
    const r = rules.find((x) => str(x.Statement.RateBasedStatement?.CustomKeys) === str([{ Header: { Name: header, TextTransformations: [{ Priority: 0, Type: 'NONE' }] } }]));
    assert.ok(r, `rate rule keyed on ${header}`);
    assert.equal(r.Statement.RateBasedStatement.AggregateKeyType, 'CUSTOM_KEYS');
    assert.equal(r.Action.Block.CustomResponse.ResponseCode, 429);
  }
  assert.ok(API_KEY_HEADERS.includes('unstructured-api-key'));
  assert.ok(rules.some((x) => x.Statement.RateBasedStatement?.AggregateKeyType === 'IP'));
  const [[, assoc]] = of('AWS::WAFv2::WebACLAssociation') as [[string, Res]];
  assert.deepEqual(assoc.Properties.WebACLArn, { 'Fn::GetAtt': [aclId, 'Arn'] });
  const arn = str(assoc.Properties.ResourceArn);
  assert.ok(arn.includes('::/restapis/') && arn.includes(`"/stages/",${str({ Ref: logicalIdOf(stack.api.stage) })}`), arn);
});

test('grants per route: a read-only route gets no S3 put/delete, no Start/StopExecution, no KMS Encrypt, no sends', () => {
  const statementsOf = (fnId: string) => {
    const roleId = json.Resources[fnId]!.Properties.Role['Fn::GetAtt'][0];
    return of('AWS::IAM::Policy').filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === roleId)).flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
  };
  let reads = 0;
  for (const { route, fn } of stack.api.routeFunctions) {
    if (!READ_ONLY_METHODS.has(route.method) || route.auth === false) continue;
    reads++;
    const actions = statementsOf(logicalIdOf(fn)).flatMap((s: any) => [s.Action].flat() as string[]);
    const where = `${route.method} ${route.path}`;
    assert.ok(!actions.some((a) => /^s3:(PutObject|DeleteObject|Abort)/.test(a)), `${where}: no S3 write`);
    assert.ok(!actions.some((a) => /^states:(StartExecution|StopExecution)$/.test(a)), `${where}: no executions`);
    assert.ok(!actions.some((a) => a === 'sqs:SendMessage' || a === 'events:PutEvents' || a.startsWith('ses:')), `${where}: no sends`);
    if (!READ_ROUTE_EXTRAS[route.handler.file]?.secrets) assert.ok(!actions.includes('kms:Encrypt'), `${where}: no KMS Encrypt`);
  }
  assert.ok(reads >= 20, 'the read routes were checked');
  // and a writing route of the same files keeps its grants
  const create = stack.api.routeFunctions.find(({ route }) => route.operationId === ROUTES.find((r) => r.method === 'POST' && r.path === '/api/v1/jobs/')!.operationId)!;
  const actions = statementsOf(logicalIdOf(create.fn)).flatMap((s: any) => [s.Action].flat() as string[]);
  assert.ok(actions.includes('states:StartExecution') && actions.includes('s3:PutObject') && actions.includes('kms:Encrypt'));
});

test('reserved concurrency off', () => {
  const off = synthStack({ reservedConcurrency: false });
  const j = off.template.toJSON() as { Resources: Record<string, Res> };
  assert.ok(Object.values(j.Resources).every((r) => r.Type !== 'AWS::Lambda::Function' || r.Properties.ReservedConcurrentExecutions === undefined));
});
