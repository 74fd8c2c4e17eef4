// Workflow enumerations, kept apart from the workflow service so the route table (imported by every
// Lambda) does not pull the processing engine into every bundle.

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
