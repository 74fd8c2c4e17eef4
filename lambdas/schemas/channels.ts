// Request and response schemas of the notification-channel operations (spec §2.6, §4.6;
// api-shapes.md "Channels [SDK]"). Bodies are discriminated by channel_type; the webhook secret is
// accepted on input only and never appears in a response shape.
import { z } from 'zod';
import { JOB_EVENT_TYPES } from '../events';
import { queryBool, uuidParam } from './common';
import { webhookUrlProblem } from '../net/webhook-target';
import { SECRET_MASK } from '../credential-names';
import { maskValue } from '../credentials';

export const ChannelType = z.enum(['webhook', 'email']).meta({ id: 'ChannelType' });
export const NotificationEventType = z.enum(JOB_EVENT_TYPES).meta({ id: 'NotificationEventType' });

/** Subscribed event types: at least one, each a known event type (duplicates collapse). */
const EventTypes = z
  .array(NotificationEventType)
  .min(1, { message: 'At least one event type is required' })
  .max(20)
  .transform((v) => [...new Set(v)]);

/** https:// (or http:// to loopback on a local stack that allows it: lambdas/net/webhook-target.ts). */
const httpsUrl = z
  .string()
  .max(2048)
  .superRefine((v, ctx) => {
    const problem = webhookUrlProblem(v);
    // -- a URL can carry a credential (userinfo, a query token): never echoed --
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: maskValue('url', v) });
  });

/** On update, the masked URL a response showed (SECRET_MASK) sent back means "keep the stored URL". */
const httpsUrlOrMask = z
  .string()
  .max(2048)
  .superRefine((v, ctx) => {
    const problem = v === SECRET_MASK ? undefined : webhookUrlProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: maskValue('url', v) });
  });

/** A consumer-supplied signing secret: 24 to 75 bytes (UTF-8). */
const webhookSecret = z.string().refine((v) => Buffer.byteLength(v, 'utf8') >= 24 && Buffer.byteLength(v, 'utf8') <= 75, {
  message: 'secret must be 24 to 75 bytes long',
});

const email = z.email({ message: 'value is not a valid email address' }).max(254);
const description = z.string().max(1000).nullish();

export const CreateWebhookChannelRequest = z
  .object({
    channel_type: z.literal('webhook'),
    url: httpsUrl,
    event_types: EventTypes,
    secret: webhookSecret.nullish(),
    description,
    enabled: z.boolean().default(true),
  })
  .meta({ id: 'CreateWebhookChannelRequest' });

export const CreateEmailChannelRequest = z
  .object({
    channel_type: z.literal('email'),
    email_config: z.object({
      recipient_email: email,
      cc: z.array(email).max(10).nullish(),
      reply_to: email.nullish(),
    }),
    event_types: EventTypes,
    description,
    enabled: z.boolean().default(true).meta({ description: 'Ignored: email channels start disabled until verified' }),
  })
  .meta({ id: 'CreateEmailChannelRequest' });

/**
 * On the platform `channel_type` has a const default in each body: a body without it is read by the
 * fields it carries (`email_config` → email, otherwise webhook) rather than refused.
 */
export const CreateChannelRequest = z.preprocess(
  (v) =>
    v && typeof v === 'object' && !Array.isArray(v) && (v as { channel_type?: unknown }).channel_type == null
      ? { ...v, channel_type: 'email_config' in v ? 'email' : 'webhook' }
      : v,
  z.discriminatedUnion('channel_type', [CreateWebhookChannelRequest, CreateEmailChannelRequest]),
);

export const UpdateChannelRequest = z
  .object({
    channel_type: ChannelType.nullish(),
    description,
    enabled: z.boolean().nullish(),
    event_types: EventTypes.nullish(),
    url: httpsUrlOrMask.nullish(),
    secret: z
      .string()
      .refine((v) => v === '' || (Buffer.byteLength(v, 'utf8') >= 24 && Buffer.byteLength(v, 'utf8') <= 75), {
        message: 'secret must be 24 to 75 bytes long (an empty string removes the custom secret)',
      })
      .nullish(),
    email_config: z
      .object({ recipient_email: email.nullish(), cc: z.array(email).max(10).nullish(), reply_to: email.nullish() })
      .nullish(),
  })
  .meta({ id: 'UpdateChannelRequest' });

export const ChannelTestResponse = z
  .object({
    delivered: z.boolean().meta({ description: 'The receiver answered 2xx' }),
    status: z.number().int().nullable().meta({ description: "The receiver's HTTP status (null: no answer)" }),
    latency_ms: z.number().int().min(0),
    response_excerpt: z.string().nullable().meta({ description: "The first KiB of the receiver's answer" }),
    error: z.string().nullable().meta({ description: 'Why the test was not delivered (timeout, TLS, refused target, non-2xx)' }),
    webhook_id: z.string().meta({ description: 'The webhook-id header sent' }),
  })
  .meta({ id: 'ChannelTestResponse' });

export const VerifyChannelRequest = z
  .object({ code: z.string().regex(/^\d{6}$/, { message: 'code must be six digits' }) })
  .meta({ id: 'VerifyChannelRequest' });

export const WebhookChannelResponse = z
  .object({
    id: z.string().regex(/^ep_/),
    channel_type: z.literal('webhook'),
    url: z.string(),
    event_types: z.array(z.string()),
    enabled: z.boolean(),
    description: z.string().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    secret: z.string().optional().meta({
      description: 'Only in the response of a create (or a PATCH with secret "") that made the service generate the signing secret: shown once, never again. A secret you send is never echoed.',
    }),
  })
  .strict()
  .meta({ id: 'WebhookChannelResponse' });

export const EmailChannelResponse = z
  .object({
    id: z.string().regex(/^ep_/),
    channel_type: z.literal('email'),
    email_config: z.object({
      provider: z.string(),
      recipient_email: z.string(),
      cc: z.array(z.string()).nullable(),
      reply_to: z.string().nullable(),
    }),
    event_types: z.array(z.string()),
    enabled: z.boolean(),
    description: z.string().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .strict()
  .meta({ id: 'EmailChannelResponse' });

export const ChannelResponse = z.discriminatedUnion('channel_type', [WebhookChannelResponse, EmailChannelResponse]);
export const ChannelListResponse = z.object({ items: z.array(ChannelResponse) }).meta({ id: 'ChannelListResponse' });

export const ChannelListQuery = z.object({ channel_type: ChannelType, enabled: queryBool.optional() });
/** Channel ids are `ep_` and letters or digits (service-made: ep_ + 32 hex), checked before any lookup. */
const channelId = z.string().max(67).regex(/^ep_[A-Za-z0-9]+$/, { message: 'a channel id is ep_ followed by letters or digits' });
export const ChannelIdParams = z.object({ channel_id: channelId });
export const WorkflowChannelListParams = z.object({ workflow_id: uuidParam });
export const WorkflowChannelIdParams = z.object({ workflow_id: uuidParam, channel_id: channelId });

export type CreateChannelInput = z.output<typeof CreateChannelRequest>;
export type UpdateChannelInput = z.output<typeof UpdateChannelRequest>;
export type ChannelResponseBody = z.output<typeof ChannelResponse>;
