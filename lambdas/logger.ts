// Structured JSON logs, one line per event. Secrets never reach the logger: callers pass ids and
// reasons, not configs or headers.
//
// Context fields (job_id, file_id) come from an AsyncLocalStorage scope: the job step handlers open
// one per step (handlers/job-log.ts), so every line written during job work, deep in the engine,
// connectors or OCR, carries them without passing them along. The partition sandbox sends the scope
// with each document, so lines its processes write carry it too.
import { AsyncLocalStorage } from 'node:async_hooks';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const scope = new AsyncLocalStorage<Record<string, unknown>>();

function enabled(level: Level): boolean {
  const min = (process.env.LOG_LEVEL as Level | undefined) ?? 'info';
  return ORDER[level] >= (ORDER[min] ?? 20);
}

function write(level: Level, msg: string, fields?: Record<string, unknown>): void {
  if (!enabled(level)) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...scope.getStore(), ...fields });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(line + '\n');
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};

/** Runs `fn` with these fields (undefined ones dropped) added to every line it logs, also after awaits. */
export function withLogContext<T>(fields: Record<string, unknown>, fn: () => T): T {
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  return scope.run({ ...scope.getStore(), ...defined }, fn);
}

/** The context fields in effect here (to hand to another process). */
export function logContext(): Record<string, unknown> | undefined {
  return scope.getStore();
}

export function errorFields(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { error: err.message, errorName: err.name, stack: err.stack };
  return { error: String(err) };
}
