// The channel delivery queue (lambdas/queues.ts `notification-deliveries`) of a local test stack, read
// through the SQS API. Tests that assert a channel heard nothing wait for deliveriesSettled() first:
// every event has been fanned out (the EventBridge stand-in is idle) and every delivery it queued
// has been attempted to the end (nothing ready, in flight or waiting for a retry), so a delivery
// that should not have happened would already be recorded by the receiver.
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { QUEUES } from '../../lambdas/queues';
import { eventually, type TestStack } from './local-stack';

export const DELIVERIES = QUEUES.find((q) => q.name === 'notification-deliveries')!;

/** A client for the stack's SQS emulator (destroy it when done). */
export const stackSqs = (stack: TestStack) => new SQSClient({ region: 'us-east-1', endpoint: stack.endpoints.sqs, useQueueUrlAsEndpoint: false });

/** Messages in a queue: ready + in flight (incl. hidden for a retry) + delayed. */
export async function queueDepth(sqs: SQSClient, queueUrl: string): Promise<number> {
  const { Attributes: a = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
    }),
  );
  return Number(a.ApproximateNumberOfMessages ?? 0) + Number(a.ApproximateNumberOfMessagesNotVisible ?? 0) + Number(a.ApproximateNumberOfMessagesDelayed ?? 0);
}

/** Waits (bounded) until every published event was fanned out and every queued delivery attempted. */
export async function deliveriesSettled(stack: TestStack, timeoutMs = 30_000): Promise<void> {
  await stack.eventsIdle();
  const url = stack.env[DELIVERIES.urlEnv];
  if (!url) throw new Error(`the stack has no ${DELIVERIES.urlEnv}`);
  const sqs = stackSqs(stack);
  try {
    await eventually(async () => ((await queueDepth(sqs, url)) === 0 ? true : undefined), 'the channel delivery queue to drain', timeoutMs);
  } finally {
    sqs.destroy();
  }
}
