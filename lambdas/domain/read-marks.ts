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
import { randomBytes } from 'node:crypto';
import type { Principal } from './auth';
import type { KeyValueStore, StoredItem } from './ports';
import { Conflict } from './errors';
import { ENTITY, keys } from '../data/keys';

/** An inbox item to mark: its id and workflow (which counters it moves). */
export interface Markable {
  id: string;
  workflowId: string | null;
}

interface Intent {
  ids: string[];
  at: number;
}

const INTENT = 'pend_';
const markAttr = (id: string) => `r_${id}`;
const windowOf = (id: string) => id.slice(0, 8);

/** Ids grouped by their mark item. */
function byWindow(ids: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const id of ids) out.set(windowOf(id), [...(out.get(windowOf(id)) ?? []), id]);
  return out;
}

export class ReadMarks {
  constructor(
    private readonly store: KeyValueStore,
    /** Age after which a counter's intent is taken for a crashed call's and finished by a reader. */
    private readonly staleMs = 60_000,
  ) {}

  /** Of `ids`, those the user has marked read. One request per 100 windows. */
  async marked(p: Principal, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const windows = [...byWindow(ids).keys()];
    const items = await this.store.getMany(
      windows.map((w) => keys.readMarks(p.accountId, p.userId, w)),
      { attributes: ids.map(markAttr) },
    );
    return new Set(ids.filter((id) => items.some((i) => i?.[markAttr(id)] !== undefined)));
  }

  /**
   * Marks the items read; returns those this call newly marked (the others were marked before or
   * by a concurrent call) after moving the counters by exactly them.
   */
  async mark(p: Principal, items: Markable[]): Promise<Markable[]> {
    if (!items.length) return [];
    const token = randomBytes(8).toString('hex');
    const counters = new Map<string, { workflowId?: string; ids: string[] }>([['', { ids: items.map((i) => i.id) }]]);
    for (const { id, workflowId } of items) {
      if (!workflowId) continue;
      const c = counters.get(workflowId) ?? { workflowId, ids: [] };
      c.ids.push(id);
      counters.set(workflowId, c);
    }
    const now = Date.now();
    await Promise.all(
      [...counters.values()].map((c) =>
        this.store.update(keys.unreadCounter(p.accountId, p.userId, c.workflowId), {
          set: { entity: ENTITY.unreadCounter, updatedAt: new Date(now).toISOString(), [INTENT + token]: { ids: c.ids, at: now } satisfies Intent },
          upsert: true,
        }),
      ),
    );
    const mine = await this.claim(p, items.map((i) => i.id), token);
    await Promise.all([...counters.values()].map((c) => this.settle(p, token, c.workflowId, c.ids.filter((id) => mine.has(id)).length)));
    return items.filter((i) => mine.has(i.id));
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
      const ids = (value as Intent).ids;
      const mine = await this.claim(p, ids, token);
      await this.settle(p, token, workflowId, ids.filter((id) => mine.has(id)).length);
    }
    return stale.length > 0;
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
