// Composition root of the notification-channel area: channel CRUD/verification and delivery.
import { config } from '../config';
import { lazySecretBox } from '../adapters/secret-box';
import { SqsWorkQueue } from '../adapters/sqs-queue';
import { SesEmailSender } from '../adapters/ses-email';
import { HttpsWebhookPoster } from '../adapters/https-webhook';
import { ChannelService } from '../domain/channels';
import { ChannelDelivery } from '../domain/channel-delivery';
import type { WorkQueue } from '../domain/ports';
import { coreStore } from './core';

let channels: ChannelService | undefined;
let delivery: ChannelDelivery | undefined;
let poster: HttpsWebhookPoster | undefined;

/** The webhook client of deliveries and test events (outbound policy, WEBHOOK_CA_FILE, timeout). */
export function webhookPoster(): HttpsWebhookPoster {
  return (poster ??= new HttpsWebhookPoster(config().WEBHOOK_TIMEOUT_MS, config().WEBHOOK_CA_FILE));
}

const unconfiguredQueue: WorkQueue = {
  send: async () => {
    throw new Error('NOTIFICATION_DELIVERY_QUEUE_URL is not configured');
  },
};

export function channelService(): ChannelService {
  return (channels ??= new ChannelService(coreStore(), lazySecretBox, new SesEmailSender(config().SES_FROM_ADDRESS, config().SES_CONFIGURATION_SET), undefined, {
    perAccountPerHour: config().MAIL_VERIFICATIONS_PER_HOUR,
    perRecipientPerHour: config().MAIL_VERIFICATIONS_PER_RECIPIENT_PER_HOUR,
  }));
}

export function channelDelivery(): ChannelDelivery {
  if (delivery) return delivery;
  const c = config();
  delivery = new ChannelDelivery(
    coreStore(),
    lazySecretBox,
    channelService(),
    c.NOTIFICATION_DELIVERY_QUEUE_URL ? new SqsWorkQueue(c.NOTIFICATION_DELIVERY_QUEUE_URL) : unconfiguredQueue,
    webhookPoster(),
    new SesEmailSender(c.SES_FROM_ADDRESS, c.SES_CONFIGURATION_SET),
  );
  return delivery;
}

export function resetChannelServices(): void {
  channels = undefined;
  delivery = undefined;
  poster = undefined;
}
