// Preloaded by the soak bench into the `npm start` process it spawns (node --expose-gc --import
// <this> local/start.ts): answers a 'memory' message on the IPC channel with the process's memory
// after a full GC, so the bench can report the live heap without a debug route in the service.
if (process.send) {
  process.on('message', (msg) => {
    if (msg !== 'memory') return;
    (globalThis as { gc?: () => void }).gc?.();
    process.send!({ memory: process.memoryUsage() });
  });
  // The channel must not keep a stopped service alive.
  process.channel?.unref();
}
