// Workflow enumerations, kept apart from the workflow service so the route table (imported by every
// Lambda) does not pull the processing engine into every bundle.

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

/** The first run strictly after `after` (UTC) for one of the SCHEDULES values. */
export function nextRun(schedule: string, after: Date): Date {
  const t = new Date(after.getTime());
  t.setUTCSeconds(0, 0);
  const hourly = /^every (\d+) hours?$/.exec(schedule.replace('every hour', 'every 1 hour'));
  if (schedule === 'every 15 minutes') {
    t.setUTCMinutes(Math.floor(t.getUTCMinutes() / 15) * 15 + 15);
  } else if (hourly) {
    const step = Number(hourly[1]);
    t.setUTCMinutes(0);
    t.setUTCHours(Math.floor(t.getUTCHours() / step) * step + step);
  } else if (schedule === 'daily') {
    t.setUTCHours(24, 0);
  } else if (schedule === 'weekly') {
    t.setUTCHours(0, 0);
    t.setUTCDate(t.getUTCDate() + (7 - t.getUTCDay()));
  } else if (schedule === 'monthly') {
    t.setUTCHours(0, 0);
    t.setUTCDate(1);
    t.setUTCMonth(t.getUTCMonth() + 1);
  } else {
    throw new Error(`unknown schedule ${schedule}`);
  }
  return t;
}
