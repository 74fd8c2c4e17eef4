// Asynchronous work queues and their consumers. Read by the CDK (an SQS queue with a DLQ and an
// event-source mapping per entry) and by the local runner (a poller per entry).

export interface QueueDefinition {
  /** Logical name; the physical queue is `${stackPrefix}-${name}`. */
  name: string;
  /** Environment variable through which producers learn the queue URL. */
  urlEnv: string;
  handler: { file: string; export: string };
  /** Receives before a message moves to the dead-letter queue. */
  maxReceiveCount: number;
  visibilityTimeoutSeconds: number;
  /**
   * `npm start` only: messages run at once in the one process (at most half of them for one account,
   * accounts in turn: local/queue-poller.ts). On AWS, Lambda scales the consumer out instead.
   */
  localConcurrency: number;
}

export const QUEUES: QueueDefinition[] = [
  {
    name: 'connection-checks',
    urlEnv: 'CONNECTION_CHECK_QUEUE_URL',
    handler: { file: 'workers', export: 'connectionCheckWorker' },
    maxReceiveCount: 3,
    visibilityTimeoutSeconds: 60,
    localConcurrency: 8,
  },
  {
    // One message per (channel, event). A failed delivery is hidden for a growing back-off
    // (NOTIFICATION_RETRY_BASE_SECONDS · 2^(n-1), capped at 900 s) and dead-lettered after 8 receives.
    name: 'notification-deliveries',
    urlEnv: 'NOTIFICATION_DELIVERY_QUEUE_URL',
    handler: { file: 'channel-delivery', export: 'deliverChannelNotification' },
    maxReceiveCount: 8,
    visibilityTimeoutSeconds: 60,
    localConcurrency: 8,
  },
];
