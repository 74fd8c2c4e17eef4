// Workflow enumerations, kept apart from the workflow service so the route table (imported by every
// Lambda) does not pull the processing engine into every bundle.
import { Cron } from 'croner';

/** Fields a workflow list can be sorted by (an enum: never an arbitrary object key). */
export const WORKFLOW_SORT_FIELDS = ['id', 'name', 'created_at', 'updated_at', 'status', 'workflow_type'] as const;
export type WorkflowSortField = (typeof WORKFLOW_SORT_FIELDS)[number];

export const WORKFLOW_TYPES = ['basic', 'advanced', 'platinum', 'custom'] as const;
export type WorkflowType = (typeof WORKFLOW_TYPES)[number];

/** The schedule values the API accepts and the cron entry each becomes. */
export const SCHEDULES: Record<string, string> = {
  'every 15 minutes': '*/15 * * * *',
  'every hour': '0 * * * *',
  'every 2 hours': '0 */2 * * *',
  'every 4 hours': '0 */4 * * *',
  'every 6 hours': '0 */6 * * *',
  'every 8 hours': '0 */8 * * *',
  'every 10 hours': '0 */10 * * *',
  'every 12 hours': '0 */12 * * *',
  daily: '0 0 * * *',
  weekly: '0 0 * * 0',
  monthly: '0 0 1 * *',
};

/**
 * The cron entry a schedule value stands for: one of the SCHEDULES names, or a crontab expression
 * (five fields, or a croner nickname such as `@daily`), which the platform's API also takes (its
 * `schedule` is a free string). Undefined when the value is neither. Evaluated in UTC; the tick runs
 * once a minute, so a seconds field is refused rather than silently rounded.
 */
export function cronOf(schedule: string): string | undefined {
  const named = SCHEDULES[schedule];
  if (named) return named;
  const expr = schedule.trim();
  if (expr.length > 200) return undefined;
  try {
    // A pattern that never fires (e.g. 30 February) is as useless as a malformed one.
    return cronFor(expr).nextRun(new Date()) ? schedule : undefined;
  } catch {
    return undefined;
  }
}

/** What a refused schedule's 422 says. */
export const SCHEDULE_HINT = `Input should be a crontab expression (5 fields, UTC) or one of ${Object.keys(SCHEDULES).map((s) => `'${s}'`).join(', ')}`;

function cronFor(expr: string): Cron {
  // 5-part: minute precision (a 6- or 7-field pattern is refused); day-of-month and day-of-week are
  // OR-ed (croner's default), as in Vixie cron.
  return new Cron(expr, { timezone: 'UTC', paused: true, mode: '5-part' });
}

/** The first run strictly after `after` (UTC) of a schedule value (`cronOf` must accept it). */
export function nextRun(schedule: string, after: Date): Date {
  const cron = cronOf(schedule);
  const next = cron ? cronFor(cron.trim()).nextRun(after) : null;
  if (!next) throw new Error(`unknown schedule ${schedule}`);
  return next;
}
