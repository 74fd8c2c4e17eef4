// Local stand-in for the EventBridge schedule rules: a timer per lambdas/schedules.ts entry calling
// the same handler with a scheduled event.
import type { Context } from 'aws-lambda';
import { SCHEDULED_TASKS, rateMs } from '../lambdas/schedules';
import { lambdaContext, loadHandler } from './handlers';

type Tick = (event: Record<string, unknown>, context: Context) => Promise<unknown>;

export function startSchedules(): { stop(): Promise<void> } {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<unknown>>();
  for (const task of SCHEDULED_TASKS) {
    const timer = setInterval(() => {
      const p = (async () => {
        const handler = await loadHandler<Tick>(task.handler);
        await handler({ 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString(), detail: {} }, lambdaContext(task.name) as unknown as Context);
      })().catch((err: Error) => console.error(JSON.stringify({ level: 'error', msg: 'scheduled task failed', task: task.name, error: err.message })));
      running.add(p);
      void p.finally(() => running.delete(p));
    }, rateMs(task.rate));
    timer.unref();
    timers.push(timer);
  }
  return {
    stop: async () => {
      timers.forEach(clearInterval);
      await Promise.allSettled([...running]);
    },
  };
}
