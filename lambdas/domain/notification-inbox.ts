// The notification endpoints (spec §4.7) over a user's inbox partition:
//   PK ACCT#<a>#USER#<u>#INBOX, SK NOTE#<time-ordered id>   list (newest first), get and mark by id
//   SK READ#<window>                                         read marks (domain/read-marks.ts)
//   GSI2 ACCT#<a>#USER#<u>#UNREAD (sparse)                   unread_only, mark before/all
//   GSI1 ACCT#<a>#USER#<u>#WF#<w>                            the workflow_id filter
//   counters UNREAD and UNREAD#WF#<w> in the inbox partition  unread-count in one read
// An item is read when it carries a read mark, or when it left GSI2 (GSI2 is removed only after the
// mark is set, and by the code before read marks). Marking by id sets marks only (a few writes for
// 100 ids); the item stays in GSI2 until an unread_only listing or a before/mark_all passes it and
// removes it there, so GSI2 holds every unread item and perhaps some read ones, never fewer.
// Counters move by exactly the newly marked items (read-marks.ts), so they stay exact under repeats,
// concurrent calls and crashes.
import type { Principal } from './auth';
import type { KeyValueStore, StoredItem } from './ports';
import { Conflict, NotFound } from '../errors';
import type { CursorSigner } from './cursor';
import { idTimePrefix } from './notifications';
import { keys } from '../data/keys';
import { ReadMarks, type Found, type Markable } from './read-marks';

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
/** Items marked per round of before/mark_all. */
const MARK_BATCH = 100;

const view = (item: StoredItem, marked: Set<string>): NotificationView => ({
  id: String(item.id),
  event_type: String(item.eventType),
  payload: (item.payload as Record<string, unknown>) ?? {},
  created_at: item.createdAt,
  is_read: !inUnreadIndex(item) || marked.has(String(item.id)),
  workflow_id: (item.workflowId as string | null) ?? null,
});

const inUnreadIndex = (item: StoredItem) => item.GSI2PK !== undefined;
const markable = (item: StoredItem): Markable => ({ id: String(item.id), workflowId: (item.workflowId as string | null) ?? null });

interface Source {
  pk: string;
  index?: string;
  /** In-memory filter beyond what the partition selects. */
  keep: (item: StoredItem) => boolean;
  /** Unread items only: items with a read mark are dropped (and leave GSI2). */
  unreadOnly: boolean;
}

export class NotificationInbox {
  private readonly marks: ReadMarks;

  constructor(
    private readonly store: KeyValueStore,
    private readonly cursors: CursorSigner,
    opts: { staleIntentMs?: number } = {},
  ) {
    this.marks = new ReadMarks(store, (p, ids) => this.lookup(p, ids), opts.staleIntentMs);
  }

  async list(p: Principal, q: NotificationListQuery): Promise<{ events: NotificationView[]; next_cursor: string | null }> {
    const types = q.event_types?.length ? new Set(q.event_types) : undefined;
    const source = this.source(p, { workflowId: q.workflow_id, unreadOnly: q.unread_only });
    const keep = (i: StoredItem) => source.keep(i) && (!types || types.has(String(i.eventType)));
    const upper = q.cursor ? await this.cursors.verify(p, q.cursor) : undefined;
    const lower = q.since ? `${keys.inboxPrefix}${idTimePrefix(Date.parse(q.since))}\uffff` : undefined;
    const found = await this.scan(p, source, keep, q.limit + 1, upper, lower);
    const page = found.slice(0, q.limit);
    const more = found.length > q.limit;
    const marked = source.unreadOnly ? new Set<string>() : await this.marks.marked(p, page.filter(inUnreadIndex).map((i) => String(i.id)));
    return {
      events: page.map((i) => view(i, marked)),
      next_cursor: more ? await this.cursors.sign(p, keys.inboxSortKey(page[page.length - 1]!.id as string)) : null,
    };
  }

  async get(p: Principal, id: string): Promise<NotificationView> {
    const item = await this.store.get(keys.inboxItem(p.accountId, p.userId, id));
    if (!item) throw new NotFound(`Notification ${id} not found`);
    return view(item, inUnreadIndex(item) ? await this.marks.marked(p, [String(item.id)]) : new Set());
  }

  /** One read whatever the inbox size (and the rest of a crashed mark-read, if one left its intent). */
  async unreadCount(p: Principal, workflowId?: string): Promise<{ unread_count: number }> {
    const key = keys.unreadCounter(p.accountId, p.userId, workflowId);
    let counter = await this.store.get(key);
    if (await this.marks.finishStale(p, counter, workflowId)) counter = await this.store.get(key);
    return { unread_count: Math.max(0, Number(counter?.unread ?? 0)) };
  }

  async markRead(p: Principal, req: MarkReadInput): Promise<{ marked_count: number }> {
    if (req.notification_ids) {
      // unknown ids, and items read before read marks (out of GSI2), are skipped
      return { marked_count: await this.marks.markIds(p, [...new Set(req.notification_ids.map((id) => id.toLowerCase()))]) };
    }
    const source = this.source(p, { workflowId: req.workflow_id ?? undefined, unreadOnly: true });
    // `before` is exclusive: items created strictly before it (ids carry the millisecond).
    let upper = req.before ? `${keys.inboxPrefix}${idTimePrefix(Date.parse(req.before) - 1)}\uffff` : undefined;
    let marked = 0;
    for (;;) {
      const batch = await this.scan(p, source, source.keep, MARK_BATCH, upper, undefined);
      marked += (await this.marks.mark(p, batch.map(markable))).length;
      await this.leaveUnreadIndex(p, batch.map((i) => String(i.id)));
      if (batch.length < MARK_BATCH) break;
      upper = keys.inboxSortKey(String(batch[batch.length - 1]!.id));
    }
    return { marked_count: marked };
  }

  /** The inbox items of `ids` (one BatchGet of 100), with their workflow and whether they are in GSI2. */
  private async lookup(p: Principal, ids: string[]): Promise<Found[]> {
    const items = await this.store.getMany(
      ids.map((id) => keys.inboxItem(p.accountId, p.userId, id)),
      { attributes: ['id', 'workflowId', 'GSI2PK'] },
    );
    return items.filter((i): i is StoredItem => i !== undefined).map((i) => ({ ...markable(i), unread: inUnreadIndex(i) }));
  }

  /** Removes items that carry a read mark from GSI2 (in parallel; items already out are skipped). */
  private async leaveUnreadIndex(p: Principal, ids: string[]): Promise<void> {
    const now = new Date().toISOString();
    await Promise.all(
      ids.map(async (id) => {
        try {
          await this.store.update(keys.inboxItem(p.accountId, p.userId, id), {
            set: { readAt: now, updatedAt: now },
            remove: ['GSI2PK', 'GSI2SK'],
            conditions: [{ attr: 'GSI2PK', op: 'exists' }],
          });
        } catch (err) {
          if (!(err instanceof Conflict)) throw err;
        }
      }),
    );
  }

  private source(p: Principal, f: { workflowId?: string; unreadOnly: boolean }): Source {
    const unread = (i: StoredItem) => !f.unreadOnly || inUnreadIndex(i);
    if (f.workflowId) return { pk: keys.inboxWorkflowIndex(p.accountId, p.userId, f.workflowId), index: 'GSI1', keep: unread, unreadOnly: f.unreadOnly };
    if (f.unreadOnly) return { pk: keys.inboxUnreadIndex(p.accountId, p.userId), index: 'GSI2', keep: () => true, unreadOnly: true };
    return { pk: keys.inbox(p.accountId, p.userId), keep: () => true, unreadOnly: false };
  }

  /** The page without the items that carry a read mark, which leave GSI2 on the way (unread sources). */
  private async unmarked(p: Principal, source: Source, page: StoredItem[]): Promise<StoredItem[]> {
    if (!source.unreadOnly) return page;
    const candidates = page.filter(inUnreadIndex);
    const marked = await this.marks.marked(p, candidates.map((i) => String(i.id)));
    if (marked.size) await this.leaveUnreadIndex(p, [...marked]);
    return page.filter((i) => !marked.has(String(i.id)));
  }

  /**
   * Up to `want` matching items, newest first, with sort keys strictly below `upper` and strictly
   * above `lower`. Reads pages of the source partition until enough items match or it is exhausted.
   */
  private async scan(p: Principal, source: Source, keep: (i: StoredItem) => boolean, want: number, upper?: string, lower?: string): Promise<StoredItem[]> {
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
      for (const item of await this.unmarked(p, source, fresh.filter(keep))) {
        out.push(item);
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
