// Builds the stack for assertion tests with the context of cdk.json (same feature flags as
// `cdk synth`) and bundling skipped (aws:cdk:bundling-stacks = []): NodejsFunction is configured
// exactly as in a real synth, only esbuild does not run. bundle.test.ts covers real bundles.
//
// The stack is a root with nested stacks (lib/workflow-service-stack.ts). `template` is the MERGED
// view: every nested template's resources beside the root's, each nested parameter replaced by the
// value the parent passes and each `Outputs.X` of a nested stack by the output's value, so that a
// function in a nested stack shows TABLE_NAME as { Ref: <table id> } exactly as a one-stack template
// would. Logical ids keep their own stack's (Stack.of(c).getLogicalId); a clash fails the merge.
// `templates` holds each real template (root and nested) for per-template limits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, NestedStack, Stack, Stage, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PROJECT_ROOT } from '../../lib/base-function';
import { WorkflowServiceStack, type WorkflowServiceStackProps } from '../../lib/workflow-service-stack';

export const CDK_CONTEXT = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')).context as Record<string, unknown>;

type Json = Record<string, any>;
export interface StackTemplate {
  /** Construct path of the stack ('TestStack', 'TestStack/Workers', ...). */
  path: string;
  stack: Stack;
  json: Json;
}

export function synthStack(props: WorkflowServiceStackProps = {}, opts: { bundle?: boolean; outdir?: string } = {}) {
  const app = new App({
    analyticsReporting: false,
    outdir: opts.outdir,
    context: { ...CDK_CONTEXT, ...(opts.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }) },
  });
  const stack = new WorkflowServiceStack(app, 'TestStack', props);
  const templates = stackTemplates(stack);
  return { app, stack, templates, template: Template.fromJSON(mergedTemplate(stack, templates)) };
}

/** Logical id of a construct's CloudFormation resource (or of a CfnElement) in its own stack. */
export function logicalIdOf(c: unknown): string {
  const el = ((c as { node?: { defaultChild?: unknown } }).node?.defaultChild ?? c) as CfnElement;
  return Stack.of(el).getLogicalId(el);
}

/**
 * The root's template and every nested stack's, from one synthesis of the app (Template.fromStack
 * would synthesize the whole app again for each stack).
 */
export function stackTemplates(root: Stack): StackTemplate[] {
  const assembly = (Stage.of(root) as Stage).synth();
  const stacks = root.node.findAll().filter((c): c is Stack => Stack.isStack(c));
  return stacks.map((s) => ({
    path: s.node.path,
    stack: s,
    json: (s === root
      ? assembly.getStackArtifact(root.artifactId).template
      : JSON.parse(readFileSync(join(assembly.directory, s.templateFile), 'utf8'))) as Json,
  }));
}

/** One template as if the whole app were one stack (see the header). */
export function mergedTemplate(root: Stack, templates: StackTemplate[]): Json {
  const byResource = new Map<Stack, StackTemplate>();
  const nestedByLogicalId = new Map<string, StackTemplate>(); // key: `${parent path}|${logical id}`
  for (const t of templates) {
    byResource.set(t.stack, t);
    if (t.stack instanceof NestedStack) {
      const res = t.stack.nestedStackResource!;
      nestedByLogicalId.set(`${Stack.of(res).node.path}|${Stack.of(res).getLogicalId(res)}`, t);
    }
  }
  const resources: Json = {};
  const outputs: Json = {};
  const add = (id: string, value: unknown, where: string) => {
    if (id in resources) throw new Error(`logical id ${id} of ${where} is also used by another stack: the merged view needs unique ids`);
    resources[id] = value;
  };
  // Resolves one template's expressions to root-level ones.
  const visit = (t: StackTemplate, params: Json) => {
    const resolve = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(resolve);
      if (v === null || typeof v !== 'object') return v;
      const o = v as Json;
      const keys = Object.keys(o);
      if (keys.length === 1 && keys[0] === 'Ref' && typeof o.Ref === 'string' && o.Ref in params) return params[o.Ref];
      if (keys.length === 1 && keys[0] === 'Fn::GetAtt' && Array.isArray(o['Fn::GetAtt'])) {
        const [id, attr] = o['Fn::GetAtt'] as [string, string];
        const nested = nestedByLogicalId.get(`${t.path}|${id}`);
        if (nested && attr.startsWith('Outputs.')) return nestedOutputs(nested, t, id)[attr.slice('Outputs.'.length)];
      }
      return Object.fromEntries(keys.map((k) => [k, resolve(o[k])]));
    };
    const nestedOutputs = (nested: StackTemplate, parent: StackTemplate, id: string): Json => {
      const passed = (parent.json.Resources[id].Properties?.Parameters ?? {}) as Json;
      const childParams = Object.fromEntries(Object.entries(passed).map(([k, x]) => [k, resolve(x)]));
      return Object.fromEntries(Object.entries((nested.json.Outputs ?? {}) as Json).map(([k, o]) => [k, resolveIn(nested, childParams, o.Value)]));
    };
    return { resolve, nestedOutputs };
  };
  const resolveIn = (t: StackTemplate, params: Json, v: unknown) => visit(t, params).resolve(v);
  const walk = (t: StackTemplate, params: Json) => {
    const { resolve } = visit(t, params);
    for (const [id, r] of Object.entries((t.json.Resources ?? {}) as Json)) {
      if (r.Type === 'AWS::CloudFormation::Stack') {
        const nested = nestedByLogicalId.get(`${t.path}|${id}`);
        if (!nested) throw new Error(`nested stack resource ${id} of ${t.path} has no template`);
        const passed = (r.Properties?.Parameters ?? {}) as Json;
        walk(nested, Object.fromEntries(Object.entries(passed).map(([k, x]) => [k, resolve(x)])));
        continue;
      }
      add(id, resolve(r), t.path);
    }
    if (t.stack === root) for (const [k, o] of Object.entries((t.json.Outputs ?? {}) as Json)) outputs[k] = resolve(o);
  };
  walk(byResource.get(root)!, {});
  return { ...byResource.get(root)!.json, Resources: resources, Outputs: outputs };
}
