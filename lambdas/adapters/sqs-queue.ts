// WorkQueue on SQS: one JSON message per unit of work.
import { ChangeMessageVisibilityCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { WorkQueue } from '../domain/ports';
import { sqsClient } from './aws-clients';

export class SqsWorkQueue implements WorkQueue {
  constructor(private readonly queueUrl: string) {}

  async send(message: Record<string, unknown>): Promise<void> {
    await sqsClient().send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message) }));
  }
}

/** Keeps a received message hidden for `seconds` more: the back-off before its next delivery. */
export async function delayRedelivery(queueUrl: string, receiptHandle: string, seconds: number): Promise<void> {
  await sqsClient().send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }));
}
