// Platform events and the rules that fan them out. Read by the CDK (EventBridge rules) and by the
// local EventBridge stand-in, which routes PutEvents entries by these same patterns.

export const EVENT_SOURCE = 'wps.jobs';

export const JOB_EVENT_TYPES = ['job.scheduled', 'job.in_progress', 'job.completed', 'job.stopped', 'job.failed'] as const;
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];

/**
 * Event order. EventBridge stamps an event's `time` to the whole second, so the events of a fast job
 * share it. The publisher therefore also puts the moment of the change, to the millisecond, in the
 * detail under this key; consumers take it from there (the bus's `time` when absent) and pass the
 * rest of the detail on without it.
 */
export const OCCURRED_AT = 'occurred_at';

/** An event's moment (the publisher's millisecond, else the bus's second) and its detail without it. */
export function eventMoment(event: { time: string; detail: Record<string, unknown> }): { at: Date; detail: Record<string, unknown> } {
  const { [OCCURRED_AT]: precise, ...detail } = event.detail;
  const ms = typeof precise === 'string' ? Date.parse(precise) : NaN;
  return { at: new Date(Number.isNaN(ms) ? event.time : ms), detail };
}

/**
 * A job event's place in the job's life: scheduled 0, in_progress 1, an end (completed, stopped,
 * failed) 2. Each happens at most once per job, so this orders one job's events that share a moment.
 */
export function jobEventRank(eventType: string): number {
  const i = JOB_EVENT_TYPES.indexOf(eventType as JobEventType);
  return i < 0 ? 0 : Math.min(i, 2);
}

/** An EventBridge pattern (subset: exact values in arrays, nested objects). */
export type EventPattern = { [key: string]: (string | number | boolean)[] | EventPattern };

export interface EventRule {
  name: string;
  /** `service`: the service's own bus (EVENT_BUS_NAME); `default`: the account's default bus, where
   * AWS services such as Step Functions publish their status changes. */
  bus: 'service' | 'default';
  pattern: EventPattern;
  /** A Lambda target: handler module and export under lambdas/handlers. */
  target: { file: string; export: string };
}

export const EVENT_RULES: EventRule[] = [
  {
    name: 'record-notifications',
    bus: 'service',
    pattern: { source: [EVENT_SOURCE], 'detail-type': [...JOB_EVENT_TYPES] },
    target: { file: 'events', export: 'recordNotification' },
  },
  {
    // Notification channels (spec §6): queue one delivery per listening webhook/email channel.
    name: 'deliver-to-channels',
    bus: 'service',
    pattern: { source: [EVENT_SOURCE], 'detail-type': [...JOB_EVENT_TYPES] },
    target: { file: 'channel-delivery', export: 'fanOutToChannels' },
  },
  {
    // A job execution that ended abnormally (crash, timeout, abort) must not keep its run slot.
    name: 'job-execution-ended',
    bus: 'default',
    pattern: {
      source: ['aws.states'],
      'detail-type': ['Step Functions Execution Status Change'],
      detail: { status: ['FAILED', 'TIMED_OUT', 'ABORTED'] },
    },
    target: { file: 'events', export: 'jobExecutionEnded' },
  },
];

/** EventBridge matching for the pattern subset above. */
export function matchesPattern(event: Record<string, unknown>, pattern: EventPattern): boolean {
  return Object.entries(pattern).every(([key, expected]) => {
    const actual = event[key];
    if (Array.isArray(expected)) {
      return Array.isArray(actual) ? actual.some((a) => expected.includes(a as never)) : expected.includes(actual as never);
    }
    return actual !== null && typeof actual === 'object' && matchesPattern(actual as Record<string, unknown>, expected);
  });
}
