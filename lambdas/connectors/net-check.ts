// Network probes for connection checks of hosted services we do not drive through an SDK: a TCP
// connect (proves the host resolves and accepts connections) and a bounded HTTP request.
//
// Checks reach hosts that tenants name, so both go through the outbound policy (lambdas/net/outbound.ts):
// the host is checked early for a readable reason, and again on the address really connected to.
import { assertAllowedHost, assertAllowedUrl, guardedFetch, guardedTcpConnect, policyReason } from '../net/outbound';
import { describeError } from './definition';

export interface Target {
  host: string;
  port: number;
  /** Where the target came from, for the reason text (e.g. "uri"). */
  field: string;
}

const DEFAULT_PORTS: Record<string, number> = {
  http: 80,
  https: 443,
  ws: 80,
  wss: 443,
  mongodb: 27017,
  'mongodb+srv': 27017,
  postgres: 5432,
  postgresql: 5432,
  redis: 6379,
  rediss: 6379,
  neo4j: 7687,
  'neo4j+s': 7687,
  'neo4j+ssc': 7687,
  bolt: 7687,
  'bolt+s': 7687,
  couchbase: 11210,
  couchbases: 11207,
  s3: 443,
};

/** Parses `scheme://[user@]host[:port]/...`, `host:port` or a bare host into a target. */
export function parseTarget(value: string, field: string, fallbackPort = 443): Target | undefined {
  const v = value.trim();
  if (!v) return undefined;
  const m = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/?#]*@)?(\[[^\]]+\]|[^:/?#,]+)(?::(\d+))?/i.exec(v);
  if (m) {
    const scheme = m[1]!.toLowerCase();
    const host = m[2]!.replace(/^\[|\]$/g, '');
    const port = m[3] ? Number(m[3]) : DEFAULT_PORTS[scheme] ?? fallbackPort;
    return { host, port, field };
  }
  const hp = /^(\[[^\]]+\]|[^:/?#,\s]+)(?::(\d+))?/.exec(v);
  if (!hp) return undefined;
  return { host: hp[1]!.replace(/^\[|\]$/g, ''), port: hp[2] ? Number(hp[2]) : fallbackPort, field };
}

/** Resolves when a TCP connection to the target opens; rejects with a readable reason otherwise. */
export async function tcpProbe(target: Target, signal: AbortSignal, timeoutMs = 5000): Promise<void> {
  await assertAllowedHost(target.host);
  return new Promise<void>((resolve, reject) => {
    const label = `${target.host}:${target.port} (from ${target.field})`;
    if (signal.aborted) {
      reject(new Error(`connection to ${label} aborted`));
      return;
    }
    const socket = guardedTcpConnect(target.host, target.port);
    const done = (err?: Error) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      if (err) reject(err);
      else resolve();
    };
    const onAbort = () => done(new Error(`connection to ${label} timed out`));
    const timer = setTimeout(() => done(new Error(`connection to ${label} timed out after ${timeoutMs} ms`)), timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => done());
    socket.once('error', (e) => done(new Error(policyReason(e) ?? `cannot connect to ${label}: ${describeError(e)}`)));
  });
}

export interface HttpResult {
  status: number;
  body: string;
}

/** A bounded fetch that turns network failures into readable reasons. */
export async function httpRequest(url: string, init: RequestInit, signal: AbortSignal): Promise<HttpResult> {
  await assertAllowedUrl(url);
  let res: Response;
  try {
    res = await guardedFetch(url, { ...init, signal, redirect: 'manual' });
  } catch (err) {
    const host = safeHost(url);
    if (signal.aborted) throw new Error(`request to ${host} timed out`);
    const refused = policyReason(err);
    if (refused) throw new Error(refused);
    const cause = (err as { cause?: unknown }).cause;
    throw new Error(`cannot reach ${host}: ${describeError(cause instanceof Error ? cause : err)}`);
  }
  const body = await res.text().catch(() => '');
  return { status: res.status, body: body.slice(0, 2000) };
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
