// Periodic triggers, built from lambdas/schedules.ts: per entry an EventBridge schedule rule on the
// default bus invoking a ServiceFunction for the handler (the local runner uses timers for the same
// table). The workflow tick starts scheduled workflow runs, so it reads sources (connector secrets),
// stores job inputs, starts executions and publishes job events.
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { SCHEDULED_TASKS, type ScheduledTask } from '../lambdas/schedules';
import { declaredAccess, type RouteAccess } from './api';
import { ServiceFunction, type FunctionDefaults } from './base-function';
import { pascal } from './names';

export const SCHEDULE_ACCESS: Record<string, RouteAccess> = {
  'scheduler.tick': { table: 'readwrite', bucket: 'readwrite', secrets: true, jobs: true, publisher: true, connectors: true },
};

export function scheduleAccess(task: ScheduledTask): RouteAccess {
  return declaredAccess(SCHEDULE_ACCESS, task.handler, 'SCHEDULE_ACCESS (lib/schedules.ts)');
}

export interface ScheduledFunction {
  definition: ScheduledTask;
  rule: events.Rule;
  fn: ServiceFunction;
}

export class ScheduledTasks extends Construct {
  readonly tasks: ScheduledFunction[] = [];

  /** functionScope: where the functions are built (a nested stack), as in lib/events.ts. */
  constructor(scope: Construct, id: string, props: { functionDefaults?: FunctionDefaults; definitions?: ScheduledTask[]; functionScope?: Construct }) {
    super(scope, id);
    const fnScope = props.functionScope ? new Construct(props.functionScope, id) : this;
    for (const def of props.definitions ?? SCHEDULED_TASKS) {
      const name = pascal(def.name);
      scheduleAccess(def);
      const fn = new ServiceFunction(fnScope, `${name}Function`, {
        ...props.functionDefaults,
        file: def.handler.file,
        export: def.handler.export,
        description: `Scheduled task ${def.name} (${def.rate})`,
        timeoutSeconds: 60,
        memoryMb: 512,
      });
      const rule = new events.Rule(this, `${name}Rule`, {
        description: `Runs ${def.handler.file}.${def.handler.export} ${def.rate}`,
        schedule: events.Schedule.expression(def.rate),
      });
      // A missed tick is made up by the next one (runs are looked up by due time), so no retries.
      rule.addTarget(new targets.LambdaFunction(fn, { retryAttempts: 0, maxEventAge: Duration.minutes(5) }));
      this.tasks.push({ definition: def, rule, fn });
    }
  }
}
