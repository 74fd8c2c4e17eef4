// Per-account limits (issue 28: one tenant created 150 workflows, 200 connectors and 200 uploads in
// seconds). Counts are exact under concurrency: a counter item per account and kind, reserved with a
// conditional update (409 beyond the limit, naming it) and released on delete. A counter that does
// not exist yet starts from the account's items as they are (accounts older than the counter), so the
// limit holds for them too. Rates (connection checks a minute) are windowed counters that expire.
import { ENTITY, keys } from '../data/keys';
import { Conflict, RateLimited } from '../errors';
import type { Clock, KeyValueStore } from './ports';
import { systemClock } from './ports';

export interface AccountLimits {
  /** Sources and destinations together (ACCOUNT_MAX_CONNECTORS). */
  connectors: number;
  /** Workflows not deleted (ACCOUNT_MAX_WORKFLOWS). */
  workflows: number;
  /** Uploads created and neither used nor expired (ACCOUNT_MAX_UPLOADS). */
  uploads: number;
  /** Connection checks asked for in one minute (ACCOUNT_CHECKS_PER_MINUTE). */
  checksPerMinute: number;
  /** Jobs scheduled or in progress (ACCOUNT_MAX_ACTIVE_JOBS): at most 5 run, the rest wait at the gate. */
  activeJobs: number;
}

export const DEFAULT_ACCOUNT_LIMITS: AccountLimits = { connectors: 100, workflows: 100, uploads: 100, checksPerMinute: 30, activeJobs: 50 };

export type CountedKind = 'connectors' | 'workflows';

const WHAT: Record<CountedKind, string> = { connectors: 'sources and destinations', workflows: 'workflows' };

export class AccountQuotas {
  constructor(
    private readonly store: KeyValueStore,
    readonly limits: AccountLimits = DEFAULT_ACCOUNT_LIMITS,
    private readonly clock: Clock = systemClock,
  ) {}

  /** One more of `kind` for the account, or a 409 naming the limit. `existing` counts the account's items (first use only). */
  async reserve(accountId: string, kind: CountedKind, existing: () => Promise<number>): Promise<void> {
    const key = keys.quota(accountId, kind);
    const limit = this.limits[kind];
    if (!(await this.store.get(key))) {
      const count = await existing();
      await this.store.put({ ...key, entity: ENTITY.quota, count, createdAt: this.clock.now().toISOString() }, { ifNotExists: true }).catch((err) => {
        if (!(err instanceof Conflict)) throw err; // -- another request made it first --
      });
    }
    try {
      await this.store.update(key, { add: { count: 1 }, conditions: [{ attr: 'count', op: 'lt', value: limit }] });
    } catch (err) {
      if (err instanceof Conflict) throw new Conflict(`At most ${limit} ${WHAT[kind]} per account; delete one first`);
      throw err;
    }
  }

  async release(accountId: string, kind: CountedKind): Promise<void> {
    await this.store.update(keys.quota(accountId, kind), { add: { count: -1 }, conditions: [{ attr: 'count', op: 'gt', value: 0 }] }).catch(() => undefined);
  }

  /** One more connection check this minute, or a 429 with the seconds to the next minute. */
  async checkRate(accountId: string): Promise<void> {
    const now = this.clock.now();
    const minute = now.toISOString().slice(0, 16);
    const limit = this.limits.checksPerMinute;
    try {
      await this.store.update(keys.checkRate(accountId, minute), {
        set: { entity: ENTITY.quota, expiresAt: Math.floor(now.getTime() / 1000) + 300 },
        add: { count: 1 },
        conditions: [{ or: [{ attr: 'count', op: 'notExists' }, { attr: 'count', op: 'lt', value: limit }] }],
        upsert: true,
      });
    } catch (err) {
      if (err instanceof Conflict) throw new RateLimited(`At most ${limit} connection checks a minute per account`, 60 - now.getUTCSeconds());
      throw err;
    }
  }

  /** A 409 when the account already has `limit` uploads outstanding (`outstanding` counts them). */
  async assertUploadRoom(outstanding: () => Promise<number>): Promise<void> {
    if ((await outstanding()) >= this.limits.uploads) {
      throw new Conflict(`At most ${this.limits.uploads} uploads outstanding per account (created, not yet used by a job, not expired)`);
    }
  }

  /**
   * A 409 when the account already has `limit` jobs scheduled or in progress (`active` counts them):
   * one account cannot queue work without end behind the gate. Counted, not reserved: a burst of
   * simultaneous creates may pass the limit by the burst's size, never by more.
   */
  assertJobRoom(active: number): void {
    if (active >= this.limits.activeJobs) {
      throw new Conflict(`At most ${this.limits.activeJobs} jobs scheduled or in progress per account; wait for some to finish or cancel them`);
    }
  }
}
