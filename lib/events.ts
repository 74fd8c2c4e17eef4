// Platform events, built from lambdas/events.ts: the service's own EventBridge bus, and per
// EVENT_RULES entry a rule on its bus (`service`: this bus; `default`: the account's default bus,
// where Step Functions publishes execution status changes) with a Lambda target ServiceFunction.
//
// Rules on the default bus see every state machine of the account: each is narrowed to the
// service's own state machines (detail.stateMachineArn), so another application's failed
// executions never reach the handler.
//
// Delivery: EventBridge invokes the target asynchronously. Events it cannot deliver (throttling,
// missing permission) are retried and then sent to the rule's dead-letter queue; events the
// function fails on are retried by Lambda and then sent to the same queue (an on-failure
// destination), so nothing is dropped silently.
//
// bindPublisher() makes a function a publisher: events:PutEvents on the service bus and its name
// in EVENT_BUS_NAME, in one call.
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_RULES, type EventPattern, type EventRule } from '../lambdas/events';
import { declaredAccess, type RouteAccess } from './api';
import { ServiceFunction, setConfigEnv, type FunctionDefaults } from './base-function';
import { pascal } from './names';

/**
 * What each rule target may touch, by `<file>.<export>` (every target must be listed; the stack
 * binds it). recordNotification writes notification items. jobExecutionEnded runs the job
 * service's failJob (slot release, FAILED status, job.failed): its composition root also builds
 * the blob store and the secret box, which need the bucket and the key.
 */
export const TARGET_ACCESS: Record<string, RouteAccess> = {
  'events.recordNotification': { table: 'readwrite' },
  'events.jobExecutionEnded': { table: 'readwrite', bucket: 'readwrite', secrets: true, publisher: true },
  // Channel fan-out: reads the listening channels, queues one delivery message per channel.
  'channel-delivery.fanOutToChannels': { table: 'read', producer: true },
};

export function targetAccess(target: EventRule['target']): RouteAccess {
  return declaredAccess(TARGET_ACCESS, target, 'TARGET_ACCESS (lib/events.ts)');
}

/** Delivery retries: EventBridge's (to Lambda) and Lambda's (of a failing handler). */
export const TARGET_RETRY_ATTEMPTS = 8;
export const HANDLER_RETRY_ATTEMPTS = 2;
export const MAX_EVENT_AGE = Duration.hours(6);

export interface ServiceRule {
  definition: EventRule;
  rule: events.Rule;
  target: ServiceFunction;
  deadLetterQueue: sqs.Queue;
}

export interface ServiceEventsProps {
  /** Physical names: bus `${prefix}-events`, rule DLQs `${prefix}-<rule>-dlq`. */
  prefix: string;
  /** State machines whose status changes the `default`-bus rules match (their ARNs). */
  stateMachineArns: string[];
  functionDefaults?: FunctionDefaults;
  /** Default lambdas/events.ts EVENT_RULES. */
  definitions?: EventRule[];
  /**
   * Where the rule targets are built (a nested stack), under a child named like this construct.
   * Default this construct. The bus, rules and their dead-letter queues stay here (fixed names; a
   * rule's DLQ policy names the rule, so they belong together).
   */
  functionScope?: Construct;
}

export class ServiceEvents extends Construct {
  readonly bus: events.EventBus;
  readonly rules: ServiceRule[] = [];

  constructor(scope: Construct, id: string, props: ServiceEventsProps) {
    super(scope, id);
    this.bus = new events.EventBus(this, 'Bus', {
      eventBusName: `${props.prefix}-events`,
      description: 'Job status events of the workflow service',
    });
    const fnScope = props.functionScope ? new Construct(props.functionScope, id) : this;
    for (const def of props.definitions ?? EVENT_RULES) {
      const name = pascal(def.name);
      targetAccess(def.target); // fail the synth before building an unbindable target
      const pattern = def.bus === 'default' ? ownStateMachinesOnly(def, props.stateMachineArns) : def.pattern;
      const target = new ServiceFunction(fnScope, `${name}Function`, {
        file: def.target.file,
        export: def.target.export,
        description: `Target of the ${def.name} rule (${def.bus} bus)`,
        ...props.functionDefaults,
      });
      const deadLetterQueue = new sqs.Queue(this, `${name}DeadLetterQueue`, {
        queueName: `${props.prefix}-${def.name}-dlq`,
        retentionPeriod: Duration.days(14),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      target.configureAsyncInvoke({
        retryAttempts: HANDLER_RETRY_ATTEMPTS,
        maxEventAge: MAX_EVENT_AGE,
        onFailure: new SqsDestination(deadLetterQueue),
      });
      const rule = new events.Rule(this, `${name}Rule`, {
        description: `${def.name}: ${def.target.file}.${def.target.export}`,
        eventBus: def.bus === 'service' ? this.bus : undefined,
        eventPattern: toCdkPattern(pattern),
      });
      rule.addTarget(
        new targets.LambdaFunction(target, { deadLetterQueue, retryAttempts: TARGET_RETRY_ATTEMPTS, maxEventAge: MAX_EVENT_AGE }),
      );
      this.rules.push({ definition: def, rule, target, deadLetterQueue });
    }
  }

  get targets(): ServiceFunction[] {
    return this.rules.map((r) => r.target);
  }

  rule(name: string): ServiceRule {
    const r = this.rules.find((x) => x.definition.name === name);
    if (!r) throw new Error(`no event rule named ${name}`);
    return r;
  }

  /** Grants events:PutEvents on the service bus and sets EVENT_BUS_NAME. */
  bindPublisher(fn: lambda.Function): void {
    this.bus.grantPutEventsTo(fn);
    setConfigEnv(fn, 'EVENT_BUS_NAME', this.bus.eventBusName);
  }
}

/** A default-bus Step Functions pattern narrowed to the given state machines. */
function ownStateMachinesOnly(def: EventRule, stateMachineArns: string[]): EventPattern {
  const sources = def.pattern.source;
  if (!Array.isArray(sources) || !sources.every((s) => s === 'aws.states')) {
    throw new Error(`rule ${def.name}: a default-bus rule must match Step Functions events only (source aws.states)`);
  }
  if (stateMachineArns.length === 0) throw new Error(`rule ${def.name}: no state machine to watch`);
  const detail = def.pattern.detail;
  if (Array.isArray(detail)) throw new Error(`rule ${def.name}: detail must be an object pattern`);
  return { ...def.pattern, detail: { ...detail, stateMachineArn: stateMachineArns } };
}

/** The CDK's camelCase names of the top-level fields of an EventBridge pattern. */
const CDK_PATTERN_FIELDS: Record<string, keyof events.EventPattern> = {
  version: 'version',
  id: 'id',
  'detail-type': 'detailType',
  source: 'source',
  account: 'account',
  time: 'time',
  region: 'region',
  resources: 'resources',
  detail: 'detail',
};

/** A lambdas/events.ts pattern as the CDK's EventPattern (which renders it back with AWS's names). */
export function toCdkPattern(pattern: EventPattern): events.EventPattern {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(pattern)) {
    const field = CDK_PATTERN_FIELDS[key];
    if (!field) throw new Error(`event pattern field ${key} is not an EventBridge envelope field`);
    out[field] = value;
  }
  return out as events.EventPattern;
}
