// Periodic triggers. Read by the CDK (an EventBridge schedule rule per entry) and by the local
// runner (a timer per entry), which call the same handler.

export interface ScheduledTask {
  name: string;
  /** EventBridge rate expression. */
  rate: 'rate(1 minute)' | `rate(${number} minutes)`;
  handler: { file: string; export: string };
}

export const SCHEDULED_TASKS: ScheduledTask[] = [
  { name: 'workflow-schedules', rate: 'rate(1 minute)', handler: { file: 'scheduler', export: 'tick' } },
];

/** Milliseconds of a rate expression. */
export function rateMs(rate: ScheduledTask['rate']): number {
  const m = /^rate\((\d+) minutes?\)$/.exec(rate);
  if (!m) throw new Error(`unsupported rate ${rate}`);
  return Number(m[1]) * 60_000;
}
