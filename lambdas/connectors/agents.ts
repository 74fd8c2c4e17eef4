// HTTP(S) agents for the official store clients that accept one (Elasticsearch, OpenSearch, Azure AI
// Search): keep-alive, the outbound policy applied to the addresses a connection really uses
// (lambdas/net/outbound.ts guarded agents), and TLS verification always on.
// CONNECTOR_CA_FILE adds a PEM bundle to the system roots: a self-managed cluster behind a private
// CA, or the self-signed stand-ins of the tests. Certificates are never left unverified.
import { readFileSync } from 'node:fs';
import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { config } from '../config';
import { guardedHttpAgent, guardedHttpsAgent } from '../net/outbound';

const caCache = new Map<string, string[]>();

/** The trusted roots for connector TLS: the system's, plus CONNECTOR_CA_FILE's when set. */
export function connectorCa(): string[] | undefined {
  const file = config().CONNECTOR_CA_FILE;
  if (!file) return undefined;
  let ca = caCache.get(file);
  if (!ca) {
    ca = [...rootCertificates, readFileSync(file, 'utf8')];
    caCache.set(file, ca);
  }
  return ca;
}

/** A fresh agent for one client that destroys it when closed (Elasticsearch, OpenSearch). */
export function connectorAgent(protocol: string): HttpAgent | HttpsAgent {
  if (protocol === 'http:') return guardedHttpAgent({ keepAlive: true, maxSockets: 16 });
  const ca = connectorCa();
  return guardedHttpsAgent({ keepAlive: true, maxSockets: 16, ...(ca ? { ca } : {}) });
}

const shared = new Map<string, HttpAgent | HttpsAgent>();

/**
 * One agent per process and policy for clients that never close theirs (Azure SDK clients), so
 * idle keep-alive sockets do not pile up per call. Requests carry their own credentials.
 */
export function sharedConnectorAgent(protocol: string): HttpAgent | HttpsAgent {
  // The guarded agents read the policy per connection, so one agent per protocol and CA bundle.
  const key = `${protocol}|${protocol === 'https:' ? config().CONNECTOR_CA_FILE ?? '' : ''}`;
  let agent = shared.get(key);
  if (!agent) {
    agent = connectorAgent(protocol);
    shared.set(key, agent);
  }
  return agent;
}

/** A message with every secret value of the config replaced, for reasons and logs. */
export function redact(message: string, secrets: readonly (string | null | undefined)[]): string {
  let out = message;
  for (const s of secrets) if (typeof s === 'string' && s.length >= 4) out = out.split(s).join('**********');
  return out;
}
