// SQS emulator: fauxqs (DLQ redrive works). Pinned to 1.9.2: 2.x imports node:sqlite, which Node 20
// lacks, so queues live in memory: a message in flight when the service stops is not kept (the
// records it would update are in DynamoDB, which is on disk).
import { startFauxqs } from 'fauxqs';

export async function startSqs(opts: { port?: number }): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const server = await startFauxqs({ port: opts.port ?? 0, logger: false });
  return { endpoint: server.address, stop: () => server.stop() };
}
