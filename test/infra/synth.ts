// Builds the stack for assertion tests with the context of cdk.json (same feature flags as
// `cdk synth`) and bundling skipped (aws:cdk:bundling-stacks = []): NodejsFunction is configured
// exactly as in a real synth, only esbuild does not run. bundle.test.ts covers real bundles.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PROJECT_ROOT } from '../../lib/base-function';
import { WorkflowServiceStack, type WorkflowServiceStackProps } from '../../lib/workflow-service-stack';

export const CDK_CONTEXT = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')).context as Record<string, unknown>;

export function synthStack(props: WorkflowServiceStackProps = {}, opts: { bundle?: boolean; outdir?: string } = {}) {
  const app = new App({
    analyticsReporting: false,
    outdir: opts.outdir,
    context: { ...CDK_CONTEXT, ...(opts.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }) },
  });
  const stack = new WorkflowServiceStack(app, 'TestStack', props);
  return { app, stack, template: Template.fromStack(stack) };
}
