// SQS emulator: fauxqs, persisted in SQLite under dataDir (DLQ redrive works).
import { mkdirSync } from 'node:fs';
import { startFauxqs } from 'fauxqs';

export async function startSqs(opts: { port?: number; dataDir?: string }): Promise<{ endpoint: string; stop(): Promise<void> }> {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const server = await startFauxqs({ port: opts.port ?? 0, logger: false, dataDir: opts.dataDir });
  return { endpoint: server.address, stop: () => server.stop() };
}
