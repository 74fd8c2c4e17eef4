// Delivery retries of a webhook that keeps failing, on the whole local stack (the real fauxqs queue
// with the redrive policy from lambdas/queues.ts, the real poller and consumer): it is attempted
// exactly 8 times, each failure hides the message for the README's back-off (base 30 s, doubled per
// attempt, capped at 900 s) through ChangeMessageVisibility, and then SQS moves it to the DLQ.
//
// The back-off is read from the consumer's own ChangeMessageVisibility calls (an SDK middleware on
// its SQS client records the VisibilityTimeout asked for); the middleware then lets that time pass at
// once (sends VisibilityTimeout 0), so eight receives take a moment instead of 45 minutes. The
// receive count, the redrive and the DLQ are fauxqs's own.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { GetQueueAttributesCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { ChangeMessageVisibilityCommandInput } from '@aws-sdk/client-sqs';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { DELIVERIES, queueDepth, stackSqs } from '../support/delivery-queue';
import { sqsClient } from '../../lambdas/adapters/aws-clients';
import { EventBridgePublisher } from '../../lambdas/adapters/eventbridge-publisher';
import type { DeliveryMessage } from '../../lambdas/domain/channel-delivery';

/** README "Notification channels → Retries": 8 receives, then the DLQ; 30 s · 2^(n-1), capped at 900 s. */
const RECEIVES = 8;
const BACKOFF = [30, 60, 120, 240, 480, 900, 900, 900];

const hits: { webhookId: string; body: string }[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    hits.push({ webhookId: String(req.headers['webhook-id']), body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(503).end('down for good');
  });
});

let stack: TestStack | undefined;
/** VisibilityTimeout of each ChangeMessageVisibility the consumer sent, in order. */
const askedFor: number[] = [];

before(async () => {
  if (NEEDS_LOCAL) return;
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  delete process.env.NOTIFICATION_RETRY_BASE_SECONDS; // the default base, as deployed
  stack = await startTestStack({ allowLoopbackWebhooks: true });
  sqsClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'ChangeMessageVisibilityCommand') {
        const input = args.input as ChangeMessageVisibilityCommandInput;
        askedFor.push(input.VisibilityTimeout!);
        args = { ...args, input: { ...input, VisibilityTimeout: 0 } };
      }
      return next(args);
    },
    { step: 'initialize', name: 'recordBackoff' },
  );
});

after(async () => {
  await stack?.close();
  receiver.close();
});

test('a webhook that keeps failing is attempted 8 times with the documented back-off, then dead-lettered', { skip: NEEDS_LOCAL }, async () => {
  const s = stack!;
  const sqs = stackSqs(s);
  try {
    const url = s.env[DELIVERIES.urlEnv]!;
    const { Attributes: attrs = {} } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['RedrivePolicy'] }));
    const redrive = JSON.parse(attrs.RedrivePolicy ?? '{}') as { deadLetterTargetArn?: string; maxReceiveCount?: number };
    assert.equal(Number(redrive.maxReceiveCount), RECEIVES, 'the local queue is created with the one maxReceiveCount (lambdas/queues.ts)');
    assert.match(redrive.deadLetterTargetArn ?? '', /:wps-notification-deliveries-dlq$/);
    const dlqUrl = url.replace(/notification-deliveries$/, 'notification-deliveries-dlq');

    const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    const ch = await s.call('POST', '/api/v1/notifications/channels', { body: { channel_type: 'webhook', url: hookUrl, event_types: ['job.failed'] } });
    assert.equal(ch.status, 201, ch.text);
    const jobId = '0190f0a0-0000-7000-8000-0000000dead1';
    await new EventBridgePublisher(s.env.EVENT_BUS_NAME!).publish('job.failed', { account_id: 'default', job_id: jobId, workflow_id: null, status: 'FAILED', job_type: 'ephemeral', message: 'boom' });
    await s.eventsIdle();

    // The message reaches the DLQ (fauxqs moves it on the receive after the 8th).
    const dead = await eventually(async () => {
      const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      return out.Messages?.[0];
    }, 'the delivery to land in the dead-letter queue', 60_000);
    const msg = JSON.parse(dead.Body!) as DeliveryMessage;
    assert.equal(msg.channelId, ch.body.id);
    assert.equal(msg.eventType, 'job.failed');
    assert.equal(msg.data.job_id, jobId);

    // Exactly 8 attempts (it is off the queue now, so there can be no 9th), all one webhook-id.
    const attempts = hits.filter((h) => h.body.includes(jobId));
    assert.equal(attempts.length, RECEIVES, `attempts: ${attempts.length}`);
    assert.equal(new Set(attempts.map((h) => h.webhookId)).size, 1);
    // Each failed receive hid the message for the next step of the schedule.
    assert.deepEqual(askedFor, BACKOFF);
    assert.equal(await queueDepth(sqs, url), 0, 'nothing left on the delivery queue');
  } finally {
    sqs.destroy();
  }
});
