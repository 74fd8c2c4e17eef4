// cdk-nag's AwsSolutions pack (cdk-nag 3: a CDK validation plugin) over the whole app, root and
// nested stacks. Findings the design accepts are acknowledged in lib/nag.ts with their reasons; the
// test fails on any other finding. IAM5 resource wildcards whose ids carry references (per-stack
// parameter names) cannot be acknowledged by a fixed id: their kinds have their reasons in
// lib/nag.ts NAG_REFERENCE_WILDCARDS, and the test fails on a kind without one (counts printed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { WorkflowServiceStack } from '../../lib/workflow-service-stack';
import { CDK_CONTEXT } from './synth';
import { NAG_REFERENCE_WILDCARDS, nagReferenceKind } from '../../lib/nag';

const app = new App({ analyticsReporting: false, context: { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [] } });
new WorkflowServiceStack(app, 'TestStack', { notificationFromDomain: 'mail.example.com', alarmEmail: 'ops@example.com' });
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
// The plugin prints its report during synth (and may throw): capture both.
let report = '';
const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
const capture = (chunk: unknown) => ((report += String(chunk)), true);
process.stdout.write = capture as typeof process.stdout.write;
process.stderr.write = capture as typeof process.stderr.write;
try {
  app.synth();
} catch (e) {
  report += (e as Error).message;
} finally {
  process.stdout.write = writes.out;
  process.stderr.write = writes.err;
}
const findings = [...report.matchAll(/Acknowledge with '([^']+)'/g)].map((m) => m[1]!);
const referenceWildcard = (id: string) => /^AwsSolutions::AwsSolutions-IAM5\[Resource::.*<[^>]+>/.test(id);

test('AwsSolutions: every finding is fixed or acknowledged (lib/nag.ts)', () => {
  const open = [...new Set(findings.filter((id) => !referenceWildcard(id)))];
  assert.deepEqual(open, [], `unacknowledged findings:\n${open.join('\n')}`);
});

test('AwsSolutions: the remaining reference wildcards (IAM5) are the kinds lib/nag.ts gives a reason for', () => {
  assert.ok(findings.length > 0, 'the report was read (the pack reports these reference wildcards)');
  const byKind = new Map<string, number>();
  for (const id of findings.filter(referenceWildcard)) byKind.set(nagReferenceKind(id), (byKind.get(nagReferenceKind(id)) ?? 0) + 1);
  console.log(`${[...byKind.values()].reduce((a, b) => a + b, 0)} reference-wildcard findings:\n${[...byKind].map(([k, n]) => `${n} ${k}`).join('\n')}`);
  assert.deepEqual([...byKind.keys()].filter((k) => !(k in NAG_REFERENCE_WILDCARDS)), [], 'a kind without its reason in lib/nag.ts');
  assert.deepEqual(Object.keys(NAG_REFERENCE_WILDCARDS).filter((k) => !byKind.has(k)), [], 'a reason for a kind that no longer occurs');
});
