// CDK assertions over the synthesized stack: one function per route, queue consumer, job task and
// event rule target, their runtime and wiring, the API methods for every route, the table, bucket,
// key and queues, and least-privilege IAM where each grant comes with its environment variable.
// The state machine and the event rules themselves are checked in jobs-events.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RemovalPolicy, type CfnElement } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { ROUTES } from '../../lambdas/routes';
import { QUEUES } from '../../lambdas/queues';
import { TABLE_DEFINITION } from '../../lambdas/data/table-definition';
import { STATE_MACHINES } from '../../lambdas/state-machines';
import { EVENT_RULES } from '../../lambdas/events';
import { SCHEDULED_TASKS } from '../../lambdas/schedules';
import { HANDLERS_DIR } from '../../lib/base-function';
import { BINARY_MEDIA_TYPES, HANDLER_ACCESS, resourcePath, routeAccess } from '../../lib/api';
import { stackPropsFromContext } from '../../lib/context';
import { TASK_ACCESS } from '../../lib/jobs';
import { targetAccess } from '../../lib/events';
import { consumerAccess } from '../../lib/queues';
import { JOB_DATA_PREFIX } from '../../lib/storage';
import { logicalIdOf, synthStack } from './synth';

type Res = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };

const { stack, template } = synthStack();
const json = template.toJSON() as { Resources: Record<string, Res> };
const resources = (type: string) => Object.entries(json.Resources).filter(([, r]) => r.Type === type);
const idOf = (c: { node: { defaultChild?: unknown } }) => logicalIdOf(c);
const tableId = idOf(stack.data.table);
const keyId = idOf(stack.secrets.key);
const bucketId = idOf(stack.storage.bucket);
const fnIdOf = (fn: CfnElement | { node: { defaultChild?: unknown } }) => idOf(fn as { node: { defaultChild?: unknown } });

/** Statements of the inline policies attached to a function's role. */
function statementsOf(functionId: string): { Action: string | string[]; Resource: unknown; Effect: string }[] {
  const roleId = json.Resources[functionId]!.Properties.Role['Fn::GetAtt'][0] as string;
  return resources('AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
}
const actionsOf = (s: { Action: string | string[] }) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
const envOf = (functionId: string) => (json.Resources[functionId]!.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;

const routeFunctionIds = stack.api.routeFunctions.map(({ route, fn }) => ({ route, id: fnIdOf(fn) }));
const consumerIds = stack.queues.queues.map((q) => ({ def: q.definition, id: fnIdOf(q.consumer) }));
const taskIds = stack.jobs.machines.flatMap((m) => m.tasks.map((t) => ({ label: `${m.definition.name} ${t.placeholder}`, id: fnIdOf(t.fn) })));
const targetIds = stack.events.rules.map((r) => ({ def: r.definition, id: fnIdOf(r.target) }));
const TASK_COUNT = STATE_MACHINES.reduce((n, m) => n + Object.keys(m.tasks).length, 0);
/** Functions of the service: routes, queue consumers, state machine tasks, event rule targets. */
const OWN_FUNCTION_COUNT = ROUTES.length + QUEUES.length + TASK_COUNT + EVENT_RULES.length + SCHEDULED_TASKS.length;
/** What Step Functions needs for log delivery (vended logs): these actions take no resource ARN. */
const SFN_LOG_DELIVERY_ACTIONS = [
  'logs:CreateLogDelivery', 'logs:GetLogDelivery', 'logs:UpdateLogDelivery', 'logs:DeleteLogDelivery', 'logs:ListLogDeliveries',
  'logs:PutResourcePolicy', 'logs:DescribeResourcePolicies', 'logs:DescribeLogGroups',
];
const stateMachineRoleIds = stack.jobs.machines.map((m) => idOf(m.stateMachine.role as unknown as { node: { defaultChild?: unknown } }));

test('one Lambda per route, queue consumer, job task and event rule target, nothing else', () => {
  template.resourceCountIs('AWS::Lambda::Function', OWN_FUNCTION_COUNT);
  assert.equal(new Set(routeFunctionIds.map((r) => r.id)).size, ROUTES.length);
  assert.equal(new Set(taskIds.map((t) => t.id)).size, TASK_COUNT);
  assert.equal(new Set(targetIds.map((t) => t.id)).size, EVENT_RULES.length);
});

test('every function: Node.js 22 on arm64, traced, source maps, own log group with retention', () => {
  for (const [id, fn] of resources('AWS::Lambda::Function')) {
    const p = fn.Properties;
    assert.equal(p.Runtime, 'nodejs22.x', id);
    assert.deepEqual(p.Architectures, ['arm64'], id);
    assert.deepEqual(p.TracingConfig, { Mode: 'Active' }, id);
    assert.equal(p.Environment.Variables.NODE_OPTIONS, '--enable-source-maps', id);
    const logGroupId = p.LoggingConfig?.LogGroup?.Ref as string;
    assert.ok(logGroupId, `${id} has no log group`);
    assert.equal(json.Resources[logGroupId]!.Type, 'AWS::Logs::LogGroup');
    assert.ok(json.Resources[logGroupId]!.Properties.RetentionInDays > 0, `${id} log retention`);
  }
});

test('route functions: handler, sizing and environment from the route table', () => {
  for (const { route, id } of routeFunctionIds) {
    const p = json.Resources[id]!.Properties;
    assert.equal(p.Handler, `index.${route.handler.export}`, route.operationId);
    assert.equal(p.MemorySize, route.memoryMb ?? 512, route.operationId);
    assert.equal(p.Timeout, Math.min(route.timeoutSeconds ?? 29, 29), route.operationId);
    assert.equal(p.Environment.Variables.AUTH_MODE, 'keyed', route.operationId);
    assert.equal(p.Environment.Variables.CONNECTORS_DENY_PRIVATE_NETWORKS, 'true', route.operationId);
    assert.ok(existsSync(join(HANDLERS_DIR, `${route.handler.file}.ts`)), `${route.handler.file}.ts exists`);
  }
});

test('every route and consumer names an exported handler function', async () => {
  const wanted = [...ROUTES.map((r) => r.handler), ...QUEUES.map((q) => q.handler)];
  for (const h of wanted) {
    const mod = (await import(pathToFileURL(join(HANDLERS_DIR, `${h.file}.ts`)).href)) as Record<string, unknown>;
    assert.equal(typeof mod[h.export], 'function', `lambdas/handlers/${h.file}.ts exports ${h.export}`);
  }
});

test('API: a proxy method for every route on the resource of its path, a 405 mock for other methods', () => {
  const [[apiId, api]] = resources('AWS::ApiGateway::RestApi') as [[string, Res]];
  assert.deepEqual([...api.Properties.BinaryMediaTypes].sort(), [...BINARY_MEDIA_TYPES].sort());
  assert.ok(api.Properties.BinaryMediaTypes.includes('multipart/form-data'));
  const pathOf = (ref: any): string => {
    if (ref['Fn::GetAtt']) {
      assert.deepEqual(ref['Fn::GetAtt'], [apiId, 'RootResourceId']);
      return '';
    }
    const r = json.Resources[ref.Ref as string]!;
    const parent = pathOf(r.Properties.ParentId);
    return parent ? `${parent}/${r.Properties.PathPart}` : r.Properties.PathPart;
  };
  const methods = resources('AWS::ApiGateway::Method').map(([, m]) => ({
    method: m.Properties.HttpMethod as string,
    path: pathOf(m.Properties.ResourceId),
    integration: m.Properties.Integration,
    auth: m.Properties.AuthorizationType,
  }));
  // -- `/` itself: GET redirects to the web console (a mock, no function), anything else is a 404 --
  const root = methods.filter((m) => m.path === '');
  const rootGet = root.find((m) => m.method === 'GET')!;
  assert.equal(rootGet.integration.Type, 'MOCK');
  assert.equal(rootGet.integration.IntegrationResponses[0].StatusCode, '302');
  assert.equal(rootGet.integration.IntegrationResponses[0].ResponseParameters['method.response.header.Location'], "'/prod/console'");
  assert.ok(ROUTES.some((r) => r.path === '/console' && r.method === 'GET'), 'the console is a route of its own');
  const routed = methods.filter((m) => m.method !== 'ANY' && m.path !== '');
  assert.equal(routed.length, ROUTES.length);
  for (const { route, id } of routeFunctionIds) {
    const m = routed.find((x) => x.method === route.method && x.path === resourcePath(route.path));
    assert.ok(m, `no ${route.method} method on /${resourcePath(route.path)} for ${route.operationId}`);
    assert.equal(m.integration.Type, 'AWS_PROXY');
    assert.equal(m.integration.IntegrationHttpMethod, 'POST');
    assert.ok(JSON.stringify(m.integration.Uri).includes(`"${id}"`), `${route.operationId} integrates its own function`);
    assert.equal(m.auth, 'NONE');
  }
  // Every routed path answers other methods with a mock 405 that lists the allowed ones.
  const paths = [...new Set(ROUTES.map((r) => resourcePath(r.path)))];
  const anys = methods.filter((m) => m.method === 'ANY');
  // `/` has no route: its mock answers 404 like an unknown path (and gives the RestApi, built in a
  // nested stack of its own, a method of its own).
  const rootAny = anys.find((m) => m.path === '');
  assert.equal(rootAny?.integration.Type, 'MOCK');
  assert.deepEqual(rootAny.integration.IntegrationResponses, [{ StatusCode: '404', ResponseTemplates: { 'application/json': '{"detail":"Not Found"}' } }]);
  assert.deepEqual(anys.filter((m) => m.path !== '').map((m) => m.path).sort(), [...paths].sort());
  for (const a of anys.filter((m) => m.path !== '')) {
    assert.equal(a.integration.Type, 'MOCK');
    const allowed = ROUTES.filter((r) => resourcePath(r.path) === a.path).map((r) => r.method).sort().join(', ');
    assert.deepEqual(a.integration.IntegrationResponses, [
      {
        StatusCode: '405',
        ResponseParameters: { 'method.response.header.Allow': `'${allowed}'` },
        ResponseTemplates: { 'application/json': '{"detail":"Method Not Allowed"}' },
      },
    ]);
  }
  // The trailing slash of a collection path is not a resource of its own.
  assert.ok(!resources('AWS::ApiGateway::Resource').some(([, r]) => r.Properties.PathPart === ''));
  template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', { ResponseType: 'MISSING_AUTHENTICATION_TOKEN', StatusCode: '404' });
  template.hasResourceProperties('AWS::ApiGateway::Stage', {
    StageName: 'prod',
    TracingEnabled: true,
    MethodSettings: Match.arrayWith([Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 })]),
  });
});

test('resource paths: segments, trailing slash and parameters', () => {
  assert.equal(resourcePath('/api/v1/sources/'), 'api/v1/sources');
  assert.equal(resourcePath('/api/v1/sources/{source_id}/connection-check'), 'api/v1/sources/{source_id}/connection-check');
  assert.equal(resourcePath('/'), '');
});

test('table: keys, indexes, on-demand, point-in-time recovery, TTL, retained', () => {
  template.resourceCountIs('AWS::DynamoDB::Table', 1);
  const t = json.Resources[tableId]!;
  assert.equal(t.Type, 'AWS::DynamoDB::Table');
  assert.equal(t.DeletionPolicy, 'Retain');
  assert.equal(t.UpdateReplacePolicy, 'Retain');
  const p = t.Properties;
  assert.deepEqual(p.KeySchema, [
    { AttributeName: TABLE_DEFINITION.partitionKey, KeyType: 'HASH' },
    { AttributeName: TABLE_DEFINITION.sortKey, KeyType: 'RANGE' },
  ]);
  assert.equal(p.BillingMode, 'PAY_PER_REQUEST');
  assert.deepEqual(p.PointInTimeRecoverySpecification, { PointInTimeRecoveryEnabled: true });
  assert.deepEqual(p.TimeToLiveSpecification, { AttributeName: TABLE_DEFINITION.ttlAttribute, Enabled: true });
  assert.deepEqual(
    p.GlobalSecondaryIndexes.map((g: any) => ({ name: g.IndexName, keys: g.KeySchema, projection: g.Projection.ProjectionType })),
    TABLE_DEFINITION.indexes.map((i) => ({
      name: i.name,
      keys: [{ AttributeName: i.partitionKey, KeyType: 'HASH' }, { AttributeName: i.sortKey, KeyType: 'RANGE' }],
      projection: 'ALL',
    })),
  );
  const attrs = new Set([TABLE_DEFINITION.partitionKey, TABLE_DEFINITION.sortKey, ...TABLE_DEFINITION.indexes.flatMap((i) => [i.partitionKey, i.sortKey])]);
  assert.deepEqual(
    [...p.AttributeDefinitions].sort((a: any, b: any) => a.AttributeName.localeCompare(b.AttributeName)),
    [...attrs].sort().map((name) => ({ AttributeName: name, AttributeType: 'S' })),
  );
});

test('bucket: encrypted, private, TLS only, job data expires', () => {
  template.resourceCountIs('AWS::S3::Bucket', 2); // data + its server access logs (operability.test.ts)
  const b = json.Resources[bucketId]!;
  assert.equal(b.DeletionPolicy, 'Retain');
  assert.deepEqual(b.Properties.BucketEncryption.ServerSideEncryptionConfiguration, [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }]);
  assert.deepEqual(b.Properties.PublicAccessBlockConfiguration, {
    BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true,
  });
  const rules = b.Properties.LifecycleConfiguration.Rules as any[];
  assert.ok(rules.some((r) => r.Prefix === 'jobs/' && r.ExpirationInDays === 30 && r.Status === 'Enabled'), JSON.stringify(rules));
  template.hasResourceProperties('AWS::S3::BucketPolicy', {
    Bucket: { Ref: bucketId },
    PolicyDocument: {
      Statement: Match.arrayWith([
        Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      ]),
    },
  });
});

test('secrets key: rotation on, retained', () => {
  const k = json.Resources[keyId]!;
  assert.equal(k.Type, 'AWS::KMS::Key');
  assert.equal(k.Properties.EnableKeyRotation, true);
  assert.equal(k.DeletionPolicy, 'Retain');
});

test('queues: one queue with a dead-letter redrive and a partial-batch consumer per definition', () => {
  // Work queues with their DLQs, and one DLQ per event rule (jobs-events.test.ts).
  template.resourceCountIs('AWS::SQS::Queue', QUEUES.length * 2 + EVENT_RULES.length);
  for (const q of stack.queues.queues) {
    const def = q.definition;
    const queue = json.Resources[idOf(q.queue)]!.Properties;
    const dlqId = idOf(q.deadLetterQueue);
    assert.equal(queue.QueueName, `${stack.stackName}-${def.name}`);
    assert.equal(json.Resources[dlqId]!.Properties.QueueName, `${stack.stackName}-${def.name}-dlq`);
    assert.equal(queue.VisibilityTimeout, def.visibilityTimeoutSeconds);
    assert.deepEqual(queue.RedrivePolicy, { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: def.maxReceiveCount });
    const consumerId = fnIdOf(q.consumer);
    const consumer = json.Resources[consumerId]!.Properties;
    assert.equal(consumer.Handler, `index.${def.handler.export}`);
    assert.ok(consumer.Timeout <= def.visibilityTimeoutSeconds, 'function timeout fits the visibility timeout');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [idOf(q.queue), 'Arn'] },
      FunctionName: { Ref: consumerId },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  }
  // README (Notification channels → Retries): a delivery is dead-lettered after 8 receives. The local
  // queue is made from the same definition; test/e2e/channel-retries.test.ts counts the 8 there.
  const deliveries = stack.queues.queues.find((q) => q.definition.name === 'notification-deliveries')!;
  assert.equal(json.Resources[idOf(deliveries.queue)]!.Properties.RedrivePolicy.maxReceiveCount, 8);
});

test('IAM: no wildcard actions; "*" resources only for X-Ray and state machine log delivery; DynamoDB item actions on the table and its named indexes only', () => {
  const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
  const indexArns = TABLE_DEFINITION.indexes.map((i) => ({ 'Fn::Join': ['', [tableArn, `/index/${i.name}`]] }));
  for (const [policyId, policy] of resources('AWS::IAM::Policy')) {
    for (const s of policy.Properties.PolicyDocument.Statement) {
      const actions = actionsOf(s);
      const where = `${policyId}: ${JSON.stringify(s)}`;
      assert.equal(s.Effect, 'Allow', where);
      for (const a of actions) assert.ok(a !== '*' && !a.endsWith(':*'), `wildcard action in ${where}`);
      const resourceList = Array.isArray(s.Resource) ? s.Resource : [s.Resource];
      if (resourceList.includes('*')) {
        const ofStateMachine = (policy.Properties.Roles as { Ref: string }[]).every((r) => stateMachineRoleIds.includes(r.Ref));
        const allowed = (a: string) => a.startsWith('xray:') || (ofStateMachine && SFN_LOG_DELIVERY_ACTIONS.includes(a));
        assert.ok(actions.every(allowed), `"*" resource in ${where}`);
      }
      if (actions.some((a) => a.startsWith('dynamodb:'))) {
        assert.ok(actions.every((a) => a.startsWith('dynamodb:')), where);
        assert.ok(!actions.includes('dynamodb:Scan') && !actions.some((a) => /Table$|Stream|Records|ShardIterator/.test(a)), where);
        assert.deepEqual(resourceList.map((r: unknown) => JSON.stringify(r)).sort(), [tableArn, ...indexArns].map((r) => JSON.stringify(r)).sort(), where);
      }
      if (actions.some((a) => a.startsWith('s3:'))) {
        const bucketArn = { 'Fn::GetAtt': [bucketId, 'Arn'] };
        // objects under one of its prefixes or of one name under it (the job state machine's manifests and map results)
        const underPrefix = (r: any) => r?.['Fn::Join']?.[0] === '' && JSON.stringify(r['Fn::Join'][1][0]) === JSON.stringify(bucketArn) && /^\/[\w/-]+\/\*(\/[\w.-]+)?$/.test(r['Fn::Join'][1][1]);
        // a function: the bucket (listing) and the objects under jobs/, where the service keeps all it stores
        if (!resourceList.every(underPrefix)) assert.deepEqual(resourceList.map((r: unknown) => JSON.stringify(r)).sort(), [bucketArn, { 'Fn::Join': ['', [bucketArn, `/${JOB_DATA_PREFIX}*`]] }].map((r) => JSON.stringify(r)).sort(), where);
        assert.ok(!actions.some((a) => /^s3:(PutBucket|DeleteBucket|PutObjectAcl)/.test(a)), where);
      }
      if (actions.some((a) => a.startsWith('ses:'))) {
        assert.deepEqual(actions, ['ses:SendEmail'], where);
        assert.ok(resourceList.every((r: unknown) => /:ses:.*:(identity|configuration-set)\/\*/.test(JSON.stringify(r))), where);
      }
      if (actions.some((a) => a.startsWith('kms:'))) {
        assert.ok(actions.includes('kms:Decrypt') && actions.every((a) => a === 'kms:Decrypt' || a === 'kms:Encrypt'), where);
        assert.deepEqual(resourceList, [{ 'Fn::GetAtt': [keyId, 'Arn'] }], where);
      }
    }
  }
});

test('IAM: each grant comes with its variable, per the route access profile', () => {
  const queueRef = (name: string) => ({ Ref: idOf(stack.queues.queues.find((q) => q.definition.name === name)!.queue) });
  const check = (id: string, label: string, expected: ReturnType<typeof routeAccess>, ownQueue?: string) => {
    const statements = statementsOf(id);
    const actions = new Set(statements.flatMap(actionsOf));
    const env = envOf(id);
    const has = (prefix: string) => [...actions].some((a) => a.startsWith(prefix));
    assert.equal(has('dynamodb:'), Boolean(expected.table), `${label}: table grant`);
    assert.equal(actions.has('dynamodb:PutItem'), expected.table === 'readwrite', `${label}: table write`);
    assert.deepEqual(env.TABLE_NAME, expected.table ? { Ref: tableId } : undefined, `${label}: TABLE_NAME`);
    assert.equal(has('kms:'), Boolean(expected.secrets), `${label}: key grant`);
    assert.equal(actions.has('kms:Encrypt'), expected.secrets === true, `${label}: key encrypt grant`);
    assert.equal(actions.has('s3:PutObject'), expected.bucket === 'readwrite', `${label}: bucket write grant`);
    assert.deepEqual(env.KMS_KEY_ID, expected.secrets ? { 'Fn::GetAtt': [keyId, 'Arn'] } : undefined, `${label}: KMS_KEY_ID`);
    assert.equal(has('s3:'), Boolean(expected.bucket), `${label}: bucket grant`);
    assert.deepEqual(env.BUCKET_NAME, expected.bucket ? { Ref: bucketId } : undefined, `${label}: BUCKET_NAME`);
    // Event targets also send to their own DLQ (on-failure destination); only producers reach work queues.
    const workQueueArns = stack.queues.queues.map((q) => JSON.stringify({ 'Fn::GetAtt': [idOf(q.queue), 'Arn'] }));
    const sendsToWorkQueue = statements.some(
      (st) => actionsOf(st).includes('sqs:SendMessage') && [st.Resource].flat().some((r: unknown) => workQueueArns.includes(JSON.stringify(r))),
    );
    assert.equal(sendsToWorkQueue, Boolean(expected.producer), `${label}: send grant`);
    for (const q of QUEUES) assert.deepEqual(env[q.urlEnv], expected.producer || ownQueue === q.name ? queueRef(q.name) : undefined, `${label}: ${q.urlEnv}`);
    assert.equal(actions.has('ses:SendEmail'), Boolean(expected.email), `${label}: SES send grant`);
    assert.equal(actions.has('states:StartExecution'), Boolean(expected.jobs), `${label}: start grant`);
    assert.equal(actions.has('states:StopExecution'), Boolean(expected.jobs), `${label}: stop grant`);
    assert.deepEqual(env.JOB_STATE_MACHINE_ARN, expected.jobs ? { Ref: idOf(stack.jobs.machine('job').stateMachine) } : undefined, `${label}: JOB_STATE_MACHINE_ARN`);
    assert.equal(actions.has('events:PutEvents'), Boolean(expected.publisher), `${label}: put-events grant`);
    assert.deepEqual(env.EVENT_BUS_NAME, expected.publisher ? { Ref: idOf(stack.events.bus) } : undefined, `${label}: EVENT_BUS_NAME`);
  };
  for (const { route, id } of routeFunctionIds) check(id, route.operationId, routeAccess(route));
  for (const { def, id } of consumerIds) {
    const { ownQueueUrl, ...access } = consumerAccess(def);
    check(id, `${def.name} consumer`, access, ownQueueUrl ? def.name : undefined);
  }
  for (const { label, id } of taskIds) check(id, label, TASK_ACCESS);
  for (const { def, id } of targetIds) check(id, `${def.name} target`, targetAccess(def.target));
  // Every route's handler module has a declared profile; public routes touch nothing;
  // authenticated ones can at least read API keys.
  for (const route of ROUTES) {
    assert.ok(route.handler.file in HANDLER_ACCESS, `declare what lambdas/handlers/${route.handler.file}.ts may touch in HANDLER_ACCESS (lib/api.ts)`);
    if (route.auth === false) assert.deepEqual(routeAccess(route), {}, route.operationId);
    else assert.ok(routeAccess(route).table, route.operationId);
  }
});

test('the MCP route: POST /mcp on its own function (index.mcp), the grants of every service its tools call', () => {
  const routes = ROUTES.filter((r) => resourcePath(r.path) === 'mcp');
  assert.deepEqual(routes.map((r) => r.method), ['POST'], 'stateless: POST only (GET and DELETE answer the 405 mock)');
  const { route, id } = routeFunctionIds.find((r) => r.route.operationId === 'mcp')!;
  const p = json.Resources[id]!.Properties;
  assert.equal(p.Handler, 'index.mcp');
  assert.equal(p.Timeout, 29, 'within the API Gateway integration timeout');
  assert.equal(p.MemorySize, route.memoryMb, 'sized for partition_document, as the partition route');
  const access = routeAccess(route);
  // -- the union of the connector, job, workflow and notification routes' profiles --
  for (const file of ['connectors', 'jobs', 'workflows', 'notifications']) {
    for (const [k, v] of Object.entries(HANDLER_ACCESS[file]!)) assert.ok((access as Record<string, unknown>)[k] === v || (access as Record<string, unknown>)[k] === 'readwrite' || (access as Record<string, unknown>)[k] === true, `mcp ⊇ ${file}.${k}`);
  }
  const actions = statementsOf(id).flatMap(actionsOf);
  // -- an action granted by name or by a trailing wildcard (s3:GetObject*) --
  const may = (a: string) => actions.some((x) => x === a || (x.endsWith('*') && a.startsWith(x.slice(0, -1))));
  for (const a of ['dynamodb:PutItem', 's3:PutObject', 's3:GetObject', 'kms:Encrypt', 'kms:Decrypt', 'states:StartExecution', 'states:StopExecution', 'events:PutEvents', 'sqs:SendMessage']) {
    assert.ok(may(a), `mcp function may ${a}`);
  }
  assert.equal(may('ses:SendEmail'), false, 'no tool sends mail');
  assert.equal(envOf(id).AUTH_MODE, 'keyed');
});

test('stack props: private mode, throw-away resources, shorter job data expiry, x86_64', () => {
  const { template: t, stack: s } = synthStack({
    authMode: 'none', removalPolicy: RemovalPolicy.DESTROY, jobDataExpirationDays: 7, defaultAccountId: 'acme', architecture: lambda.Architecture.X86_64,
  });
  const j = t.toJSON() as { Resources: Record<string, Res> };
  const own = Object.entries(j.Resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.NODE_OPTIONS);
  assert.equal(own.length, OWN_FUNCTION_COUNT);
  for (const [id, fn] of own) {
    assert.equal(fn.Properties.Environment.Variables.AUTH_MODE, 'none', id);
    assert.equal(fn.Properties.Environment.Variables.DEFAULT_ACCOUNT_ID, 'acme', id);
    assert.deepEqual(fn.Properties.Architectures, ['x86_64'], id);
  }
  const table = j.Resources[s.getLogicalId(s.data.table.node.defaultChild as CfnElement)]!;
  assert.equal(table.DeletionPolicy, 'Delete');
  assert.equal(table.Properties.DeletionProtectionEnabled, false);
  const bucket = j.Resources[s.getLogicalId(s.storage.bucket.node.defaultChild as CfnElement)]!;
  assert.equal(bucket.DeletionPolicy, 'Delete');
  assert.ok(bucket.Properties.LifecycleConfiguration.Rules.some((r: any) => r.Prefix === 'jobs/' && r.ExpirationInDays === 7));
});

test('context values become validated stack props', () => {
  const ctx = (values: Record<string, unknown>) => stackPropsFromContext((k) => values[k]);
  const defaults = ctx({});
  assert.equal(defaults.stackName, 'WorkflowService');
  assert.equal(defaults.props.authMode, 'keyed');
  assert.equal(defaults.props.removalPolicy, RemovalPolicy.RETAIN);
  const custom = ctx({ stackName: 'Wps', authMode: 'none', removalPolicy: 'destroy', jobDataExpirationDays: '14' });
  assert.equal(custom.stackName, 'Wps');
  assert.equal(custom.props.authMode, 'none');
  assert.equal(custom.props.removalPolicy, RemovalPolicy.DESTROY);
  assert.equal(custom.props.jobDataExpirationDays, 14);
  assert.equal(defaults.props.architecture, lambda.Architecture.ARM_64);
  assert.equal(ctx({ architecture: 'x86_64' }).props.architecture, lambda.Architecture.X86_64);
  assert.throws(() => ctx({ architecture: 'arm' }), /architecture/);
  assert.throws(() => ctx({ authMode: 'open' }), /authMode/);
  assert.throws(() => ctx({ removalPolicy: 'snapshot' }), /removalPolicy/);
  assert.throws(() => ctx({ jobDataExpirationDays: '0' }), /jobDataExpirationDays/);
  assert.equal(defaults.props.denyPrivateNetworks, true);
  assert.equal(ctx({ denyPrivateNetworks: 'false' }).props.denyPrivateNetworks, false);
  assert.throws(() => ctx({ denyPrivateNetworks: 'no' }), /denyPrivateNetworks/);
  assert.equal(defaults.props.allowAmbientCredentials, false);
  assert.equal(ctx({ allowAmbientCredentials: 'true' }).props.allowAmbientCredentials, true);
  assert.throws(() => ctx({ allowAmbientCredentials: 'yes' }), /allowAmbientCredentials/);
  assert.equal(defaults.props.allowOfflineStandIns, false);
  assert.equal(ctx({ allowOfflineStandIns: 'true' }).props.allowOfflineStandIns, true);
  assert.throws(() => ctx({ allowOfflineStandIns: 'yes' }), /allowOfflineStandIns/);
  assert.equal(defaults.props.reservedConcurrency, undefined, 'the stack default applies');
  assert.equal(ctx({ reservedConcurrency: 'off' }).props.reservedConcurrency, false);
  assert.deepEqual(ctx({ reservedConcurrency: '5,12' }).props.reservedConcurrency, { partition: 5, fileProcessing: 12 });
  assert.throws(() => ctx({ reservedConcurrency: '5' }), /reservedConcurrency/);
  assert.equal(ctx({ perKeyRateLimit: '600' }).props.perKeyRateLimit, 600);
  assert.throws(() => ctx({ perKeyRateLimit: '5' }), /perKeyRateLimit/);
  assert.equal(ctx({ notificationFromDomain: 'mail.example.com' }).props.notificationFromDomain, 'mail.example.com');
  assert.equal(ctx({ alarmEmail: 'ops@example.com' }).props.alarmEmail, 'ops@example.com');
});

test("connector role: denies the service's bucket, table, key and roles; only connector-I/O functions may assume it, with its variables", () => {
  const roleId = idOf(stack.connectorRole.role);
  const role = json.Resources[roleId]!;
  const bucketArn = { 'Fn::GetAtt': [bucketId, 'Arn'] };
  const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
  const keyArn = { 'Fn::GetAtt': [keyId, 'Arn'] };
  const statements = role.Properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
  const denyResources = statements.find((st: any) => st.Effect === 'Deny' && st.Action === '*');
  const sorted = (list: unknown[]) => list.map((x) => JSON.stringify(x)).sort();
  assert.deepEqual(
    sorted(denyResources.Resource),
    sorted([bucketArn, { 'Fn::Join': ['', [bucketArn, '/*']] }, tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }, keyArn]),
  );
  const denyRoles = statements.find((st: any) => st.Effect === 'Deny' && st.Action !== '*');
  assert.deepEqual([...denyRoles.Action].sort(), ['iam:*', 'sts:AssumeRole']);
  assert.ok(JSON.stringify(denyRoles.Resource).includes(`:role/${stack.stackName}-*`), JSON.stringify(denyRoles.Resource));
  // No Allow reaches the service's resources by name (the Deny wins over the "*" allows anyway).
  for (const st of statements.filter((x: any) => x.Effect === 'Allow')) assert.ok(!JSON.stringify(st.Resource).includes(bucketId), JSON.stringify(st));

  const connectorIds = new Set([
    ...routeFunctionIds.filter(({ route }) => routeAccess(route).connectors).map((r) => r.id),
    ...consumerIds.filter(({ def }) => consumerAccess(def).connectors).map((c) => c.id),
    ...taskIds.map((t) => t.id),
    ...stack.schedules.tasks.map((t) => fnIdOf(t.fn)),
  ]);
  assert.ok(routeFunctionIds.some(({ route, id }) => route.operationId === 'run_workflow' && connectorIds.has(id)));
  assert.ok(consumerIds.some(({ def, id }) => def.handler.export === 'connectionCheckWorker' && connectorIds.has(id)));
  const roleIdOfFn = (id: string) => json.Resources[id]!.Properties.Role['Fn::GetAtt'][0] as string;
  const trusted = [role.Properties.AssumeRolePolicyDocument.Statement].flat().flatMap((st: any) => [st.Principal.AWS].flat());
  assert.deepEqual(
    trusted.map((p: any) => p['Fn::GetAtt'][0]).sort(),
    [...connectorIds].map(roleIdOfFn).sort(),
    'the trust policy names exactly the connector-I/O functions',
  );
  // The functions name the role by the ARN built from its fixed name (no reference back to the
  // role, which names their roles: lib/connector-role.ts); that ARN is the role's own.
  assert.equal(role.Properties.RoleName, `${stack.stackName}-connector-io`);
  const roleArn = stack.resolve(stack.connectorRole.roleArn);
  assert.match(JSON.stringify(roleArn), new RegExp(`:role/${stack.stackName}-connector-io"`));
  for (const { id } of [...routeFunctionIds, ...consumerIds, ...taskIds, ...targetIds]) {
    const assumes = statementsOf(id).some((st) => actionsOf(st).includes('sts:AssumeRole') && JSON.stringify(st.Resource) === JSON.stringify(roleArn));
    const env = envOf(id);
    assert.equal(assumes, connectorIds.has(id), `${id}: sts:AssumeRole on the connector role`);
    assert.deepEqual(env.CONNECTOR_ROLE_ARN, connectorIds.has(id) ? roleArn : undefined, `${id}: CONNECTOR_ROLE_ARN`);
    assert.equal(Boolean(env.CONNECTOR_DENIED_ARNS), connectorIds.has(id), `${id}: CONNECTOR_DENIED_ARNS`);
    assert.equal(env.CONNECTORS_ALLOW_AMBIENT_CREDENTIALS, 'false', `${id}: ambient credentials off by default`);
    assert.equal(env.ALLOW_OFFLINE_STANDINS, 'false', `${id}: offline stand-ins refused by default`);
  }
});
