// What a test file's code prints: every console line kept (and still printed), for checks that no
// secret was logged.

/** From now on, each console.log/warn/error/info/debug line is also pushed, joined by spaces, to the list returned. */
export function captureConsole(): string[] {
  const logs: string[] = [];
  for (const k of ['log', 'warn', 'error', 'info', 'debug'] as const) {
    const orig = console[k].bind(console);
    console[k] = (...args: unknown[]) => {
      logs.push(args.map(String).join(' '));
      orig(...args);
    };
  }
  return logs;
}
