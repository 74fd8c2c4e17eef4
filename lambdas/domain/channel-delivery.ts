// Delivery of job events to notification channels (spec §6, DESIGN §5), in two steps:
// 1. fanOut (EventBridge rule target): finds the enabled channels that hear the event (account
//    channels hear every workflow, workflow channels only their own; the event type subscribed;
//    e-mail channels only when verified) and queues one message per (channel, event).
// 2. deliver (queue consumer): webhook → HTTPS POST signed per Standard Webhooks (webhook-id,
//    webhook-timestamp, webhook-signature "v1,<base64 HMAC-SHA256>"), body {type, timestamp, data};
//    e-mail → one message to recipient_email. A failure throws DeliveryFailed; the consumer then
//    delays the redelivery with a growing back-off, and SQS dead-letters it after maxReceiveCount.
import type { EmailSender, KeyValueStore, SecretBox, WebhookPoster, WorkQueue } from './ports';
import { ENTITY, keys } from '../data/keys';
import type { ChannelService } from './channels';
import { signedWebhookHeaders, webhookMessageId } from './webhook-signing';

export interface DeliveryMessage {
  accountId: string;
  scope: string;
  channelId: string;
  eventId: string;
  eventType: string;
  /** ISO time of the event. */
  time: string;
  data: Record<string, unknown>;
}

export class DeliveryFailed extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'DeliveryFailed';
  }
}

/** The POST body of a webhook delivery: {type, timestamp, data}. */
export function webhookPayload(msg: DeliveryMessage): string {
  return JSON.stringify({ type: msg.eventType, timestamp: msg.time, data: msg.data });
}

export type DeliveryOutcome = 'delivered' | 'skipped';

export class ChannelDelivery {
  constructor(
    private readonly store: KeyValueStore,
    private readonly box: SecretBox,
    private readonly channels: ChannelService,
    private readonly queue: WorkQueue,
    private readonly webhooks: WebhookPoster,
    private readonly email: EmailSender,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Queues one delivery per listening channel; returns how many. */
  async fanOut(eventId: string, eventType: string, detail: Record<string, unknown>, time: Date): Promise<number> {
    const accountId = String(detail.account_id ?? '');
    if (!accountId) throw new Error(`event ${eventType} carries no account_id`);
    const workflowId = (detail.workflow_id as string | null | undefined) ?? null;
    const listeners = await this.channels.listeners(accountId, workflowId, eventType);
    const { account_id: _account, ...data } = detail;
    for (const ch of listeners) {
      const msg: DeliveryMessage = {
        accountId,
        scope: ch.scope as string,
        channelId: ch.id as string,
        eventId,
        eventType,
        time: time.toISOString(),
        data,
      };
      await this.queue.send(msg as unknown as Record<string, unknown>);
    }
    return listeners.length;
  }

  /** Delivers one queued message; throws DeliveryFailed when it should be retried. */
  async deliver(msg: DeliveryMessage): Promise<DeliveryOutcome> {
    const ch = await this.store.get(keys.channel(msg.accountId, msg.scope, msg.channelId));
    // Deleted, disabled or (e-mail) unverified since the event was queued: nothing to deliver.
    if (!ch || ch.entity !== ENTITY.channel || !ch.enabled) return 'skipped';
    if (ch.channelType === 'webhook') {
      const secret = await this.box.open(ch.secretSealed as string);
      const body = webhookPayload(msg);
      const id = webhookMessageId(msg.eventId, msg.channelId);
      const headers = signedWebhookHeaders(secret, id, this.now(), body);
      let status: number;
      try {
        ({ status } = await this.webhooks.post(ch.url as string, headers, body));
      } catch (err) {
        throw new DeliveryFailed(`webhook request failed: ${(err as Error).message}`);
      }
      if (status < 200 || status >= 300) throw new DeliveryFailed(`webhook endpoint answered ${status}`, status);
      return 'delivered';
    }
    if (!ch.verified) return 'skipped';
    const jobId = msg.data.job_id ? ` job ${String(msg.data.job_id)}` : '';
    const workflow = msg.data.workflow_name ? ` (workflow ${String(msg.data.workflow_name)})` : '';
    try {
      await this.email.send({
        to: ch.recipientEmail as string,
        cc: (ch.cc as string[] | null) ?? undefined,
        replyTo: ch.replyTo ? [ch.replyTo as string] : undefined,
        subject: `${msg.eventType}:${jobId}${workflow}`,
        text: [`Event ${msg.eventType} at ${msg.time}`, '', JSON.stringify(msg.data, null, 2)].join('\n'),
      });
    } catch (err) {
      throw new DeliveryFailed(`email send failed: ${(err as Error).message}`);
    }
    return 'delivered';
  }
}

/** Seconds before the next attempt: base · 2^(attempt-1), capped (SQS allows up to 12 h). */
export function retryDelaySeconds(receiveCount: number, baseSeconds: number, maxSeconds = 900): number {
  return Math.min(maxSeconds, Math.round(baseSeconds * 2 ** Math.max(0, receiveCount - 1)));
}
