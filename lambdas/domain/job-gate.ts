// The per-account concurrency gate and launch spacing of on-demand jobs (spec §8: at most 5 running,
// launches at least one second apart). One item per account holds `running` and `lastLaunchAt`.
//
// A slot is taken by a conditional ADD while running < 5, after the job announces its claim
// (`claimingAt`), and the job then records `slotHeld`; releasing clears the job's flag first,
// conditionally, and only then decrements the counter, so a release is idempotent. A process dying
// between those writes can leak a slot: a gate that stays full is recounted against the slots jobs
// really hold (claims in flight count as held), conditionally on the counter not having moved.
//
// Slots go in launch order: a job refused a slot records itself as the gate's head when it is older than
// the head, and while the head keeps asking (every HEAD_WAIT_SECONDS) a free slot is only its. Without
// it, waiting jobs asked with a growing back-off and the newest (asking every second or two) took
// the slots first: an early job of a burst could wait minutes behind the ones launched after it.
import type { Clock, KeyValueStore } from './ports';
import { Conflict, RateLimited } from '../errors';
import { ENTITY, keys } from '../data/keys';
import { log } from '../logger';

export const MAX_RUNNING_JOBS = 5;
export const LAUNCH_SPACING_MS = 1000;
/** Waiting attempts before a full gate is recounted against the slots jobs really hold. */
export const RECOUNT_AFTER_ATTEMPTS = 3;
/**
 * The head (the oldest job refused a slot) asks again at least this often; one that has not asked for
 * HEAD_LEASE_MS no longer holds the next free slot.
 */
export const HEAD_WAIT_SECONDS = 3;
const HEAD_LEASE_MS = 30_000;
/** How long a claim in flight (gate taken, job not yet flagged) counts as a held slot. */
const CLAIM_GRACE_MS = 60_000;

export class JobGate {
  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
  ) {}

  /** Records a launch, or 429 when the previous one was less than a second ago. */
  async claimLaunch(accountId: string): Promise<void> {
    const now = this.clock.now();
    try {
      await this.store.update(keys.gate(accountId), {
        set: { lastLaunchAt: now.toISOString(), entity: ENTITY.gate },
        conditions: [
          { or: [{ attr: 'lastLaunchAt', op: 'notExists' }, { attr: 'lastLaunchAt', op: 'le', value: new Date(now.getTime() - LAUNCH_SPACING_MS).toISOString() }] },
        ],
        upsert: true,
      });
    } catch (err) {
      if (err instanceof Conflict) throw new RateLimited('Jobs must be launched at least 1 second apart; retry shortly.', 1);
      throw err;
    }
  }

  /**
   * Takes a slot for `jobId` if one is free (its claim announced on the job first, so a recount never
   * misses a slot in flight). False when the gate is full; from the RECOUNT_AFTER_ATTEMPTS-th
   * attempt on, a full gate is also recounted.
   */
  async take(accountId: string, jobId: string, attempt: number, createdAt: string): Promise<{ taken: boolean; first: boolean }> {
    const now = this.clock.now();
    const stale = new Date(now.getTime() - HEAD_LEASE_MS).toISOString();
    await this.store.update(keys.job(accountId, jobId), { set: { claimingAt: now.toISOString() } });
    try {
      await this.store.update(keys.gate(accountId), {
        add: { running: 1 },
        conditions: [
          { or: [{ attr: 'running', op: 'notExists' }, { attr: 'running', op: 'lt', value: MAX_RUNNING_JOBS }] },
          // -- a free slot goes to the oldest waiting job (the head) while it keeps asking --
          { or: [{ attr: 'headJob', op: 'notExists' }, { attr: 'headJob', op: 'eq', value: jobId }, { attr: 'headSeen', op: 'lt', value: stale }] },
        ],
        upsert: true,
        set: { entity: ENTITY.gate },
      });
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
      await this.store.update(keys.job(accountId, jobId), { remove: ['claimingAt'] });
      if (attempt >= RECOUNT_AFTER_ATTEMPTS) await this.recount(accountId);
      return { taken: false, first: await this.queueAt(accountId, jobId, createdAt, stale) };
    }
    await this.store
      .update(keys.gate(accountId), { remove: ['headJob', 'headAt', 'headSeen'], conditions: [{ attr: 'headJob', op: 'eq', value: jobId }] })
      .catch((err) => {
        if (!(err instanceof Conflict)) throw err;
      });
    return { taken: true, first: false };
  }

  /**
   * A refused job becomes the head when it is older than the head (or there is none, or the head
   * stopped asking: cancelled, or its execution died). True when it is the head now.
   */
  private async queueAt(accountId: string, jobId: string, createdAt: string, stale: string): Promise<boolean> {
    try {
      await this.store.update(keys.gate(accountId), {
        set: { headJob: jobId, headAt: createdAt, headSeen: this.clock.now().toISOString() },
        conditions: [
          { or: [{ attr: 'headJob', op: 'notExists' }, { attr: 'headJob', op: 'eq', value: jobId }, { attr: 'headAt', op: 'gt', value: createdAt }, { attr: 'headSeen', op: 'lt', value: stale }] },
        ],
      });
      return true;
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
      return false;
    }
  }

  /** A job that will not ask again (cancelled, failed) stops holding the next free slot at once, not after the lease. */
  async forget(accountId: string, jobId: string): Promise<void> {
    await this.store
      .update(keys.gate(accountId), { remove: ['headJob', 'headAt', 'headSeen'], conditions: [{ attr: 'headJob', op: 'eq', value: jobId }] })
      .catch((err) => {
        if (!(err instanceof Conflict)) throw err;
      });
  }

  /** Gives back a slot taken by `take` that no job came to hold (e.g. cancelled between the two writes). */
  async giveBack(accountId: string): Promise<void> {
    await this.store.update(keys.gate(accountId), { add: { running: -1 } });
  }

  /** Releases the slot `jobId` holds; a no-op when it holds none (already released, or never taken). */
  async release(accountId: string, jobId: string): Promise<void> {
    try {
      await this.store.update(keys.job(accountId, jobId), { set: { slotHeld: false }, conditions: [{ attr: 'slotHeld', op: 'eq', value: true }] });
    } catch (err) {
      if (err instanceof Conflict) return;
      throw err;
    }
    await this.giveBack(accountId);
  }

  /** Self-healing: sets a counter above the slots jobs really hold to the true count. */
  private async recount(accountId: string): Promise<void> {
    const gate = await this.store.get(keys.gate(accountId));
    const observed = Number(gate?.running ?? 0);
    const cutoff = new Date(this.clock.now().getTime() - CLAIM_GRACE_MS).toISOString();
    const jobs = await this.store.queryPrefix(keys.account(accountId), keys.jobPrefix);
    const held = jobs.filter((j) => j.slotHeld === true || (typeof j.claimingAt === 'string' && j.claimingAt > cutoff)).length;
    if (held >= observed) return;
    try {
      await this.store.update(keys.gate(accountId), { set: { running: held }, conditions: [{ attr: 'running', op: 'eq', value: observed }] });
      log.warn('job gate recounted: the counter had leaked slots', { accountId, counter: observed, held });
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
    }
  }
}
