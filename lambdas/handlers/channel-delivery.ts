// Channel delivery: the EventBridge target that queues one message per listening channel
// (rule deliver-to-channels), and the SQS consumer that delivers them (queue
// notification-deliveries). A failed delivery stays on the queue, hidden for a growing back-off
// (ChangeMessageVisibility: base · 2^(receive-1) s), and is dead-lettered after maxReceiveCount.
// The records of a batch (≤ 10) are delivered at once: a receiver that never answers holds its own
// delivery until WEBHOOK_TIMEOUT_MS, not the other nine.
import type { EventBridgeEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { channelDelivery } from '../services/channels';
import { DeliveryFailed, retryDelaySeconds, type DeliveryMessage } from '../domain/channel-delivery';
import { delayRedelivery } from '../adapters/sqs-queue';
import { config } from '../config';
import { eventMoment } from '../events';
import { errorFields, log } from '../logger';

export async function fanOutToChannels(event: EventBridgeEvent<string, Record<string, unknown>>): Promise<void> {
  const { at, detail } = eventMoment(event);
  const queued = await channelDelivery().fanOut(event.id, event['detail-type'], detail, at);
  if (queued) log.info('channel deliveries queued', { eventType: event['detail-type'], jobId: event.detail.job_id, channels: queued });
}

export async function deliverChannelNotification(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  const c = config();
  await Promise.all(event.Records.map(async (record) => {
    let msg: DeliveryMessage | undefined;
    try {
      msg = JSON.parse(record.body) as DeliveryMessage;
      const outcome = await channelDelivery().deliver(msg);
      log.info('channel notification', { outcome, channelId: msg.channelId, eventType: msg.eventType });
    } catch (err) {
      const receives = Number(record.attributes?.ApproximateReceiveCount ?? 1);
      const delay = retryDelaySeconds(receives, c.NOTIFICATION_RETRY_BASE_SECONDS);
      // Never the secret, the signature or the payload: ids, the status and the reason only.
      log.warn('channel delivery failed; will retry', {
        messageId: record.messageId,
        channelId: msg?.channelId,
        eventType: msg?.eventType,
        attempt: receives,
        retryInSeconds: delay,
        status: err instanceof DeliveryFailed ? err.status : undefined,
        ...(err instanceof DeliveryFailed ? { error: err.message } : errorFields(err)),
      });
      if (c.NOTIFICATION_DELIVERY_QUEUE_URL) {
        await delayRedelivery(c.NOTIFICATION_DELIVERY_QUEUE_URL, record.receiptHandle, delay).catch((e) =>
          log.warn('could not delay the redelivery', { messageId: record.messageId, ...errorFields(e) }),
        );
      }
      failures.push({ itemIdentifier: record.messageId });
    }
  }));
  return { batchItemFailures: failures };
}
