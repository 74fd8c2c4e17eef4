// WorkQueue on SQS: one JSON message per unit of work.
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { WorkQueue } from '../domain/ports';
import { sqsClient } from './aws-clients';

export class SqsWorkQueue implements WorkQueue {
  constructor(private readonly queueUrl: string) {}

  async send(message: Record<string, unknown>): Promise<void> {
    await sqsClient().send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message) }));
  }
}
