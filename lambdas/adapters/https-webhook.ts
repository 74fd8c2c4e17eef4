// WebhookPoster over node:https. Only https: URLs; no redirects followed; a hard timeout
// (WEBHOOK_TIMEOUT_MS). TLS verification always stays on: WEBHOOK_CA_FILE adds a PEM bundle to the
// system roots for this agent only (e.g. the self-signed server of the delivery tests). With
// CONNECTORS_DENY_PRIVATE_NETWORKS=true private targets are refused like connector hosts (net-check.ts).
import { request, Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { readFileSync } from 'node:fs';
import type { WebhookPoster } from '../domain/ports';
import { isPrivateAddress, privateNetworksDenied, publicOnlyLookup } from '../connectors/net-check';

export class HttpsWebhookPoster implements WebhookPoster {
  private readonly agent: Agent;

  constructor(private readonly timeoutMs: number, caFile?: string) {
    this.agent = new Agent({
      keepAlive: true,
      ...(caFile ? { ca: [...rootCertificates, readFileSync(caFile, 'utf8')] } : {}),
    });
  }

  post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number }> {
    const target = new URL(url);
    if (target.protocol !== 'https:') return Promise.reject(new Error('webhook URL must use https'));
    const denyPrivate = privateNetworksDenied();
    if (denyPrivate && isPrivateAddress(target.hostname.replace(/^\[|\]$/g, ''))) {
      return Promise.reject(new Error(`webhook host ${target.hostname} is a private network address`));
    }
    return new Promise((resolve, reject) => {
      const req = request(
        target,
        { method: 'POST', agent: this.agent, ...(denyPrivate ? { lookup: publicOnlyLookup } : {}), headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, timeout: this.timeoutMs },
        (res) => {
          res.resume(); // the body is not needed; drain it so the socket is reused
          res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no response within ${this.timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }
}
