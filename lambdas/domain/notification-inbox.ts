// The notification endpoints (spec §4.7) over a user's inbox partition:
//   PK ACCT#<a>#USER#<u>#INBOX, SK NOTE#<time-ordered id>   list (newest first), get and mark by id
//   GSI2 ACCT#<a>#USER#<u>#UNREAD (sparse: unread items only)  unread_only, mark before/all
//   GSI1 ACCT#<a>#USER#<u>#WF#<w>                              the workflow_id filter
//   counters UNREAD and UNREAD#WF#<w> in the inbox partition   unread-count in one read
// Counters move only when an item really flipped (conditional updates), so they stay exact under
// repeats and concurrent calls.
import type { Principal } from './auth';
import type { KeyValueStore, StoredItem } from './ports';
import { Conflict, NotFound } from './errors';
import type { CursorSigner } from './cursor';
import { idTimePrefix } from './notifications';
import { ENTITY, keys } from '../data/keys';

export interface NotificationView {
  id: string;
  event_type: string;
  payload: Record<string, unknown>;
  created_at: string;
  is_read: boolean;
  workflow_id: string | null;
}

export interface NotificationListQuery {
  workflow_id?: string;
  event_types?: string[];
  since?: string;
  limit: number;
  cursor?: string;
  unread_only: boolean;
}

export interface MarkReadInput {
  notification_ids?: string[] | null;
  before?: string | null;
  mark_all?: boolean | null;
  workflow_id?: string | null;
}

/** Items read per query page when filters are applied in memory. */
const SCAN_PAGE = 100;
/** Conditional updates in flight at once for before/mark_all. */
const MARK_BATCH = 100;

const view = (item: StoredItem): NotificationView => ({
  id: String(item.id),
  event_type: String(item.eventType),
  payload: (item.payload as Record<string, unknown>) ?? {},
  created_at: item.createdAt,
  is_read: item.GSI2PK === undefined,
  workflow_id: (item.workflowId as string | null) ?? null,
});

interface Source {
  pk: string;
  index?: string;
  /** In-memory filter beyond what the partition selects. */
  keep: (item: StoredItem) => boolean;
}

export class NotificationInbox {
  constructor(
    private readonly store: KeyValueStore,
    private readonly cursors: CursorSigner,
  ) {}

  async list(p: Principal, q: NotificationListQuery): Promise<{ events: NotificationView[]; next_cursor: string | null }> {
    const types = q.event_types?.length ? new Set(q.event_types) : undefined;
    const source = this.source(p, { workflowId: q.workflow_id, unreadOnly: q.unread_only });
    const keep = (i: StoredItem) => source.keep(i) && (!types || types.has(String(i.eventType)));
    const upper = q.cursor ? await this.cursors.verify(p, q.cursor) : undefined;
    const lower = q.since ? `${keys.inboxPrefix}${idTimePrefix(Date.parse(q.since))}\uffff` : undefined;
    const found = await this.scan(source, keep, q.limit + 1, upper, lower);
    const page = found.slice(0, q.limit);
    const more = found.length > q.limit;
    return {
      events: page.map(view),
      next_cursor: more ? await this.cursors.sign(p, keys.inboxSortKey(page[page.length - 1]!.id as string)) : null,
    };
  }

  async get(p: Principal, id: string): Promise<NotificationView> {
    const item = await this.store.get(keys.inboxItem(p.accountId, p.userId, id));
    if (!item) throw new NotFound(`Notification ${id} not found`);
    return view(item);
  }

  /** One read whatever the inbox size. */
  async unreadCount(p: Principal, workflowId?: string): Promise<{ unread_count: number }> {
    const counter = await this.store.get(keys.unreadCounter(p.accountId, p.userId, workflowId));
    return { unread_count: Math.max(0, Number(counter?.unread ?? 0)) };
  }

  async markRead(p: Principal, req: MarkReadInput): Promise<{ marked_count: number }> {
    const flipped: StoredItem[] = [];
    if (req.notification_ids) {
      const ids = [...new Set(req.notification_ids.map((id) => id.toLowerCase()))];
      flipped.push(...(await this.flip(p, ids)));
    } else {
      const source = this.source(p, { workflowId: req.workflow_id ?? undefined, unreadOnly: true });
      // `before` is exclusive: items created strictly before it (ids carry the millisecond).
      let upper = req.before ? `${keys.inboxPrefix}${idTimePrefix(Date.parse(req.before) - 1)}\uffff` : undefined;
      for (;;) {
        const batch = await this.scan(source, source.keep, MARK_BATCH, upper, undefined);
        flipped.push(...(await this.flip(p, batch.map((i) => String(i.id)))));
        if (batch.length < MARK_BATCH) break;
        upper = keys.inboxSortKey(String(batch[batch.length - 1]!.id));
      }
    }
    await this.decrement(p, flipped);
    return { marked_count: flipped.length };
  }

  /** Marks the items read in parallel; returns those this call flipped (unknown or read ones are skipped). */
  private async flip(p: Principal, ids: string[]): Promise<StoredItem[]> {
    const now = new Date().toISOString();
    const results = await Promise.all(
      ids.map(async (id) => {
        try {
          return await this.store.update(keys.inboxItem(p.accountId, p.userId, id), {
            set: { readAt: now, updatedAt: now },
            remove: ['GSI2PK', 'GSI2SK'],
            conditions: [{ attr: 'GSI2PK', op: 'exists' }],
          });
        } catch (err) {
          if (err instanceof Conflict) return undefined;
          throw err;
        }
      }),
    );
    return results.filter((r): r is StoredItem => r !== undefined);
  }

  /** One counter update for the user and one per workflow touched, by exactly the flipped items. */
  private async decrement(p: Principal, flipped: StoredItem[]): Promise<void> {
    if (!flipped.length) return;
    const perWorkflow = new Map<string, number>();
    for (const item of flipped) {
      const wf = item.workflowId as string | null | undefined;
      if (wf) perWorkflow.set(wf, (perWorkflow.get(wf) ?? 0) + 1);
    }
    const now = new Date().toISOString();
    const add = (n: number, workflowId?: string) =>
      this.store.update(keys.unreadCounter(p.accountId, p.userId, workflowId), {
        add: { unread: -n },
        set: { entity: ENTITY.unreadCounter, updatedAt: now },
        upsert: true,
      });
    await Promise.all([add(flipped.length), ...[...perWorkflow].map(([wf, n]) => add(n, wf))]);
  }

  private source(p: Principal, f: { workflowId?: string; unreadOnly: boolean }): Source {
    const unread = (i: StoredItem) => !f.unreadOnly || i.GSI2PK !== undefined;
    if (f.workflowId) return { pk: keys.inboxWorkflowIndex(p.accountId, p.userId, f.workflowId), index: 'GSI1', keep: unread };
    if (f.unreadOnly) return { pk: keys.inboxUnreadIndex(p.accountId, p.userId), index: 'GSI2', keep: () => true };
    return { pk: keys.inbox(p.accountId, p.userId), keep: () => true };
  }

  /**
   * Up to `want` matching items, newest first, with sort keys strictly below `upper` and strictly
   * above `lower`. Reads pages of the source partition until enough items match or it is exhausted.
   */
  private async scan(source: Source, keep: (i: StoredItem) => boolean, want: number, upper?: string, lower?: string): Promise<StoredItem[]> {
    const out: StoredItem[] = [];
    let until = upper;
    for (;;) {
      const pageSize = Math.max(want - out.length, SCAN_PAGE);
      const page = await this.store.queryPrefix(source.pk, keys.inboxPrefix, {
        index: source.index,
        descending: true,
        limit: pageSize + (until ? 1 : 0),
        until,
        startAfterSK: lower,
      });
      const fresh = until ? page.filter((i) => this.sortKey(i) !== until) : page;
      for (const item of fresh) {
        if (keep(item)) out.push(item);
        if (out.length >= want) return out;
      }
      if (page.length < pageSize + (until ? 1 : 0) || fresh.length === 0) return out;
      until = this.sortKey(fresh[fresh.length - 1]!);
    }
  }

  private sortKey(item: StoredItem): string {
    return keys.inboxSortKey(String(item.id));
  }
}
