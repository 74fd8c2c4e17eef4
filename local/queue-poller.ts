// Local event-source mapping: long-polls each queue of lambdas/queues.ts and invokes its consumer
// with an SQS event of one record; messages the consumer reports as failed stay for redelivery (then
// the DLQ).
//
// Fair share between accounts (where Lambda would scale out, one process must share): received
// messages wait in a FairQueue keyed by the message's accountId and run `localConcurrency` at once,
// at most half of them for one account, accounts served in turn. So a tenant that queued sixty
// connection checks against names that never resolve delays another tenant's check by at most one
// check, not by sixty. Messages keep being received while others run (up to MAX_BUFFERED a queue);
// one that waits longer than a third of its visibility timeout has that timeout renewed, so it is
// never delivered twice for having waited its turn.
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SQSClient,
  type Message,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, Context } from 'aws-lambda';
import { QUEUES, type QueueDefinition } from '../lambdas/queues';
import { FairQueue } from '../lambdas/concurrency';
import { lambdaContext, loadHandler } from './handlers';

type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/** Messages received and not finished, per queue: beyond it, receiving pauses. */
const MAX_BUFFERED = 500;

function accountOf(m: Message): string {
  try {
    const id = (JSON.parse(m.Body ?? '') as { accountId?: unknown }).accountId;
    return typeof id === 'string' ? id : '';
  } catch {
    return '';
  }
}

const warn = (msg: string, fields: Record<string, unknown>) => console.error(JSON.stringify({ level: 'warn', msg, ...fields }));

export function startQueuePollers(urls: Record<string, string>, region: string): { stop(): Promise<void> } {
  const sqs = new SQSClient({ region, useQueueUrlAsEndpoint: false });
  let running = true;
  const timers: NodeJS.Timeout[] = [];
  const wake: (() => void)[] = [];
  const loops = QUEUES.map(async (q) => {
    const url = urls[q.name];
    if (!url) return;
    const handler = await loadHandler<SqsHandler>(q.handler);
    const fair = new FairQueue<string>({ concurrency: q.localConcurrency, perKey: Math.max(1, Math.floor(q.localConcurrency / 2)) });
    /** Waiting (not yet started) messages: receipt handle and when their visibility was last set. */
    const waiting = new Map<string, { handle: string; since: number }>();
    const inFlight = new Set<Promise<void>>();
    let room: (() => void) | undefined;
    wake.push(() => room?.());

    const runOne = async (m: Message) => {
      waiting.delete(m.MessageId!);
      if (!running) return; // -- stopping: left on the queue, delivered again after its visibility timeout --
      const event: SQSEvent = {
        Records: [
          {
            messageId: m.MessageId!,
            receiptHandle: m.ReceiptHandle!,
            body: m.Body ?? '',
            attributes: (m.Attributes ?? {}) as SQSEvent['Records'][number]['attributes'],
            messageAttributes: {},
            md5OfBody: m.MD5OfBody ?? '',
            eventSource: 'aws:sqs',
            eventSourceARN: url,
            awsRegion: region,
          },
        ],
      };
      let failed = false;
      try {
        const res = await handler(event, lambdaContext(q.name) as unknown as Context);
        failed = (res?.batchItemFailures ?? []).length > 0;
      } catch {
        failed = true;
      }
      if (!failed) await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! })).catch((err) => warn('queue delete failed', { queue: q.name, error: (err as Error).message }));
    };

    // -- a message waiting its turn keeps its visibility: renewed once a third of it has passed --
    const renewEvery = Math.max(1, Math.floor(q.visibilityTimeoutSeconds / 3)) * 1000;
    const renew = setInterval(() => {
      const due = [...waiting].filter(([, w]) => Date.now() - w.since >= renewEvery);
      for (let i = 0; i < due.length; i += 10) {
        const batch = due.slice(i, i + 10);
        for (const [, w] of batch) w.since = Date.now();
        sqs
          .send(new ChangeMessageVisibilityBatchCommand({
            QueueUrl: url,
            Entries: batch.map(([, w], j) => ({ Id: String(j), ReceiptHandle: w.handle, VisibilityTimeout: q.visibilityTimeoutSeconds })),
          }))
          .catch((err) => warn('queue visibility renewal failed', { queue: q.name, error: (err as Error).message }));
      }
    }, Math.min(renewEvery, 5000));
    renew.unref();
    timers.push(renew);

    while (running) {
      if (inFlight.size >= MAX_BUFFERED) {
        await new Promise<void>((r) => (room = r));
        continue;
      }
      try {
        const out = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, AttributeNames: ['All'] }),
        );
        for (const m of out.Messages ?? []) {
          // -- a redelivered copy of a message still waiting: the newer receipt handle is the one that counts --
          const known = waiting.get(m.MessageId!);
          if (known) {
            known.handle = m.ReceiptHandle!;
            continue;
          }
          waiting.set(m.MessageId!, { handle: m.ReceiptHandle!, since: Date.now() });
          const p: Promise<void> = fair
            .run(accountOf(m), () => runOne({ ...m, ReceiptHandle: waiting.get(m.MessageId!)?.handle ?? m.ReceiptHandle }))
            .finally(() => {
              inFlight.delete(p);
              room?.();
              room = undefined;
            });
          inFlight.add(p);
        }
      } catch (err) {
        if (!running) break;
        warn('queue poll failed', { queue: q.name, error: (err as Error).message });
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    await Promise.allSettled([...inFlight]);
  });
  return {
    stop: async () => {
      running = false;
      timers.forEach(clearInterval);
      wake.forEach((w) => w());
      await Promise.allSettled(loops);
      sqs.destroy();
    },
  };
}
