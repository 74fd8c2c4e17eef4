// Structured JSON logs, one line per event. Secrets never reach the logger: callers pass ids and
// reasons, not configs or headers.
type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function enabled(level: Level): boolean {
  const min = (process.env.LOG_LEVEL as Level | undefined) ?? 'info';
  return ORDER[level] >= (ORDER[min] ?? 20);
}

function write(level: Level, msg: string, fields?: Record<string, unknown>): void {
  if (!enabled(level)) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(line + '\n');
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};

export function errorFields(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { error: err.message, errorName: err.name, stack: err.stack };
  return { error: String(err) };
}
