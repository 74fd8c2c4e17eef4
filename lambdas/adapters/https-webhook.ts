// WebhookPoster over node:https. Only https: URLs; no redirects followed; a hard timeout
// (WEBHOOK_TIMEOUT_MS). TLS verification always stays on: WEBHOOK_CA_FILE adds a PEM bundle to the
// system roots for this agent only (e.g. the self-signed server of the delivery tests).
import { request, Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { readFileSync } from 'node:fs';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { WebhookPoster } from '../domain/ports';
import { isPrivateAddress, privateNetworksDenied } from '../connectors/net-check';

/**
 * With CONNECTORS_DENY_PRIVATE_NETWORKS=true a webhook may not reach loopback, private, link-local or
 * unique-local addresses (a tenant must not probe the service's own network). Checked on the addresses
 * the connection really uses, so a name that re-resolves differently between check and connect cannot
 * slip through.
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new Error(`webhook host ${hostname} resolves to a private network address (${bad.address})`), '', 0);
    if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

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
