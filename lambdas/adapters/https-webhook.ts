// WebhookPoster over node:https. Only https: URLs (or http: to loopback where net/webhook-target.ts allows it); no redirects followed.
// WEBHOOK_TIMEOUT_MS is a deadline over the whole exchange (connect, send, answer), not an idle
// timeout: a receiver dripping a byte at a time cannot hold a delivery past it. Of the answer the
// first KiB is kept; past it nothing more is read and the connection is closed (a shorter answer is read
// to its end and the kept-alive socket reused), so a receiver streaming gigabytes costs nothing. TLS
// verification always stays on: WEBHOOK_CA_FILE adds a PEM bundle to the
// system roots for this agent only (e.g. the self-signed server of the delivery tests). The agent
// connects only where the outbound policy allows (lambdas/net/outbound.ts), like connectors.
import { request, type Agent } from 'node:https';
import { request as httpRequest, type Agent as HttpAgent } from 'node:http';
import { rootCertificates } from 'node:tls';
import { readFileSync } from 'node:fs';
import type { WebhookPoster } from '../domain/ports';
import { guardedHttpAgent, guardedHttpsAgent, policyReason } from '../net/outbound';
import { webhookUrlProblem } from '../net/webhook-target';

/** Bytes of the receiver's answer kept for a test delivery's report. */
const BODY_EXCERPT_BYTES = 1024;

export class HttpsWebhookPoster implements WebhookPoster {
  private readonly agent: Agent;
  /** Plain HTTP, for loopback receivers on a local stack that allows them (net/webhook-target.ts). */
  private readonly httpAgent: HttpAgent = guardedHttpAgent({ keepAlive: true });

  constructor(private readonly timeoutMs: number, caFile?: string) {
    this.agent = guardedHttpsAgent({
      keepAlive: true,
      ...(caFile ? { ca: [...rootCertificates, readFileSync(caFile, 'utf8')] } : {}),
    });
  }

  post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
    const target = new URL(url);
    const problem = webhookUrlProblem(url);
    if (problem) return Promise.reject(new Error(problem));
    const plain = target.protocol === 'http:';
    return new Promise((resolve, reject) => {
      let settled = false;
      let deadline: ReturnType<typeof setTimeout> | undefined;
      const finish = (err: Error | undefined, out?: { status: number; body: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        if (err) reject(err);
        else resolve(out!);
      };
      const req = (plain ? httpRequest : request)(
        target,
        {
          method: 'POST',
          agent: plain ? this.httpAgent : this.agent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        },
        (res) => {
          // -- keep the first KiB (reported by a test delivery); past it the answer is not read: the
          // -- connection is closed rather than drained (a socket reused is not worth a 2 GB answer) --
          const kept: Buffer[] = [];
          let size = 0;
          const done = () => finish(undefined, { status: res.statusCode ?? 0, body: Buffer.concat(kept).toString('utf8') });
          res.on('data', (chunk: Buffer) => {
            if (size < BODY_EXCERPT_BYTES) kept.push(chunk.subarray(0, BODY_EXCERPT_BYTES - size));
            size += chunk.length;
            if (size >= BODY_EXCERPT_BYTES) {
              done();
              req.destroy();
            }
          });
          res.on('end', done);
          res.on('error', (err) => finish(err));
        },
      );
      deadline = setTimeout(() => {
        const err = new Error(`no complete answer within ${this.timeoutMs} ms`);
        finish(err);
        req.destroy(err);
      }, this.timeoutMs);
      req.on('error', (err) => finish(policyReason(err) ? new Error(policyReason(err)) : err));
      req.end(body);
    });
  }
}
