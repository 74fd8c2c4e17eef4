// Network probes for connection checks of hosted services we do not drive through an SDK: a TCP
// connect (proves the host resolves and accepts connections) and a bounded HTTP request.
//
// Checks reach hosts that tenants name. With CONNECTORS_DENY_PRIVATE_NETWORKS=true (set it on AWS)
// hosts that resolve to loopback, private, link-local, CGNAT or unique-local addresses are refused,
// so a connector cannot be used to probe the service's own network. Off by default: the local
// emulators live on 127.0.0.1.
import { lookup } from 'node:dns/promises';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, connect, isIP, type LookupFunction } from 'node:net';
import { describeError } from './definition';

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

/** True for addresses a tenant's connector must not reach when private networks are denied. */
export function isPrivateAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  const family = isIP(ip);
  if (family === 4) return PRIVATE.check(ip, 'ipv4');
  if (family === 6) return PRIVATE.check(ip, 'ipv6');
  return false;
}

export function privateNetworksDenied(): boolean {
  return /^(1|true|yes)$/i.test(process.env.CONNECTORS_DENY_PRIVATE_NETWORKS ?? '');
}

/**
 * When private networks are denied: resolves the host and throws if any address is private;
 * returns the first address (connect to it, not to the name, to avoid a second resolution).
 * Otherwise returns the host unchanged.
 */
export async function allowedAddress(host: string): Promise<string> {
  if (!privateNetworksDenied()) return host;
  const bare = host.replace(/^\[|\]$/g, '');
  let addrs: string[];
  if (isIP(bare)) addrs = [bare];
  else {
    try {
      addrs = (await lookup(bare, { all: true })).map((a) => a.address);
    } catch (err) {
      throw new Error(`cannot resolve ${bare}: ${describeError(err)}`);
    }
  }
  const bad = addrs.find(isPrivateAddress);
  if (bad) throw new Error(`host ${bare} resolves to a private network address (${bad}), which connectors may not reach here`);
  return addrs[0]!;
}

/**
 * A `lookup` for node:http(s)/net requests that refuses private addresses on the addresses the
 * connection really uses, so a name that re-resolves differently between a check and the connect
 * cannot slip through (use it when privateNetworksDenied()).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new Error(`host ${hostname} resolves to a private network address (${bad.address})`), '', 0);
    if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/** allowedAddress for the host of a URL (an http(s) endpoint a tenant configured). */
export async function assertAllowedUrl(url: string): Promise<void> {
  if (!privateNetworksDenied()) return;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    throw new Error(`${JSON.stringify(url)} is not a URL`);
  }
  await allowedAddress(host);
}

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
  const address = await allowedAddress(target.host);
  return new Promise<void>((resolve, reject) => {
    const label = `${target.host}:${target.port} (from ${target.field})`;
    if (signal.aborted) {
      reject(new Error(`connection to ${label} aborted`));
      return;
    }
    const socket = connect({ host: address, port: target.port });
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
    socket.once('error', (e) => done(new Error(`cannot connect to ${label}: ${describeError(e)}`)));
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
    res = await fetch(url, { ...init, signal, redirect: 'manual' });
  } catch (err) {
    const host = safeHost(url);
    if (signal.aborted) throw new Error(`request to ${host} timed out`);
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
