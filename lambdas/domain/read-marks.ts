// Read marks of a user's inbox: which notifications the user has read, and the unread counters moved
// by exactly the notifications each call newly marked — with few writes whatever the number of ids.
//
// A read mark is an attribute `r_<id>` of a mark item `READ#<window>` in the inbox partition (the
// window is the id's first 8 hex digits: 65.5 s of event time, so a page of recent ids falls in one
// or two items). A call sets its marks with `if_not_exists` to its own random token, one update per
// window; the update answers the marks' values, and those equal to the token are exactly the ids this
// call newly marked — whatever other calls mark at the same time, and however often it is repeated.
//
// Crash safety without transactions (dynalite has none; the same writes run on DynamoDB): before
// marking, a call writes its intent `pend_<token>` = {ids, at} on every counter it will move; the
// decrement removes the intent in the same conditional update (only while the intent is there). A
// crash leaves the intent behind; the next read of that counter finds it (older than `staleMs`) and
// finishes the call: it sets the marks again with the same token (a no-op for marks already set)
// and applies the decrement once. So a counter never misses a mark, and never counts one twice.
//
// Marking by id writes the intent of the user's total counter with the ids as asked, in parallel with
// the lookup of which of them are unread (`asked`: a reader finishing it looks them up again and
// counts only unread items, or items this token marked before the crash), so the common call is three
// round trips: lookup + intent, marks, decrement. Workflow counters need the lookup's workflow ids
// first: their intents are one more round trip, before the marks, as before.
import { randomBytes } from 'node:crypto';
import type { Principal } from './auth';
import type { KeyValueStore, StoredItem } from './ports';
import { Conflict } from '../errors';
import { ENTITY, keys } from '../data/keys';

/** An inbox item to mark: its id and workflow (which counters it moves). */
export interface Markable {
  id: string;
  workflowId: string | null;
}

interface Intent {
  ids: string[];
  at: number;
  /** The ids as asked, not looked up: some may be unknown or read long ago. */
  asked?: boolean;
}

/** What a lookup found of an asked id: its workflow, and whether it is still in the unread index. */
export interface Found extends Markable {
  unread: boolean;
}

/** The items of `ids` that exist (unknown ids are left out). */
export type Lookup = (p: Principal, ids: string[]) => Promise<Found[]>;

const INTENT = 'pend_';
const markAttr = (id: string) => `r_${id}`;
const windowOf = (id: string) => id.slice(0, 8);

/** Ids grouped by their mark item. */
function byWindow(ids: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const id of ids) out.set(windowOf(id), [...(out.get(windowOf(id)) ?? []), id]);
  return out;
}

/** Ids by workflow, for the workflows' counters (items without a workflow move only the total). */
function byWorkflow(items: Markable[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { id, workflowId } of items) if (workflowId) out.set(workflowId, [...(out.get(workflowId) ?? []), id]);
  return out;
}

export class ReadMarks {
  constructor(
    private readonly store: KeyValueStore,
    /** Reads which asked ids are inbox items still unread. */
    private readonly lookup: Lookup,
    /** Age after which a counter's intent is taken for a crashed call's and finished by a reader. */
    private readonly staleMs = 60_000,
  ) {}

  /** Of `ids`, those the user has marked read. One request per 100 windows. */
  async marked(p: Principal, ids: string[]): Promise<Set<string>> {
    const marks = await this.markValues(p, ids);
    return new Set(ids.filter((id) => marks.has(id)));
  }

  /** The marks of those of `ids` that carry one (the token of the call that set it). */
  private async markValues(p: Principal, ids: string[]): Promise<Map<string, unknown>> {
    if (!ids.length) return new Map();
    const windows = [...byWindow(ids).keys()];
    const items = await this.store.getMany(
      windows.map((w) => keys.readMarks(p.accountId, p.userId, w)),
      { attributes: ids.map(markAttr) },
    );
    const out = new Map<string, unknown>();
    for (const id of ids) {
      const v = items.find((i) => i?.[markAttr(id)] !== undefined)?.[markAttr(id)];
      if (v !== undefined) out.set(id, v);
    }
    return out;
  }

  /**
   * Marks read those of `ids` that are unread inbox items; returns how many this call newly marked,
   * after moving the counters by exactly them.
   */
  async markIds(p: Principal, ids: string[]): Promise<number> {
    if (!ids.length) return 0;
    const token = randomBytes(8).toString('hex');
    const now = Date.now();
    const [found] = await Promise.all([this.lookup(p, ids), this.intend(p, token, undefined, { ids, at: now, asked: true })]);
    const items = found.filter((i) => i.unread);
    const counters = byWorkflow(items);
    await Promise.all([...counters].map(([workflowId, c]) => this.intend(p, token, workflowId, { ids: c, at: now })));
    const mine = await this.claim(p, items.map((i) => i.id), token);
    await Promise.all([
      this.settle(p, token, undefined, mine.size),
      ...[...counters].map(([workflowId, c]) => this.settle(p, token, workflowId, c.filter((id) => mine.has(id)).length)),
    ]);
    return mine.size;
  }

  /**
   * Marks the items read; returns those this call newly marked (the others were marked before or
   * by a concurrent call) after moving the counters by exactly them.
   */
  async mark(p: Principal, items: Markable[]): Promise<Markable[]> {
    if (!items.length) return [];
    const token = randomBytes(8).toString('hex');
    const now = Date.now();
    const ids = items.map((i) => i.id);
    const counters = new Map<string | undefined, string[]>([[undefined, ids], ...byWorkflow(items)]);
    await Promise.all([...counters].map(([workflowId, c]) => this.intend(p, token, workflowId, { ids: c, at: now })));
    const mine = await this.claim(p, ids, token);
    await Promise.all([...counters].map(([workflowId, c]) => this.settle(p, token, workflowId, c.filter((id) => mine.has(id)).length)));
    return items.filter((i) => mine.has(i.id));
  }

  /** Writes the call's intent on one counter (creating the counter if need be). */
  private async intend(p: Principal, token: string, workflowId: string | undefined, intent: Intent): Promise<void> {
    await this.store.update(keys.unreadCounter(p.accountId, p.userId, workflowId), {
      set: { entity: ENTITY.unreadCounter, updatedAt: new Date(intent.at).toISOString(), [INTENT + token]: intent },
      upsert: true,
    });
  }

  /**
   * Finishes the calls that left an intent on this counter item longer than `staleMs` ago; true when
   * it finished any (the caller reads the counter again).
   */
  async finishStale(p: Principal, counter: StoredItem | undefined, workflowId?: string): Promise<boolean> {
    const stale = Object.entries(counter ?? {}).filter(
      ([k, v]) => k.startsWith(INTENT) && Date.now() - Number((v as Intent).at) >= this.staleMs,
    );
    for (const [attr, value] of stale) {
      const token = attr.slice(INTENT.length);
      const intent = value as Intent;
      await this.settle(p, token, workflowId, intent.asked ? await this.reclaimAsked(p, intent.ids, token) : (await this.claim(p, intent.ids, token)).size);
    }
    return stale.length > 0;
  }

  /**
   * How many of the asked ids a crashed call marked (or would have): the unread items it marks now,
   * and the items out of the unread index that carry its token. Unknown ids and items read otherwise
   * count for nothing, as in the call itself.
   */
  private async reclaimAsked(p: Principal, ids: string[], token: string): Promise<number> {
    const found = await this.lookup(p, ids);
    const [mine, marks] = await Promise.all([
      this.claim(p, found.filter((i) => i.unread).map((i) => i.id), token),
      this.markValues(p, found.filter((i) => !i.unread).map((i) => i.id)),
    ]);
    return mine.size + [...marks.values()].filter((v) => v === token).length;
  }

  /** Sets the marks of `ids` to `token` where unset; returns the ids whose mark is `token`. */
  private async claim(p: Principal, ids: string[], token: string): Promise<Set<string>> {
    const mine = new Set<string>();
    await Promise.all(
      [...byWindow(ids)].map(async ([window, inWindow]) => {
        const out = await this.store.update(keys.readMarks(p.accountId, p.userId, window), {
          set: { entity: ENTITY.readMarks },
          setIfAbsent: Object.fromEntries(inWindow.map((id) => [markAttr(id), token])),
          upsert: true,
          returnUpdatedOnly: true,
        });
        for (const id of inWindow) if (out[markAttr(id)] === token) mine.add(id);
      }),
    );
    return mine;
  }

  /** Moves the counter by the call's newly marked count and drops its intent, once. */
  private async settle(p: Principal, token: string, workflowId: string | undefined, n: number): Promise<void> {
    try {
      await this.store.update(keys.unreadCounter(p.accountId, p.userId, workflowId), {
        add: { unread: -n },
        remove: [INTENT + token],
        conditions: [{ attr: INTENT + token, op: 'exists' }],
      });
    } catch (err) {
      if (!(err instanceof Conflict)) throw err; // a reader finished this call first
    }
  }
}
