// Persists every platform event as a notification of its account (spec §2.7, §6). Read flags are
// kept per user beside it when the notification endpoints mark them.
import { createHash } from 'node:crypto';
import type { KeyValueStore } from './ports';
import { Conflict } from './errors';
import { ENTITY, keys } from '../data/keys';

/** A UUID-shaped id derived from the delivery's event id, so a redelivered event is stored once. */
function idFor(eventId: string): string {
  const h = createHash('sha256').update(eventId).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export class NotificationRecorder {
  constructor(private readonly store: KeyValueStore) {}

  /** Stores the event once per `eventId` (EventBridge and Lambda may deliver an event twice). */
  async record(eventId: string, eventType: string, detail: Record<string, unknown>, at = new Date()): Promise<string> {
    const accountId = String(detail.account_id ?? '');
    if (!accountId) throw new Error(`event ${eventType} carries no account_id`);
    const id = idFor(eventId);
    const { account_id: _account, ...payload } = detail;
    try {
      await this.store.put(
        {
          ...keys.notification(accountId, `${at.toISOString()}#${id}`),
      entity: ENTITY.notification,
      createdAt: at.toISOString(),
      id,
      eventType,
          workflowId: (detail.workflow_id as string | undefined) ?? null,
          payload,
        },
        { ifNotExists: true },
      );
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
    }
    return id;
  }
}
