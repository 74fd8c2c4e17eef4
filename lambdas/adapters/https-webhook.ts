// WebhookPoster over node:https. Only https: URLs; no redirects followed; a hard timeout
// (WEBHOOK_TIMEOUT_MS). TLS verification always stays on: WEBHOOK_CA_FILE adds a PEM bundle to the
// system roots for this agent only (e.g. the self-signed server of the delivery tests). The agent
// connects only where the outbound policy allows (lambdas/net/outbound.ts), like connectors.
import { request, type Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { readFileSync } from 'node:fs';
import type { WebhookPoster } from '../domain/ports';
import { guardedHttpsAgent, policyReason } from '../net/outbound';

export class HttpsWebhookPoster implements WebhookPoster {
  private readonly agent: Agent;

  constructor(private readonly timeoutMs: number, caFile?: string) {
    this.agent = guardedHttpsAgent({
      keepAlive: true,
      ...(caFile ? { ca: [...rootCertificates, readFileSync(caFile, 'utf8')] } : {}),
    });
  }

  post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number }> {
    const target = new URL(url);
    if (target.protocol !== 'https:') return Promise.reject(new Error('webhook URL must use https'));
    return new Promise((resolve, reject) => {
      const req = request(
        target,
        { method: 'POST', agent: this.agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, timeout: this.timeoutMs },
        (res) => {
          res.resume(); // the body is not needed; drain it so the socket is reused
          res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no response within ${this.timeoutMs} ms`)));
      req.on('error', (err) => reject(policyReason(err) ? new Error(policyReason(err)) : err));
      req.end(body);
    });
  }
}
