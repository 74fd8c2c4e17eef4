// SQS emulator: fauxqs (DLQ redrive works). Pinned to 1.9.2: 2.x imports node:sqlite, which Node 20
// lacks, so queues live in memory. What is still queued when the stack stops (ready, waiting for a
// retry, or in flight) is written to <dataDir>/pending.json by stop() and sent again by
// restorePending() at the next start, with what remained of its delay: a webhook delivery waiting
// for its retry survives a restart of `npm start` (its receive count starts again at 1). A process
// killed without stop() loses them, as before.
// fauxqs's own startFauxqs() listens on 0.0.0.0 (hard-coded) and has no auth, so anyone who could
// reach this machine could inject deliveries; its app is built here and bound to loopback instead.
// With `credentials` (the local stack passes its per-start one) every request to that port, its
// /_fauxqs inspection pages included, must be SigV4-signed with it (sigv4-guard.ts); the snapshot
// below reads those pages in-process (app.inject), not through the port.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { buildApp } from 'fauxqs';
import * as crypto from 'node:crypto';
import { guardHttpServer, sigV4, type EmulatorCredentials } from './sigv4-guard';

/** A message kept across a restart: its queue, body, and when it may be received again (epoch ms). */
interface PendingMessage {
  queue: string;
  body: string;
  visibleAt: number;
}

/** SQS caps a message delay at 15 minutes (the delivery back-off is capped there too). */
const MAX_DELAY_SECONDS = 900;

type Inspected = {
  messages: {
    ready: { body: string }[];
    delayed: { body: string; delayUntil?: number }[];
    inflight: { message: { body: string }; visibilityDeadline: number }[];
  };
};

export interface LocalSqs {
  endpoint: string;
  /** Sends the messages kept by the last stop() to the queues named in `urls` (by queue name). */
  restorePending(urls: Record<string, string>, region: string): Promise<number>;
  stop(): Promise<void>;
}

export async function startSqs(opts: { port?: number; dataDir?: string; credentials?: EmulatorCredentials }): Promise<LocalSqs> {
  const app = buildApp({ logger: false });
  if (opts.credentials) guardHttpServer(app.server, sigV4(opts.credentials, crypto).verify, 'sqs');
  await app.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const file = opts.dataDir ? join(opts.dataDir, 'pending.json') : undefined;

  // fauxqs's non-destructive inspection endpoints: every message of every queue, receipt state included.
  const snapshot = async (): Promise<PendingMessage[]> => {
    const now = Date.now();
    const queues = (await app.inject({ method: 'GET', url: '/_fauxqs/queues' })).json() as { name: string }[];
    const out: PendingMessage[] = [];
    for (const q of queues) {
      const { messages } = (await app.inject({ method: 'GET', url: `/_fauxqs/queues/${encodeURIComponent(q.name)}` })).json() as Inspected;
      for (const m of messages.ready) out.push({ queue: q.name, body: m.body, visibleAt: now });
      for (const m of messages.delayed) out.push({ queue: q.name, body: m.body, visibleAt: m.delayUntil ?? now });
      for (const m of messages.inflight) out.push({ queue: q.name, body: m.message.body, visibleAt: m.visibilityDeadline });
    }
    return out;
  };

  return {
    endpoint,
    async restorePending(urls, region) {
      if (!file) return 0;
      let pending: PendingMessage[];
      try {
        pending = JSON.parse(readFileSync(file, 'utf8')) as PendingMessage[];
      } catch {
        return 0; // none kept (or unreadable: nothing to restore)
      }
      const byName = new Map(Object.values(urls).map((u) => [u.split('/').pop()!, u]));
      const sqs = new SQSClient({ region, endpoint, useQueueUrlAsEndpoint: false, ...(opts.credentials ? { credentials: opts.credentials } : {}) });
      let sent = 0;
      try {
        for (const m of pending) {
          const url = byName.get(m.queue) ?? Object.values(urls).find((u) => u.endsWith(`/${m.queue}`));
          if (!url) continue;
          const delay = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil((m.visibleAt - Date.now()) / 1000)));
          await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: m.body, DelaySeconds: delay }));
          sent++;
        }
      } finally {
        sqs.destroy();
      }
      rmSync(file, { force: true });
      return sent;
    },
    async stop() {
      if (file) {
        const pending = await snapshot().catch(() => []);
        mkdirSync(opts.dataDir!, { recursive: true });
        if (pending.length) {
          writeFileSync(`${file}.tmp`, JSON.stringify(pending));
          renameSync(`${file}.tmp`, file); // never a half-written file
        }
      }
      await app.close();
    },
  };
}
