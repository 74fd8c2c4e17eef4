// Work queues from lambdas/queues.ts: per entry an SQS queue, its dead-letter queue (after
// maxReceiveCount receives) and a consumer ServiceFunction fed by an event-source mapping with
// partial batch responses. bindQueue() makes a function a producer: send permission on that queue
// and its URL in the entry's urlEnv variable, in one call.
import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { QUEUES, type QueueDefinition } from '../lambdas/queues';
import { ServiceFunction, type FunctionDefaults } from './base-function';
import { declaredAccess, type RouteAccess } from './api';
import { pascal } from './names';

/**
 * What each consumer may touch, by `<file>.<export>` (every consumer must be listed; the stack
 * binds it). `ownQueueUrl`: the consumer learns its own queue's URL (in the definition's urlEnv) to
 * delay a failed message's redelivery (ChangeMessageVisibility, granted by the event source).
 */
export const CONSUMER_ACCESS: Record<string, RouteAccess & { ownQueueUrl?: boolean }> = {
  // Connection checks: connector records and their secrets, nothing else.
  'workers.connectionCheckWorker': { table: 'readwrite', secrets: true, connectors: true },
  // Channel deliveries: channel records, webhook secrets (KMS), e-mail through SES.
  'channel-delivery.deliverChannelNotification': { table: 'read', secrets: true, email: true, ownQueueUrl: true },
};

export function consumerAccess(def: QueueDefinition): RouteAccess & { ownQueueUrl?: boolean } {
  return declaredAccess(CONSUMER_ACCESS, def.handler, 'CONSUMER_ACCESS (lib/queues.ts)');
}

export interface WorkQueue {
  definition: QueueDefinition;
  queue: sqs.Queue;
  deadLetterQueue: sqs.Queue;
  consumer: ServiceFunction;
}

export interface WorkQueuesProps {
  /** Physical queue names are `${prefix}-${name}` (and `-dlq`), as lambdas/queues.ts documents. */
  prefix: string;
  functionDefaults?: FunctionDefaults;
  /** Default lambdas/queues.ts QUEUES. */
  definitions?: QueueDefinition[];
  /**
   * Where the consumers are built (a nested stack of the caller's), under a child named like this
   * construct. Default this construct. The queues stay here: their names are fixed, and a named
   * resource that changed stacks would be created before the old one is gone.
   */
  functionScope?: Construct;
}

export class WorkQueues extends Construct {
  readonly queues: WorkQueue[] = [];

  constructor(scope: Construct, id: string, props: WorkQueuesProps) {
    super(scope, id);
    const fnScope = props.functionScope ? new Construct(props.functionScope, id) : this;
    for (const def of props.definitions ?? QUEUES) {
      const name = pascal(def.name);
      const deadLetterQueue = new sqs.Queue(this, `${name}DeadLetterQueue`, {
        queueName: `${props.prefix}-${def.name}-dlq`,
        retentionPeriod: Duration.days(14),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      const queue = new sqs.Queue(this, `${name}Queue`, {
        queueName: `${props.prefix}-${def.name}`,
        visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: def.maxReceiveCount },
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      // Lambda requires visibility timeout >= function timeout; half leaves room for a retry.
      const consumer = new ServiceFunction(fnScope, `${name}Consumer`, {
        file: def.handler.file,
        export: def.handler.export,
        description: `Consumer of the ${def.name} queue`,
        timeoutSeconds: Math.max(1, Math.floor(def.visibilityTimeoutSeconds / 2)),
        ...props.functionDefaults,
      });
      consumer.addEventSource(new SqsEventSource(queue, { batchSize: 10, reportBatchItemFailures: true }));
      if (consumerAccess(def).ownQueueUrl) consumer.addEnvironment(def.urlEnv, queue.queueUrl);
      this.queues.push({ definition: def, queue, deadLetterQueue, consumer });
    }
  }

  get consumers(): ServiceFunction[] {
    return this.queues.map((q) => q.consumer);
  }

  /** Makes fn a producer of one queue: send permission and the queue URL in the definition's urlEnv. */
  bindQueue(fn: lambda.Function, def: QueueDefinition): void {
    const q = this.queues.find((x) => x.definition.name === def.name);
    if (!q) throw new Error(`no queue named ${def.name}`);
    q.queue.grantSendMessages(fn);
    fn.addEnvironment(def.urlEnv, q.queue.queueUrl);
  }

  /** Makes fn a producer of every queue. */
  bindProducer(fn: lambda.Function): void {
    for (const q of this.queues) this.bindQueue(fn, q.definition);
  }
}
