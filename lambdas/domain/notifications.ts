// Persists every platform event as a notification of its account (spec §2.7, §6) and delivers it to
// the inbox of every user of the account, where read flags live per user (spec §5).
//
// Ids are UUIDv7-shaped: the event's millisecond in the first 48 bits, then the job event's lifecycle
// rank (the first digit after the version), then a hash of the delivery's event id, so (a) a
// redelivered event gets the same id and is stored once, and (b) ids sort by time, and one job's
// events that share a millisecond sort scheduled < in_progress < end: an inbox item's sort key
// `NOTE#<id>` is both its order and its direct address by id. The millisecond is the publisher's
// (EventBridge's own `time` has whole seconds only; see eventMoment in lambdas/events.ts).
//
// Inbox delivery is idempotent: the inbox put is conditional and the unread counters are bumped only
// when it succeeded, so a redelivered event never counts twice. Without transactions (dynalite has
// none) a crash between the put and the counter update loses that one increment; the README says so.
import { createHash } from 'node:crypto';
import type { KeyValueStore } from './ports';
import { Conflict } from '../errors';
import { ENTITY, keys } from '../data/keys';
import { jobEventRank } from '../events';

/** `tttttttt-tttt` of a UUIDv7: the millisecond time part, which orders ids. */
export function idTimePrefix(ms: number): string {
  const t = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0').slice(-12);
  return `${t.slice(0, 8)}-${t.slice(8, 12)}`;
}

/**
 * A time-ordered UUID (v7 layout) derived from the delivery's event id, the event time and, as a
 * tie-break within one millisecond, a rank 0–15 (RFC 9562 lets rand_a carry such ordering bits).
 */
export function notificationIdFor(eventId: string, at: Date, rank = 0): string {
  const h = createHash('sha256').update(eventId).digest('hex');
  const variant = ((parseInt(h[3]!, 16) & 3) | 8).toString(16);
  const r = Math.min(15, Math.max(0, Math.floor(rank))).toString(16);
  return `${idTimePrefix(at.getTime())}-7${r}${h.slice(1, 3)}-${variant}${h.slice(4, 7)}-${h.slice(7, 19)}`;
}

/** The users whose inboxes receive an account's events. */
export type Audience = (accountId: string) => Promise<string[]>;

export class NotificationRecorder {
  constructor(
    private readonly store: KeyValueStore,
    private readonly audience: Audience = async () => [],
  ) {}

  /** Stores the event once per `eventId` (EventBridge and Lambda may deliver an event twice). */
  async record(eventId: string, eventType: string, detail: Record<string, unknown>, at = new Date()): Promise<string> {
    const accountId = String(detail.account_id ?? '');
    if (!accountId) throw new Error(`event ${eventType} carries no account_id`);
    const id = notificationIdFor(eventId, at, jobEventRank(eventType));
    const { account_id: _account, ...payload } = detail;
    const workflowId = typeof detail.workflow_id === 'string' && detail.workflow_id ? detail.workflow_id : null;
    const createdAt = at.toISOString();
    await this.putOnce({
      ...keys.notification(accountId, `${createdAt}#${id}`),
      entity: ENTITY.notification,
      createdAt,
      id,
      eventType,
      workflowId,
      payload,
    });
    const users = [...new Set(await this.audience(accountId))];
    await Promise.all(
      users.map((userId) => this.deliver(accountId, userId, { id, eventType, workflowId, payload, createdAt })),
    );
    return id;
  }

  private async deliver(
    accountId: string,
    userId: string,
    note: { id: string; eventType: string; workflowId: string | null; payload: Record<string, unknown>; createdAt: string },
  ): Promise<void> {
    const sk = keys.inboxSortKey(note.id);
    const fresh = await this.putOnce({
      ...keys.inboxItem(accountId, userId, note.id),
      entity: ENTITY.inboxNotification,
      ...note,
      GSI2PK: keys.inboxUnreadIndex(accountId, userId),
      GSI2SK: sk,
      ...(note.workflowId ? { GSI1PK: keys.inboxWorkflowIndex(accountId, userId, note.workflowId), GSI1SK: sk } : {}),
    });
    if (!fresh) return;
    const bump = (workflowId?: string | null) =>
      this.store.update(keys.unreadCounter(accountId, userId, workflowId), {
        add: { unread: 1 },
        set: { entity: ENTITY.unreadCounter, updatedAt: note.createdAt },
        upsert: true,
      });
    await Promise.all([bump(), ...(note.workflowId ? [bump(note.workflowId)] : [])]);
  }

  /** True when written now, false when an earlier delivery already wrote it. */
  private async putOnce(item: Parameters<KeyValueStore['put']>[0]): Promise<boolean> {
    try {
      await this.store.put(item, { ifNotExists: true });
      return true;
    } catch (err) {
      if (err instanceof Conflict) return false;
      throw err;
    }
  }
}
