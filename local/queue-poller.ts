// Local event-source mapping: long-polls each queue of lambdas/queues.ts and invokes its consumer
// with an SQS event; messages the consumer reports as failed stay for redelivery (then the DLQ).
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, Context } from 'aws-lambda';
import { QUEUES } from '../lambdas/queues';
import { lambdaContext, loadHandler } from './handlers';

type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export function startQueuePollers(urls: Record<string, string>, region: string): { stop(): Promise<void> } {
  const sqs = new SQSClient({ region, useQueueUrlAsEndpoint: false });
  let running = true;
  const loops = QUEUES.map(async (q) => {
    const url = urls[q.name];
    if (!url) return;
    const handler = await loadHandler<SqsHandler>(q.handler);
    while (running) {
      try {
        const out = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, AttributeNames: ['All'] }),
        );
        const messages = out.Messages ?? [];
        if (!messages.length) continue;
        const event: SQSEvent = {
          Records: messages.map((m) => ({
            messageId: m.MessageId!,
            receiptHandle: m.ReceiptHandle!,
            body: m.Body ?? '',
            attributes: (m.Attributes ?? {}) as SQSEvent['Records'][number]['attributes'],
            messageAttributes: {},
            md5OfBody: m.MD5OfBody ?? '',
            eventSource: 'aws:sqs',
            eventSourceARN: url,
            awsRegion: region,
          })),
        };
        let failed = new Set<string>();
        try {
          const res = await handler(event, lambdaContext(q.name) as unknown as Context);
          failed = new Set((res?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        } catch {
          failed = new Set(messages.map((m) => m.MessageId!));
        }
        const done = messages.filter((m) => !failed.has(m.MessageId!));
        if (done.length) {
          await sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl: url,
              Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
            }),
          );
        }
      } catch (err) {
        if (!running) break;
        console.error(JSON.stringify({ level: 'warn', msg: 'queue poll failed', queue: q.name, error: (err as Error).message }));
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.allSettled(loops);
      sqs.destroy();
    },
  };
}
