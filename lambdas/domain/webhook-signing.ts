// Standard Webhooks signing (webhook-id, webhook-timestamp, webhook-signature "v1,<base64 HMAC-SHA256>"),
// shared by the channel deliveries (channel-delivery.ts) and a channel's test event (channels.ts).
import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The same id for every attempt of one (event, channel), so receivers can de-duplicate. */
export const webhookMessageId = (eventId: string, channelId: string) =>
  `msg_${createHash('sha256').update(`${eventId}:${channelId}`).digest('hex').slice(0, 32)}`;

/**
 * The signer of a channel secret. A `whsec_<base64>` secret (the Standard Webhooks form, also what
 * the service generates) signs with its decoded bytes; any other secret with its UTF-8 bytes.
 */
function webhookSigner(secret: string): Webhook {
  if (secret.startsWith('whsec_')) {
    try {
      return new Webhook(secret);
    } catch {
      /* not base64: fall through to the raw bytes */
    }
  }
  return new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
}

/** The headers of one signed webhook request (Standard Webhooks), for deliveries and test events alike. */
export function signedWebhookHeaders(secret: string, id: string, at: Date, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'wps-webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': webhookSigner(secret).sign(id, at, body),
  };
}
