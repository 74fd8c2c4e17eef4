// Job orchestration, built from lambdas/state-machines.ts: per state machine one ServiceFunction per
// task (entry lambdas/handlers/<file>.ts, handler <export>, sizing from the table) and a STANDARD
// Step Functions state machine from its ASL file, with X-Ray tracing, a log group and an execution
// timeout (TimeoutSeconds, default 24 h: the CDK's `timeout` prop is ignored for text definitions).
//
// The `${Placeholder}` task resources are substituted here, at synth, with the functions' ARNs (the
// same mapping CloudFormation's DefinitionSubstitutions would make): the template then shows the
// definition that runs, and a placeholder without a task fails the synth instead of the deploy.
// The state machine's role may invoke exactly its task functions.
//
// bindJobs() makes a function a job starter: StartExecution on the state machine, StopExecution on
// its executions, and the ARN in the definition's arnEnv variable, in one call. What the task
// functions themselves may touch (table, bucket, key, bus) is bound by the stack, as for routes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { STATE_MACHINES, type StateMachineDefinition } from '../lambdas/state-machines';
import { manifestKey } from '../lambdas/domain/job-manifest';
import type { RouteAccess } from './api';
import { PROJECT_ROOT, ServiceFunction, type FunctionDefaults } from './base-function';
import { pascal } from './names';

/**
 * What every task function may touch (the stack binds it): job records and the gate (table), inputs
 * and node outputs (bucket), connector secrets to read sources and write destinations (key), and
 * job status events (bus). Tasks never start or stop executions.
 */
export const TASK_ACCESS: RouteAccess = { table: 'readwrite', bucket: 'readwrite', secrets: true, publisher: true, connectors: true };

export const DEFAULT_TIMEOUT = Duration.hours(24);

/** Actions a job starter gets: start on the state machine, stop on its executions. */
export const JOB_STARTER_ACTIONS = { stateMachine: ['states:StartExecution'], executions: ['states:StopExecution'] };

export interface TaskFunction {
  placeholder: string;
  fn: ServiceFunction;
}

export interface JobStateMachine {
  definition: StateMachineDefinition;
  stateMachine: sfn.StateMachine;
  logGroup: logs.LogGroup;
  tasks: TaskFunction[];
}

export interface JobOrchestrationProps {
  /** Physical state machine names are `${prefix}-${name}`. */
  prefix: string;
  functionDefaults?: FunctionDefaults;
  /** Default lambdas/state-machines.ts STATE_MACHINES. */
  definitions?: StateMachineDefinition[];
  /**
   * Longest an execution may run, waiting for a run slot included. Default the file's
   * TimeoutSeconds, or 24 hours. A timed-out execution releases its slot through the
   * execution-status rule (lib/events.ts).
   */
  timeout?: Duration;
  /**
   * Default ERROR (failures with their input and error, not every state transition of every file).
   * ALL logs each transition: useful while debugging, costly for jobs of many files.
   */
  logLevel?: sfn.LogLevel;
  /** Default one month. */
  logRetention?: logs.RetentionDays;
  /** The service bucket (BucketName in a definition): job manifests the Distributed Map reads, its results. */
  bucket?: s3.IBucket;
  /**
   * Where the task functions are built (a nested stack), under a child named like this construct.
   * Default this construct. The state machines and their log groups stay here (fixed names).
   */
  functionScope?: Construct;
  /** Reserved concurrency per task, by `<file>.<export>` (the file-processing task: a tenant's burst stays within it). */
  taskConcurrency?: Record<string, number>;
}

/** Where a Distributed Map writes its child executions' results (ResultWriter Prefix in the ASL; under jobs/: expired with job data). */
export const MAP_RESULTS_PREFIX = 'jobs/map-results';

export class JobOrchestration extends Construct {
  readonly machines: JobStateMachine[] = [];

  constructor(scope: Construct, id: string, props: JobOrchestrationProps) {
    super(scope, id);
    const fnScope = props.functionScope ? new Construct(props.functionScope, id) : this;
    for (const def of props.definitions ?? STATE_MACHINES) {
      const name = pascal(def.name);
      const tasks = Object.entries(def.tasks).map(([placeholder, task]) => ({
        placeholder,
        fn: new ServiceFunction(fnScope, `${name}${placeholder.replace(/FunctionArn$/, '')}Function`, {
          file: task.file,
          export: task.export,
          description: `${def.name} state machine task ${placeholder.replace(/FunctionArn$/, '')}`,
          memoryMb: task.memoryMb,
          timeoutSeconds: task.timeoutSeconds,
          reservedConcurrency: props.taskConcurrency?.[`${task.file}.${task.export}`],
          ...props.functionDefaults,
        }),
      }));
      const arns = Object.fromEntries(tasks.map((t) => [t.placeholder, t.fn.functionArn]));
      const resources: Record<string, string> = {};
      for (const r of def.resources ?? []) {
        if (!props.bucket) throw new Error(`${def.definitionFile}: \${${r}} needs the bucket prop`);
        resources[r] = props.bucket.bucketName;
      }
      const asl = substitute(readFileSync(join(PROJECT_ROOT, def.definitionFile), 'utf8'), { ...arns, ...resources }, def.definitionFile) as Record<string, unknown>;
      // The CDK applies `timeout` only to definitions it builds from constructs, not to a definition
      // body given as text: the execution timeout goes into the ASL (TimeoutSeconds) here.
      // An explicit prop wins over the file's own TimeoutSeconds; 24 h when neither is given.
      const { Comment, StartAt, TimeoutSeconds: fileTimeout, ...rest } = asl;
      const timeoutSeconds = props.timeout?.toSeconds() ?? (fileTimeout as number | undefined) ?? DEFAULT_TIMEOUT.toSeconds();
      const definition = { ...(Comment === undefined ? {} : { Comment }), StartAt, TimeoutSeconds: timeoutSeconds, ...rest };

      // Step Functions delivers logs through CloudWatch Logs vended delivery; this prefix keeps its
      // grants out of the account's size-limited log resource policy.
      const logGroup = new logs.LogGroup(this, `${name}StateMachineLogs`, {
        logGroupName: `/aws/vendedlogs/states/${props.prefix}-${def.name}`,
        retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      const stateMachine = new sfn.StateMachine(this, `${name}StateMachine`, {
        stateMachineName: `${props.prefix}-${def.name}`,
        stateMachineType: sfn.StateMachineType.STANDARD,
        definitionBody: sfn.DefinitionBody.fromString(Stack.of(this).toJsonString(definition)),
        tracingEnabled: true,
        logs: { destination: logGroup, level: props.logLevel ?? sfn.LogLevel.ERROR, includeExecutionData: true },
      });
      // the ASL names each function by its unqualified ARN: no version or alias (grantInvoke's `:*`) to invoke
      stateMachine.addToRolePolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: tasks.map((t) => t.fn.functionArn) }));
      if (def.resources?.includes('BucketName') && props.bucket) {
        // Distributed Map: the manifest (ItemReader), the results (ResultWriter), and its child
        // executions, which are executions of this same state machine (ARNs built from the name:
        // a reference to the state machine itself would be a circular dependency).
        const bucket = props.bucket;
        stateMachine.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [bucket.arnForObjects(manifestKey('*'))] }));
        stateMachine.addToRolePolicy(new iam.PolicyStatement({
          actions: ['s3:PutObject', 's3:ListMultipartUploadParts', 's3:AbortMultipartUpload'],
          resources: [bucket.arnForObjects(`${MAP_RESULTS_PREFIX}/*`)],
        }));
        const stack = Stack.of(this);
        const smName = `${props.prefix}-${def.name}`;
        stateMachine.addToRolePolicy(new iam.PolicyStatement({
          actions: ['states:StartExecution'],
          resources: [stack.formatArn({ service: 'states', resource: 'stateMachine', resourceName: smName, arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
        }));
        const children = stack.formatArn({ service: 'states', resource: 'execution', resourceName: `${smName}/*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
        for (const action of ['states:DescribeExecution', 'states:StopExecution']) {
          stateMachine.addToRolePolicy(new iam.PolicyStatement({ actions: [action], resources: [children] }));
        }
      }
      this.machines.push({ definition: def, stateMachine, logGroup, tasks });
    }
  }

  /** Every task function of every state machine. */
  get taskFunctions(): ServiceFunction[] {
    return this.machines.flatMap((m) => m.tasks.map((t) => t.fn));
  }

  machine(name: string): JobStateMachine {
    const m = this.machines.find((x) => x.definition.name === name);
    if (!m) throw new Error(`no state machine named ${name}`);
    return m;
  }

  /**
   * Makes fn a starter of one state machine (default: job): states:StartExecution on it,
   * states:StopExecution on its executions, and its ARN in the definition's arnEnv variable.
   */
  bindJobs(fn: lambda.Function, name = 'job'): void {
    const { definition, stateMachine } = this.machine(name);
    stateMachine.grant(fn, ...JOB_STARTER_ACTIONS.stateMachine);
    stateMachine.grantExecution(fn, ...JOB_STARTER_ACTIONS.executions);
    fn.addEnvironment(definition.arnEnv, stateMachine.stateMachineArn);
  }
}

/**
 * The ASL text parsed, each `"${Placeholder}"` string replaced by its value. Placeholders are whole
 * string values (Task resources); one that is missing from the map, or a task nothing refers to,
 * is an error.
 */
export function substitute(text: string, values: Record<string, string>, source = 'definition'): unknown {
  const used = new Set<string>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = /^\$\{([A-Za-z][A-Za-z0-9_]*)\}$/.exec(v);
      if (whole) {
        const key = whole[1]!;
        if (!(key in values)) throw new Error(`${source}: \${${key}} has no task in lambdas/state-machines.ts`);
        used.add(key);
        return values[key];
      }
      if (v.includes('${')) throw new Error(`${source}: malformed placeholder or one inside a longer string: ${v}`);
      return v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const out = walk(JSON.parse(text));
  const unused = Object.keys(values).filter((k) => !used.has(k));
  if (unused.length) throw new Error(`${source}: tasks with no \${placeholder} in the definition: ${unused.join(', ')}`);
  return out;
}
