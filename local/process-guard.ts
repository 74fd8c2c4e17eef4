// Last line of defence for `npm start`: an exception that escapes a request (a stream 'error' nobody
// listened to, a rejected promise nobody awaited) must not exit the one process that hosts every
// emulator and the API. It is logged as an error with its stack, loudly, and the process goes on:
// one bad request costs its own response, not the service. (On AWS each Lambda invocation is
// isolated by the runtime instead.)
export function installProcessGuards(log: (line: string) => void = (l) => console.error(l)): void {
  process.on('uncaughtException', (err, origin) => {
    log(JSON.stringify({ level: 'error', msg: `${origin} (the service keeps running)`, error: err?.stack ?? String(err) }));
  });
  process.on('unhandledRejection', (reason) => {
    log(JSON.stringify({ level: 'error', msg: 'unhandledRejection (the service keeps running)', error: (reason as Error)?.stack ?? String(reason) }));
  });
}
