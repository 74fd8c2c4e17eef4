// SQS emulator: fauxqs (DLQ redrive works). Pinned to 1.9.2: 2.x imports node:sqlite, which Node 20
// lacks, so queues live in memory: a message in flight when the service stops is not kept (the
// records it would update are in DynamoDB, which is on disk).
// fauxqs's own startFauxqs() listens on 0.0.0.0 (hard-coded) and has no auth, so anyone who could
// reach this machine could inject deliveries; its app is built here and bound to loopback instead.
import { buildApp } from 'fauxqs';

export async function startSqs(opts: { port?: number }): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const app = buildApp({ logger: false });
  await app.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => app.close() };
}
