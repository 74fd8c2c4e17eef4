// Notification channels (spec §2.6, §3, §4.6): webhook and e-mail endpoints that hear job events,
// scoped to the account (all workflows) or to one workflow.
//
// - Webhook secrets (consumer-supplied 24–75 bytes, else generated) are sealed by the SecretBox and
//   never leave this module except to sign a delivery.
// - E-mail channels start disabled; a six-digit code goes to recipient_email. Only a salted hash of
//   it is stored, with an expiry and an attempt limit. The right code verifies and enables the
//   channel; a wrong one is a 400. Changing recipient_email resets verification and sends a new code.
// - At most 50 channels per scope, enforced by a conditional counter (409 beyond it).
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Clock, EmailSender, KeyValueStore, SecretBox, StoredItem, WebhookPoster } from './ports';
import { systemClock } from './ports';
import { BadRequest, Conflict, NotFound, RateLimited, ServiceUnavailable, ValidationError } from '../errors';
import type { Principal } from './auth';
import { ENTITY, keys } from '../data/keys';
import type { ChannelResponseBody, CreateChannelInput, UpdateChannelInput } from '../schemas/channels';
import { assertAllowedUrl, OutboundPolicyError } from '../net/outbound';
import { signedWebhookHeaders, webhookMessageId } from './webhook-signing';
import { SECRET_MASK } from '../credential-names';
import { maskValue } from '../credentials';

export const MAX_CHANNELS_PER_SCOPE = 50;

/** Verification e-mails allowed per hour (operator settings MAIL_VERIFICATIONS_PER_HOUR, MAIL_VERIFICATIONS_PER_RECIPIENT_PER_HOUR). */
export interface MailLimits {
  perAccountPerHour: number;
  perRecipientPerHour: number;
}
export const DEFAULT_MAIL_LIMITS: MailLimits = { perAccountPerHour: 20, perRecipientPerHour: 5 };
export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;
export const MAX_VERIFY_ATTEMPTS = 5;
export const EMAIL_PROVIDER = 'ses';
/** Least time between two test events of one channel (each is a request to the tenant's receiver). */
export const TEST_INTERVAL_MS = 10_000;
/** The event type of a test delivery: no job event has it, so receivers can tell it apart. */
export const TEST_EVENT_TYPE = 'channel.test';

export interface ChannelTestResult {
  delivered: boolean;
  status: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
  webhook_id: string;
}

/** Where a channel lives: the whole account, or one workflow of it. */
export type ChannelScope = { kind: 'account' } | { kind: 'workflow'; workflowId: string };

export const scopeKey = (s: ChannelScope) => (s.kind === 'account' ? keys.accountScope : keys.workflowScope(s.workflowId));

interface Verification {
  salt: string;
  codeHash: string;
  expiresAt: string;
}

const hashCode = (salt: string, code: string) => createHash('sha256').update(`${salt}:${code}`).digest('hex');

/** A generated signing secret in the Standard Webhooks form (whsec_ + base64 of 32 random bytes). */
export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Adds `secret` to the one response whose request made the service generate it (never otherwise). */
function withGeneratedSecret(res: ChannelResponseBody, generated: string | undefined): ChannelResponseBody {
  return generated && res.channel_type === 'webhook' ? { ...res, secret: generated } : res;
}

export function toChannelResponse(item: StoredItem): ChannelResponseBody {
  const common = {
    id: item.id as string,
    event_types: item.eventTypes as string[],
    enabled: Boolean(item.enabled),
    description: (item.description as string | null | undefined) ?? null,
    created_at: item.createdAt,
    updated_at: (item.updatedAt as string | undefined) ?? item.createdAt,
  };
  // -- a URL with userinfo or a query token is a credential: masked (sent back on update, it keeps the URL) --
  if (item.channelType === 'webhook') return { ...common, channel_type: 'webhook', url: maskValue('url', item.url) as string };
  return {
    ...common,
    channel_type: 'email',
    email_config: {
      provider: EMAIL_PROVIDER,
      recipient_email: item.recipientEmail as string,
      cc: (item.cc as string[] | null | undefined) ?? null,
      reply_to: (item.replyTo as string | null | undefined) ?? null,
    },
  };
}

/**
 * A webhook target the outbound policy refuses (metadata, or private while private networks are
 * denied: the name resolved now, lambdas/net/outbound.ts) is a 422 at create/update rather than a
 * failure at every delivery. A name that does not resolve yet passes: deliveries retry, and the
 * connect-time check still applies to whatever it resolves to then.
 */
async function assertReachableTarget(url: string): Promise<void> {
  try {
    await assertAllowedUrl(url);
  } catch (err) {
    if (err instanceof OutboundPolicyError) throw ValidationError.single(['body', 'url'], err.message, 'value_error', maskValue('url', url));
  }
}

export class ChannelService {
  constructor(
    private readonly store: KeyValueStore,
    private readonly box: SecretBox,
    private readonly email: EmailSender,
    private readonly clock: Clock = systemClock,
    private readonly mailLimits: MailLimits = DEFAULT_MAIL_LIMITS,
  ) {}

  /**
   * One more verification mail, within the hour's allowance of the account and of the recipient
   * (429 naming the limit beyond either): channel creates, recipient changes and exhausted codes
   * cannot turn the service into a relay that mails any address.
   */
  private async reserveMail(accountId: string, recipient: string): Promise<void> {
    const now = this.clock.now();
    const hour = now.toISOString().slice(0, 13);
    const expiresAt = Math.floor(now.getTime() / 1000) + 2 * 3600;
    const retryAfter = 3600 - (Math.floor(now.getTime() / 1000) % 3600);
    const recipientKey = createHash('sha256').update(recipient.trim().toLowerCase()).digest('hex');
    const windows: [{ PK: string; SK: string }, number, string][] = [
      [keys.mailRate(`ACCT#${accountId}`, hour), this.mailLimits.perAccountPerHour, `At most ${this.mailLimits.perAccountPerHour} verification e-mails per hour per account`],
      [keys.mailRate(`MAILTO#${recipientKey}`, hour), this.mailLimits.perRecipientPerHour, `At most ${this.mailLimits.perRecipientPerHour} verification e-mails per hour to one address`],
    ];
    for (const [key, limit, message] of windows) {
      try {
        await this.store.update(key, {
          set: { entity: ENTITY.mailRate, expiresAt },
          add: { count: 1 },
          conditions: [{ or: [{ attr: 'count', op: 'notExists' }, { attr: 'count', op: 'lt', value: limit }] }],
          upsert: true,
        });
      } catch (err) {
        if (err instanceof Conflict) throw new RateLimited(`${message}; try again in ${Math.ceil(retryAfter / 60)} minute(s)`, retryAfter);
        throw err;
      }
    }
  }

  async create(p: Principal, scope: ChannelScope, body: CreateChannelInput): Promise<ChannelResponseBody> {
    await this.assertScope(p.accountId, scope);
    if (body.channel_type === 'webhook') await assertReachableTarget(body.url);
    const sk = scopeKey(scope);
    await this.reserveSlot(p.accountId, sk);
    const now = this.clock.now().toISOString();
    const id = `ep_${randomBytes(16).toString('hex')}`;
    const base: StoredItem = {
      ...keys.channel(p.accountId, sk, id),
      entity: ENTITY.channel,
      createdAt: now,
      updatedAt: now,
      id,
      scope: sk,
      workflowId: scope.kind === 'workflow' ? scope.workflowId : null,
      channelType: body.channel_type,
      eventTypes: body.event_types,
      description: body.description ?? null,
    };
    let item: StoredItem;
    let code: string | undefined;
    // -- a secret the service makes is shown once, in this response: the consumer needs it to verify signatures --
    let generated: string | undefined;
    try {
      if (body.channel_type === 'webhook') {
        if (!body.secret) generated = generateWebhookSecret();
        item = {
          ...base,
          url: body.url,
          enabled: body.enabled,
          secretSealed: await this.box.seal(body.secret || generated!),
          customSecret: Boolean(body.secret),
        };
      } else {
        const v = this.newVerification();
        code = v.code;
        item = {
          ...base,
          enabled: false,
          verified: false,
          recipientEmail: body.email_config.recipient_email,
          cc: body.email_config.cc ?? null,
          replyTo: body.email_config.reply_to ?? null,
          verification: v.record,
          verifyAttempts: 0,
        };
      }
      if (code) await this.reserveMail(p.accountId, String(item.recipientEmail));
      await this.store.put(item, { ifNotExists: true });
    } catch (err) {
      await this.releaseSlot(p.accountId, sk);
      throw err;
    }
    if (code) {
      try {
        await this.sendCode(item, code);
      } catch (err) {
        // Without the code the channel could never be verified: undo the create.
        await this.store.delete(keys.channel(p.accountId, sk, id));
        await this.releaseSlot(p.accountId, sk);
        throw new ServiceUnavailable(`Could not send the verification code to ${String(item.recipientEmail)}: ${(err as Error).message}`);
      }
    }
    return withGeneratedSecret(toChannelResponse(item), generated);
  }

  async list(p: Principal, scope: ChannelScope, q: { channel_type: 'webhook' | 'email'; enabled?: boolean }): Promise<{ items: ChannelResponseBody[] }> {
    await this.assertScope(p.accountId, scope);
    const items = await this.store.queryPrefix(keys.account(p.accountId), keys.channelPrefix(scopeKey(scope)));
    return {
      items: items
        .filter((i) => i.entity === ENTITY.channel && i.channelType === q.channel_type)
        .filter((i) => q.enabled === undefined || Boolean(i.enabled) === q.enabled)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .map(toChannelResponse),
    };
  }

  async get(p: Principal, scope: ChannelScope, id: string): Promise<ChannelResponseBody> {
    return toChannelResponse(await this.load(p.accountId, scope, id));
  }

  async update(p: Principal, scope: ChannelScope, id: string, body: UpdateChannelInput): Promise<ChannelResponseBody> {
    const item = await this.load(p.accountId, scope, id);
    const type = item.channelType as 'webhook' | 'email';
    if (body.channel_type && body.channel_type !== type) {
      throw ValidationError.single(['body', 'channel_type'], `channel_type is immutable (this channel is ${type})`, 'value_error', body.channel_type);
    }
    const wrongKind = type === 'webhook' ? (['email_config'] as const) : (['url', 'secret'] as const);
    for (const f of wrongKind) {
      if (body[f] !== undefined && body[f] !== null) {
        throw ValidationError.single(['body', f], `${f} does not apply to a ${type} channel`, 'value_error');
      }
    }
    const set: Record<string, unknown> = { updatedAt: this.clock.now().toISOString() };
    const remove: string[] = [];
    if (body.description !== undefined) set.description = body.description;
    if (body.event_types) set.eventTypes = body.event_types;
    let code: string | undefined;
    let generated: string | undefined;
    if (type === 'webhook') {
      if (body.url && body.url !== SECRET_MASK) {
        await assertReachableTarget(body.url);
        set.url = body.url;
      }
      if (typeof body.secret === 'string') {
        // -- an empty string drops the custom secret: a new one is made and shown once, in this response --
        if (body.secret === '') generated = generateWebhookSecret();
        set.secretSealed = await this.box.seal(body.secret || generated!);
        set.customSecret = body.secret !== '';
      }
      if (typeof body.enabled === 'boolean') set.enabled = body.enabled;
    } else {
      const ec = body.email_config;
      let verified = Boolean(item.verified);
      if (ec?.recipient_email && ec.recipient_email !== item.recipientEmail) {
        const v = this.newVerification();
        code = v.code;
        verified = false;
        Object.assign(set, { recipientEmail: ec.recipient_email, verified: false, enabled: false, verification: v.record, verifyAttempts: 0 });
      }
      if (ec && ec.cc !== undefined) set.cc = ec.cc;
      if (ec && ec.reply_to !== undefined) set.replyTo = ec.reply_to;
      if (body.enabled === true && !verified) {
        throw new Conflict('This email channel is not verified: POST the six-digit code sent to recipient_email to .../verify first');
      }
      if (typeof body.enabled === 'boolean') set.enabled = body.enabled;
    }
    if (code) await this.reserveMail(p.accountId, String(set.recipientEmail));
    const updated = await this.store.update(keys.channel(p.accountId, scopeKey(scope), id), { set, remove });
    if (code) await this.sendCode(updated, code);
    return withGeneratedSecret(toChannelResponse(updated), generated);
  }

  async delete(p: Principal, scope: ChannelScope, id: string): Promise<void> {
    await this.load(p.accountId, scope, id);
    if (await this.store.delete(keys.channel(p.accountId, scopeKey(scope), id))) await this.releaseSlot(p.accountId, scopeKey(scope));
  }

  async verify(p: Principal, scope: ChannelScope, id: string, code: string): Promise<void> {
    const item = await this.load(p.accountId, scope, id);
    if (item.channelType !== 'email') throw new BadRequest('Only email channels are verified; webhook channels need no verification');
    if (item.verified) return;
    const v = item.verification as Verification | undefined;
    const key = keys.channel(p.accountId, scopeKey(scope), id);
    // Spend an attempt before comparing (atomically), so parallel guesses cannot exceed the limit.
    let spent = false;
    if (v && v.expiresAt >= this.clock.now().toISOString()) {
      spent = await this.store
        .update(key, { add: { verifyAttempts: 1 }, conditions: [{ or: [{ attr: 'verifyAttempts', op: 'notExists' }, { attr: 'verifyAttempts', op: 'lt', value: MAX_VERIFY_ATTEMPTS }] }] })
        .then(() => true, (err) => {
          if (err instanceof Conflict) return false;
          throw err;
        });
    }
    if (!v || !spent) {
      // The old code is spent or expired: a fresh one goes out so the owner can finish.
      await this.reserveMail(p.accountId, String(item.recipientEmail));
      const fresh = this.newVerification();
      const updated = await this.store.update(key, { set: { verification: fresh.record, verifyAttempts: 0 } });
      await this.sendCode(updated, fresh.code);
      throw new BadRequest('The verification code has expired or too many wrong codes were tried; a new code has been sent to recipient_email');
    }
    const expected = Buffer.from(v.codeHash, 'hex');
    const given = Buffer.from(hashCode(v.salt, code), 'hex');
    if (!timingSafeEqual(expected, given)) {
      const left = MAX_VERIFY_ATTEMPTS - Number(item.verifyAttempts ?? 0) - 1;
      throw new BadRequest(`Invalid verification code (${Math.max(0, left)} attempt(s) left)`);
    }
    await this.store.update(key, {
      set: { verified: true, enabled: true, verifiedAt: this.clock.now().toISOString(), updatedAt: this.clock.now().toISOString() },
      remove: ['verification', 'verifyAttempts'],
    });
  }

  /**
   * Sends a signed test event (the same signature scheme as deliveries) to a webhook channel, enabled
   * or not, and reports the receiver's answer. One per channel per TEST_INTERVAL_MS (429 beyond),
   * claimed by a conditional update so concurrent calls cannot both pass.
   */
  async sendTest(p: Principal, scope: ChannelScope, id: string, poster: WebhookPoster): Promise<ChannelTestResult> {
    const item = await this.load(p.accountId, scope, id);
    if (item.channelType !== 'webhook') {
      throw new BadRequest('Test events are for webhook channels (an email channel proves itself with its verification code)');
    }
    const at = this.clock.now();
    const last = Number(item.testedAt ?? 0);
    try {
      await this.store.update(keys.channel(p.accountId, scopeKey(scope), id), {
        set: { testedAt: at.getTime() },
        conditions: [{ or: [{ attr: 'testedAt', op: 'notExists' }, { attr: 'testedAt', op: 'le', value: at.getTime() - TEST_INTERVAL_MS }] }],
      });
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
      const wait = Math.max(1, Math.ceil((last + TEST_INTERVAL_MS - at.getTime()) / 1000));
      throw new RateLimited(`One test event per channel every ${TEST_INTERVAL_MS / 1000} s; retry in ${wait} s`, wait);
    }
    const body = JSON.stringify({
      type: TEST_EVENT_TYPE,
      timestamp: at.toISOString(),
      data: { channel_id: id, message: 'A test event: deliveries to this URL are signed like this one' },
    });
    const webhookId = webhookMessageId(`test:${randomBytes(8).toString('hex')}`, id);
    const headers = signedWebhookHeaders(await this.box.open(item.secretSealed as string), webhookId, at, body);
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    try {
      const res = await poster.post(item.url as string, headers, body);
      const ok = res.status >= 200 && res.status < 300;
      return { delivered: ok, status: res.status, latency_ms: took(), response_excerpt: res.body ?? '', error: ok ? null : `the receiver answered ${res.status}`, webhook_id: webhookId };
    } catch (err) {
      return { delivered: false, status: null, latency_ms: took(), response_excerpt: null, error: (err as Error).message, webhook_id: webhookId };
    }
  }

  /** Enabled channels of the account and of the event's workflow that subscribe to the event type. */
  async listeners(accountId: string, workflowId: string | null | undefined, eventType: string): Promise<StoredItem[]> {
    const scopes = [keys.accountScope, ...(workflowId ? [keys.workflowScope(workflowId)] : [])];
    const found = await Promise.all(scopes.map((s) => this.store.queryPrefix(keys.account(accountId), keys.channelPrefix(s))));
    return found
      .flat()
      .filter((i) => i.entity === ENTITY.channel && i.enabled && (i.eventTypes as string[]).includes(eventType))
      .filter((i) => i.channelType === 'webhook' || i.verified);
  }

  private newVerification(): { code: string; record: Verification } {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const salt = randomBytes(16).toString('hex');
    return {
      code,
      record: { salt, codeHash: hashCode(salt, code), expiresAt: new Date(this.clock.now().getTime() + VERIFICATION_TTL_MS).toISOString() },
    };
  }

  private async sendCode(item: StoredItem, code: string): Promise<void> {
    await this.email.send({
      to: item.recipientEmail as string,
      subject: 'Verify your notification channel',
      text: [
        `Your verification code is ${code}`,
        '',
        `Channel ${String(item.id)} will deliver job notifications to this address once verified.`,
        `Verify it with POST .../notifications/channels/${String(item.id)}/verify {"code":"${code}"}.`,
        `The code expires in 24 hours. If you did not expect this message, ignore it.`,
      ].join('\n'),
    });
  }

  private async load(accountId: string, scope: ChannelScope, id: string): Promise<StoredItem> {
    await this.assertScope(accountId, scope);
    const item = await this.store.get(keys.channel(accountId, scopeKey(scope), id));
    if (!item || item.entity !== ENTITY.channel) throw new NotFound(`Channel ${id} not found`);
    return item;
  }

  /** A workflow scope must name a live workflow of the account. */
  private async assertScope(accountId: string, scope: ChannelScope): Promise<void> {
    if (scope.kind === 'account') return;
    const wf = await this.store.get(keys.workflow(accountId, scope.workflowId));
    if (!wf || wf.deletedAt) throw new NotFound(`Workflow with id ${scope.workflowId} not found`);
  }

  private async reserveSlot(accountId: string, sk: string): Promise<void> {
    try {
      await this.store.update(keys.channelCount(accountId, sk), {
        set: { entity: ENTITY.channelCount, createdAt: this.clock.now().toISOString() },
        add: { count: 1 },
        conditions: [{ or: [{ attr: 'count', op: 'notExists' }, { attr: 'count', op: 'lt', value: MAX_CHANNELS_PER_SCOPE }] }],
        upsert: true,
      });
    } catch (err) {
      if (err instanceof Conflict) throw new Conflict(`At most ${MAX_CHANNELS_PER_SCOPE} channels per scope; delete one first`);
      throw err;
    }
  }

  private async releaseSlot(accountId: string, sk: string): Promise<void> {
    await this.store.update(keys.channelCount(accountId, sk), { add: { count: -1 }, conditions: [{ attr: 'count', op: 'gt', value: 0 }] }).catch(() => undefined);
  }
}
