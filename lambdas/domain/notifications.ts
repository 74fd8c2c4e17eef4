// Persists every platform event as a notification of its account (spec §2.7, §6). Read flags are
// kept per user beside it when the notification endpoints mark them.
import { randomUUID } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import type { KeyValueStore } from './ports';
import { ENTITY, keys } from '../data/keys';

const nextSortId = monotonicFactory();

export class NotificationRecorder {
  constructor(private readonly store: KeyValueStore) {}

  async record(eventType: string, detail: Record<string, unknown>, at = new Date()): Promise<string> {
    const accountId = String(detail.account_id ?? '');
    if (!accountId) throw new Error(`event ${eventType} carries no account_id`);
    const id = randomUUID();
    const { account_id: _account, ...payload } = detail;
    await this.store.put({
      ...keys.notification(accountId, nextSortId(at.getTime())),
      entity: ENTITY.notification,
      createdAt: at.toISOString(),
      id,
      eventType,
      workflowId: (detail.workflow_id as string | undefined) ?? null,
      payload,
    });
    return id;
  }
}
