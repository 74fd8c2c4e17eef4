// Step Functions stand-in: StartExecution / StopExecution / DescribeExecution over the AWS JSON 1.0
// protocol, each execution run by aws-local-stepfunctions on the very ASL file CDK deploys, with
// every `${Placeholder}` task mapped to the handler the CDK wires to it (lambdas/state-machines.ts).
// When an execution ends it reports "Step Functions Execution Status Change" to EventBridge, as AWS
// does, so the same cleanup rule runs locally.
//
// aws-local-stepfunctions has no Distributed Map: a Map state with an ItemReader runs here as a Task
// of the same name that reads the items (the same S3 object, from the local S3) followed by an
// inline Map over them with the same ItemSelector, MaxConcurrency, processor states, Catch and next
// state (localizeDistributedMaps). What differs from AWS: the items are held in memory, iterations
// are not child executions, ResultWriter writes nothing, and a failed iteration fails the Map
// (ToleratedFailurePercentage is not applied: the job's file states catch every error anyway).
//
// Each task runs as its Lambda would (lambdaInvoke): it may take its function's timeout (a Task with no
// TimeoutSeconds waits for the Lambda on AWS; the library's own default of 60 s would fail a long
// page range or merge), past that the task fails as Lambda's timeout fails it (Sandbox.Timedout), and
// a thrown error reaches Retry/Catch as a Lambda function error does: Error is the error type, Cause
// the JSON {errorType, errorMessage, trace}. What differs: the timed-out handler is not stopped (no
// process to kill in this one); its late writes are those of an abandoned invocation.
import { readFileSync } from 'node:fs';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '../../lambdas/adapters/aws-clients';
import { join } from 'node:path';
import type { Context } from 'aws-lambda';
import { STATE_MACHINES, type StateMachineDefinition } from '../../lambdas/state-machines';
import { lambdaContext, loadHandler } from '../handlers';
import { AwsJsonError, startAwsJsonServer } from './aws-json-server';
import type { EmulatorCredentials } from './sigv4-guard';
import { validateDefinitions } from './asl-validation';

// aws-local-stepfunctions 3 targets Node 22; Promise.withResolvers is the only gap on Node 20.
const P = Promise as unknown as { withResolvers?: () => unknown };
P.withResolvers ??= function withResolvers<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

const ACCOUNT = '000000000000';

type TaskHandler = (event: unknown, context: Context) => Promise<unknown>;

interface Execution {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED';
  input: string;
  output?: string;
  error?: string;
  cause?: string;
  startDate: number;
  stopDate?: number;
  abort?: () => void;
}

/** Task state name → placeholder, for every Task state including those inside Map/Parallel. */
function taskPlaceholders(states: Record<string, any>, out: Record<string, string> = {}): Record<string, string> {
  for (const [name, state] of Object.entries(states)) {
    if (state.Type === 'Task') {
      const m = /^\$\{(\w+)\}$/.exec(String(state.Resource));
      if (m) out[name] = m[1]!;
    }
    const nested = state.ItemProcessor?.States ?? state.Iterator?.States;
    if (nested) taskPlaceholders(nested, out);
    for (const branch of state.Branches ?? []) taskPlaceholders(branch.States, out);
  }
  return out;
}

const ITEMS_PATH = '$.__mapItems';

/** The largest TimeoutSeconds a Node timer holds (~24.8 days; AWS's Task default is 99999999 s). */
const NO_TASK_TIMEOUT_S = Math.floor((2 ** 31 - 1) / 1000);

/** Gives every Task without TimeoutSeconds the AWS behaviour (no state timeout: the Lambda's own ends it). */
function withoutTaskTimeouts(states: Record<string, any>): void {
  for (const state of Object.values(states)) {
    if (state.Type === 'Task' && state.TimeoutSeconds === undefined && state.TimeoutSecondsPath === undefined) state.TimeoutSeconds = NO_TASK_TIMEOUT_S;
    const nested = state.ItemProcessor?.States ?? state.Iterator?.States;
    if (nested) withoutTaskTimeouts(nested);
    for (const branch of state.Branches ?? []) withoutTaskTimeouts(branch.States);
  }
}

/** A Lambda function error as Step Functions sees it: Error is the type, Cause the JSON payload. */
function lambdaError(errorType: string, errorMessage: string, trace?: string[]): Error {
  const err = new Error(JSON.stringify({ errorType, errorMessage, ...(trace ? { trace } : {}) }));
  err.name = errorType;
  return err;
}

/** Runs a task handler as Lambda would: within its timeout, its errors shaped as Lambda's. */
async function lambdaInvoke(run: () => Promise<unknown>, timeoutSeconds: number, requestId: string): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_res, reject) => {
    timer = setTimeout(
      () => reject(lambdaError('Sandbox.Timedout', `RequestId: ${requestId} Error: Task timed out after ${timeoutSeconds.toFixed(2)} seconds`)),
      timeoutSeconds * 1000,
    );
  });
  try {
    return await Promise.race([
      run().catch((err: unknown) => {
        const e = err instanceof Error ? err : new Error(String(err));
        throw lambdaError(e.name || 'Error', e.message, e.stack?.split('\n').slice(1).map((l) => l.trim()));
      }),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * History events of an execution as the stand-in logs them (state entered/exited/failed/retried/
 * caught, map iterations, execution start/end), split by what AWS would make a child execution: the
 * events of each Distributed Map item (`perItem`, by item index: its states and its inline Maps'
 * states) and the rest (`parent`). Map iterations of an inline Map nested in an item are counted in
 * `nestedIterations` (the library reports them with the inner index). On AWS a child execution's
 * history is bounded (25,000 events); these counts show that it grows per item, not per job.
 */
export interface HistoryStats {
  total: number;
  parent: number;
  perItem: Map<number, number>;
  nestedIterations: number;
  /** How often each top-level state has exited (tests wait on a step having run, e.g. a slot attempt). */
  exited: Map<string, number>;
}
const history = new Map<string, HistoryStats>();
/** The history counts of an execution run by this stand-in (benchmarks). */
export function executionHistory(executionArn: string): HistoryStats | undefined {
  return history.get(executionArn);
}

function countEvent(stats: HistoryStats, readers: Set<string>, e: { type: string; index?: number; state?: { name: string }; parentState?: { name: string } }): void {
  stats.total++;
  if (e.type === 'StateExited' && e.index === undefined && e.state) stats.exited.set(e.state.name, (stats.exited.get(e.state.name) ?? 0) + 1);
  if (e.type.startsWith('MapIteration')) {
    if (e.parentState && readers.has(e.parentState.name) && e.index !== undefined) stats.perItem.set(e.index, (stats.perItem.get(e.index) ?? 0) + 1);
    else stats.nestedIterations++;
  } else if (e.index !== undefined) stats.perItem.set(e.index, (stats.perItem.get(e.index) ?? 0) + 1);
  else stats.parent++;
}

/** Replaces each Map with an ItemReader by a reader Task + inline Map (see the header); returns the reader task names. */
export function localizeDistributedMaps(states: Record<string, any>): string[] {
  const readers: string[] = [];
  for (const [name, state] of Object.entries({ ...states })) {
    if (state.Type !== 'Map' || !state.ItemReader) continue;
    const { ItemReader, ResultWriter: _w, ToleratedFailurePercentage: _t, ToleratedFailureCount: _c, ItemBatcher, ...map } = state;
    if (ItemBatcher) throw new Error(`${name}: ItemBatcher is not supported by the local Step Functions stand-in`);
    const mapName = `${name} (items)`;
    states[name] = {
      Type: 'Task',
      Resource: String(ItemReader.Resource),
      Parameters: { ...ItemReader.Parameters, ReaderConfig: ItemReader.ReaderConfig ?? {} },
      ResultPath: ITEMS_PATH,
      ...(map.Catch ? { Catch: map.Catch } : {}),
      Next: mapName,
    };
    states[mapName] = { ...map, ItemsPath: ITEMS_PATH, ItemProcessor: { ...map.ItemProcessor, ProcessorConfig: { Mode: 'INLINE' } } };
    readers.push(name);
  }
  return readers;
}

/** An ItemReader on the local S3: the object's JSON Lines or JSON array. */
async function readItems(params: { Bucket: string; Key: string; ReaderConfig?: { InputType?: string } }): Promise<unknown[]> {
  const out = await s3Client().send(new GetObjectCommand({ Bucket: params.Bucket, Key: params.Key }));
  const text = await out.Body!.transformToString('utf8');
  const type = params.ReaderConfig?.InputType ?? 'JSON';
  if (type === 'JSONL') return text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown);
  if (type === 'JSON') return JSON.parse(text) as unknown[];
  throw new Error(`ItemReader InputType ${type} is not supported by the local Step Functions stand-in`);
}

export function stateMachineArn(region: string, name: string): string {
  return `arn:aws:states:${region}:${ACCOUNT}:stateMachine:wps-${name}`;
}

export async function startStepFunctions(opts: {
  repoRoot: string;
  region: string;
  /** Reports execution status changes (to the EventBridge stand-in). */
  onStatusChange?: (detail: Record<string, unknown>) => Promise<void>;
  port?: number;
  /** Values of the definitions' resource placeholders (BucketName). */
  resources?: Record<string, string>;
  /** Lambda timeouts other than the deployed ones, by task placeholder (tests of a step that overruns). */
  taskTimeouts?: Record<string, number>;
  /** Refuse every request not SigV4-signed with this credential. */
  credentials?: EmulatorCredentials;
}): Promise<{ endpoint: string; arns: Record<string, string>; tasksIdle(): Promise<void>; stop(): Promise<void> }> {
  const { StateMachine } = await import('aws-local-stepfunctions');
  type Machine = InstanceType<typeof StateMachine>;
  const machines = new Map<string, { def: StateMachineDefinition; machine: Machine; overrides: Record<string, TaskHandler>; itemMaps: Set<string> }>();
  // Task handlers still running: stop() waits for them (bounded), so an aborted execution's last task
  // does not touch the table or bucket after the emulators behind them have stopped.
  const inflight = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    inflight.add(p);
    void p.then(() => inflight.delete(p), () => inflight.delete(p));
    return p;
  };
  const arns: Record<string, string> = {};
  const toValidate: { name: string; definition: unknown }[] = [];
  for (const def of STATE_MACHINES) {
    let raw = readFileSync(join(opts.repoRoot, def.definitionFile), 'utf8');
    for (const r of def.resources ?? []) {
      const value = opts.resources?.[r];
      if (!value) throw new Error(`${def.definitionFile}: no value for \${${r}}`);
      raw = raw.split(`\${${r}}`).join(value);
    }
    const asl = JSON.parse(raw);
    const placeholders = taskPlaceholders(asl.States);
    const overrides: Record<string, TaskHandler> = {};
    for (const [stateName, placeholder] of Object.entries(placeholders)) {
      const ref = def.tasks[placeholder];
      if (!ref) throw new Error(`${def.definitionFile}: task ${stateName} uses unknown placeholder ${placeholder}`);
      overrides[stateName] = (input: unknown) =>
        track(
          (async () => {
            // loaded first: a cold start does not count against the timeout (Lambda's init phase)
            const handler = await loadHandler<TaskHandler>(ref);
            const seconds = opts.taskTimeouts?.[placeholder] ?? ref.timeoutSeconds;
            const context = lambdaContext(`${def.name}-${stateName}`, seconds * 1000);
            return lambdaInvoke(() => handler(input, context as unknown as Context), seconds, context.awsRequestId);
          })(),
        );
    }
    // Resources must be valid ARNs for validation; the overrides replace them at run time.
    const resolved = JSON.parse(raw.replace(/\$\{(\w+)\}/g, (_m, p: string) => `arn:aws:lambda:${opts.region}:${ACCOUNT}:function:wps-${p}`));
    const itemMaps = new Set<string>();
    for (const reader of localizeDistributedMaps(resolved.States)) {
      overrides[reader] = (input: unknown) => track(readItems(input as never));
      itemMaps.add(`${reader} (items)`);
    }
    withoutTaskTimeouts(resolved.States);
    const arn = stateMachineArn(opts.region, def.name);
    // -- validated once, below, on a thread of its own (asl-validation.ts); every execution runs on
    // -- this instance, which keeps no state between runs --
    toValidate.push({ name: def.definitionFile, definition: resolved });
    machines.set(arn, { def, machine: new StateMachine(resolved, { validationOptions: { noValidate: true } }), overrides, itemMaps });
    arns[def.arnEnv] = arn;
  }

  await validateDefinitions(toValidate, { checkPaths: true, checkArn: true });

  const executions = new Map<string, Execution>();

  const report = async (ex: Execution) => {
    await opts.onStatusChange?.({
      executionArn: ex.executionArn,
      stateMachineArn: ex.stateMachineArn,
      name: ex.name,
      status: ex.status,
      input: ex.input,
      startDate: ex.startDate,
      stopDate: ex.stopDate,
      error: ex.error,
      cause: ex.cause,
    }).catch(() => undefined);
  };

  const server = await startAwsJsonServer(
    'application/x-amz-json-1.0',
    {
      StartExecution: (input: { stateMachineArn: string; name?: string; input?: string }) => {
        const machine = machines.get(input.stateMachineArn);
        if (!machine) throw new AwsJsonError('StateMachineDoesNotExist', `State machine ${input.stateMachineArn} does not exist`);
        const name = input.name ?? crypto.randomUUID();
        const executionArn = input.stateMachineArn.replace(':stateMachine:', ':execution:') + `:${name}`;
        if (executions.has(executionArn)) throw new AwsJsonError('ExecutionAlreadyExists', `Execution ${name} already exists`);
        const startDate = Date.now();
        const run = machine.machine.run(JSON.parse(input.input ?? '{}'), {
          overrides: { taskResourceLocalHandlers: machine.overrides as never },
          noThrowOnAbort: true,
          context: {
            Execution: { Id: executionArn, Name: name, Input: JSON.parse(input.input ?? '{}'), StartTime: new Date(startDate).toISOString() },
            StateMachine: { Id: input.stateMachineArn, Name: `wps-${machine.def.name}` },
          } as never,
        });
        const ex: Execution = { executionArn, stateMachineArn: input.stateMachineArn, name, status: 'RUNNING', input: input.input ?? '{}', startDate, abort: () => run.abort() };
        executions.set(executionArn, ex);
        // read as they come: the library queues every event (with its state's input) until read
        const stats: HistoryStats = { total: 0, parent: 0, perItem: new Map(), nestedIterations: 0, exited: new Map() };
        history.set(executionArn, stats);
        void (async () => {
          for await (const e of run.eventLogs) countEvent(stats, machine.itemMaps, e as never);
        })().catch(() => undefined);
        run.result.then(
          (output: unknown) => {
            if (ex.status !== 'RUNNING') return;
            ex.status = 'SUCCEEDED';
            ex.output = JSON.stringify(output ?? null);
            ex.stopDate = Date.now();
            void report(ex);
          },
          (err: Error & { error?: string; cause?: string }) => {
            if (ex.status !== 'RUNNING') return;
            ex.status = 'FAILED';
            ex.error = err.error ?? err.name;
            ex.cause = err.cause ?? err.message;
            ex.stopDate = Date.now();
            void report(ex);
          },
        );
        return { executionArn, startDate: startDate / 1000 };
      },
      StopExecution: (input: { executionArn: string; cause?: string; error?: string }) => {
        const ex = executions.get(input.executionArn);
        if (!ex) throw new AwsJsonError('ExecutionDoesNotExist', `Execution ${input.executionArn} does not exist`);
        if (ex.status === 'RUNNING') {
          ex.status = 'ABORTED';
          ex.cause = input.cause;
          ex.error = input.error;
          ex.stopDate = Date.now();
          ex.abort?.();
          void report(ex);
        }
        return { stopDate: (ex.stopDate ?? Date.now()) / 1000 };
      },
      DescribeExecution: (input: { executionArn: string }) => {
        const ex = executions.get(input.executionArn);
        if (!ex) throw new AwsJsonError('ExecutionDoesNotExist', `Execution ${input.executionArn} does not exist`);
        return {
          executionArn: ex.executionArn,
          stateMachineArn: ex.stateMachineArn,
          name: ex.name,
          status: ex.status,
          startDate: ex.startDate / 1000,
          stopDate: ex.stopDate ? ex.stopDate / 1000 : undefined,
          input: ex.input,
          output: ex.output,
          error: ex.error,
          cause: ex.cause,
        };
      },
    },
    opts.port,
    opts.credentials && { credentials: opts.credentials, service: 'states' },
  );

  return {
    endpoint: server.endpoint,
    arns,
    // (a task of an aborted execution runs on, as a Lambda does: this waits for those too)
    tasksIdle: async () => {
      while (inflight.size) await Promise.allSettled([...inflight]);
    },
    stop: async () => {
      for (const ex of executions.values()) if (ex.status === 'RUNNING') ex.abort?.();
      await server.stop();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...inflight]),
        new Promise((r) => (timer = setTimeout(r, 30_000))),
      ]);
      clearTimeout(timer);
    },
  };
}
