// WebhookPoster over node:https. Only https: URLs (or http: to loopback where net/webhook-target.ts allows it); no redirects followed; a hard timeout
// (WEBHOOK_TIMEOUT_MS). TLS verification always stays on: WEBHOOK_CA_FILE adds a PEM bundle to the
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
      const req = (plain ? httpRequest : request)(
        target,
        {
          method: 'POST',
          agent: plain ? this.httpAgent : this.agent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          timeout: this.timeoutMs,
        },
        (res) => {
          // Keep the first KiB (reported by a test delivery), drain the rest so the socket is reused.
          const kept: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            if (size < BODY_EXCERPT_BYTES) kept.push(chunk.subarray(0, BODY_EXCERPT_BYTES - size));
            size += chunk.length;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(kept).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no response within ${this.timeoutMs} ms`)));
      req.on('error', (err) => reject(policyReason(err) ? new Error(policyReason(err)) : err));
      req.end(body);
    });
  }
}
