// Room in the stack (issue 12): the app is a root stack with nested stacks, and the root and every
// nested template stay under HALF of CloudFormation's per-template limits (500 resources, 200
// parameters, 200 outputs), so routes can be added for a long while before one of them is near its
// limit. The data resources keep the logical ids they had in the one-stack template, so an update of
// an existing deployment never replaces the table, the bucket or the key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NestedStack } from 'aws-cdk-lib';
import { ROUTES } from '../../lambdas/routes';
import { resourcePath, routeGroup, SHARED_PREFIX } from '../../lib/api';
import { logicalIdOf, synthStack } from './synth';

const HALF_RESOURCE_LIMIT = 250;
const HALF_PARAMETER_LIMIT = 100;
const HALF_OUTPUT_LIMIT = 100;

const { stack, templates } = synthStack();
const count = (o: unknown) => Object.keys((o ?? {}) as object).length;

test('root and every nested template stay under half the resource, parameter and output limits', () => {
  const report = templates.map((t) => `${t.path}: ${count(t.json.Resources)} resources, ${count(t.json.Parameters)} parameters, ${count(t.json.Outputs)} outputs`);
  console.log(report.join('\n'));
  assert.ok(templates.length > 1, 'the app has nested stacks');
  for (const t of templates) {
    assert.ok(count(t.json.Resources) < HALF_RESOURCE_LIMIT, `${t.path} has ${count(t.json.Resources)} resources (limit for one template here: < ${HALF_RESOURCE_LIMIT})`);
    // cdk's BootstrapVersion parameter included
    assert.ok(count(t.json.Parameters) < HALF_PARAMETER_LIMIT, `${t.path} has ${count(t.json.Parameters)} parameters`);
    assert.ok(count(t.json.Outputs) < HALF_OUTPUT_LIMIT, `${t.path} has ${count(t.json.Outputs)} outputs`);
  }
});

test('the nested stacks are children of the root: one `cdk deploy` deploys them with it', () => {
  const nested = templates.filter((t) => t.stack instanceof NestedStack);
  assert.ok(nested.length >= 3);
  for (const t of nested) assert.equal((t.stack as NestedStack).nestedStackParent, stack, t.path);
  const root = templates.find((t) => t.stack === stack)!;
  const stackResources = Object.values(root.json.Resources as Record<string, { Type: string }>).filter((r) => r.Type === 'AWS::CloudFormation::Stack');
  assert.equal(stackResources.length, nested.length);
});

test('table, bucket and key keep their one-stack logical ids, in the root template', () => {
  // The ids of the deployed one-stack template (commit 4d1b1a9): a changed id would replace the resource.
  const expected = { table: 'DataTableFDBAD0F2', bucket: 'StorageBucket5CB7C8EA', key: 'SecretsKey9BF95D68' };
  const root = templates.find((t) => t.stack === stack)!.json.Resources as Record<string, { Type: string }>;
  assert.equal(logicalIdOf(stack.data.table), expected.table);
  assert.equal(logicalIdOf(stack.storage.bucket), expected.bucket);
  assert.equal(logicalIdOf(stack.secrets.key), expected.key);
  assert.equal(root[expected.table]?.Type, 'AWS::DynamoDB::Table');
  assert.equal(root[expected.bucket]?.Type, 'AWS::S3::Bucket');
  assert.equal(root[expected.key]?.Type, 'AWS::KMS::Key');
});

test('resources with fixed physical names stay in the root with their ids (a move would create the new before deleting the old)', () => {
  const root = templates.find((t) => t.stack === stack)!.json.Resources as Record<string, unknown>;
  const named = [
    ...stack.queues.queues.flatMap((q) => [q.queue, q.deadLetterQueue]),
    ...stack.events.rules.map((r) => r.deadLetterQueue),
    stack.events.bus,
    ...stack.jobs.machines.flatMap((m) => [m.stateMachine, m.logGroup]),
  ];
  for (const c of named) assert.ok(logicalIdOf(c) in root, `${c.node.path} is in the root template`);
  assert.equal(logicalIdOf(stack.queues.queues[0]!.queue), 'QueuesConnectionChecksQueue738902A2');
  assert.equal(logicalIdOf(stack.events.bus), 'EventsBus45DE4339');
  assert.equal(logicalIdOf(stack.jobs.machine('job').stateMachine), 'JobsJobStateMachineAF46AE4E');
});

test('route groups: every route below the shared prefix or a top-level path has a group; the shared prefix is created once', () => {
  for (const r of ROUTES) assert.ok(routeGroup(r.path), r.path);
  assert.throws(() => routeGroup(`/${SHARED_PREFIX}`), /route group/);
  assert.equal(routeGroup('/api/v1/sources/{source_id}'), routeGroup('/api/v1/destinations/'));
  assert.equal(routeGroup('/api/v1/new-thing/x'), 'NewThing');
  // Each group stack creates only resources below /api/v1/<its segments> or its own top-level path.
  const resourceTypes = templates.map((t) => ({ t, paths: Object.values(t.json.Resources as Record<string, any>).filter((r) => r.Type === 'AWS::ApiGateway::Resource').map((r) => r.Properties.PathPart as string) }));
  const gateway = resourceTypes.find(({ t }) => t.stack === stack.api.gatewayStack)!;
  assert.deepEqual(gateway.paths.sort(), SHARED_PREFIX.split('/').sort());
  const all = ROUTES.map((r) => resourcePath(r.path));
  assert.ok(all.every((p) => p.split('/')[0] !== ''));
});
