// The outbound-network policy: one module for every call the service makes on a tenant's behalf
// (connectors, webhook channels, embedding and VLM providers). A leaf module: node built-ins,
// ipaddr.js and undici only, so the engine and the connectors may both import it.
//
// Rules (DESIGN §9):
// - Instance-metadata endpoints (169.254.169.254, 169.254.170.2, fd00:ec2::254, 100.100.100.200 and
//   their well-known names) are refused always: no tenant has business there.
// - With CONNECTORS_DENY_PRIVATE_NETWORKS=true (the CDK default) every address that is not global
//   unicast is refused: loopback, private, link-local, CGNAT, unique-local, multicast, reserved, and
//   the IPv6 forms that carry an IPv4 address: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible
//   (::a.b.c.d, ::7f00:1), SIIT (::ffff:0:a.b.c.d), NAT64 64:ff9b::/96 with a refused embedded IPv4,
//   the local-use NAT64 prefix 64:ff9b:1::/48, 6to4 2002::/16 with a refused embedded IPv4, Teredo.
// - The check runs on the address a connection really uses: the agents, the fetch, the sockets and
//   the http2 connect options below resolve the name themselves and refuse before connecting, so a
//   name that resolves differently between a validation-time check and the connection (DNS
//   rebinding) cannot slip through; literal addresses (which node connects to without a lookup) are
//   checked on the same path, redirects included. Clients that take none of these hooks are guarded
//   by ./global-fetch-guard (the global fetch) and ./grpc-guard (gRPC channels).
// - The service's own stores are never a tenant's target: a connection to the host and port of an
//   AWS_ENDPOINT_URL / AWS_ENDPOINT_URL_<store> endpoint (the local emulators: S3, DynamoDB, SQS, Step
//   Functions, EventBridge, SES, KMS), under any spelling of this machine (localhost, 127.0.0.1, [::1],
//   0.0.0.0, its interface addresses, a name resolving to them) is refused where the port is known
//   (HTTP agents, fetch dispatchers, TCP and gRPC connects). The S3 family's agents (guardedS3Agents)
//   may reach the S3 endpoint: the local default of an s3 connector without endpoint_url, the service
//   bucket refused there request by request (connectors/service-boundary.ts).
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import { Agent as HttpAgent, type AgentOptions as HttpAgentOptions } from 'node:http';
import { Agent as HttpsAgent, type AgentOptions as HttpsAgentOptions } from 'node:https';
import type { ClientSessionOptions, SecureClientSessionOptions } from 'node:http2';
import { connect as netConnect, isIP, Socket, type LookupFunction } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import { Agent as UndiciAgent, buildConnector, fetch as undiciFetch } from 'undici';

/** Names of metadata services; refused whatever they resolve to. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);
/** Metadata and credential endpoints of cloud runtimes (EC2/ECS/Lambda, AWS IPv6, Alibaba). */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '169.254.170.23', 'fd00:ec2::254', '100.100.100.200']);

export function privateNetworksDenied(): boolean {
  return /^(1|true|yes)$/i.test(process.env.CONNECTORS_DENY_PRIVATE_NETWORKS ?? '');
}

function v4Private(bytes: number[]): boolean {
  return ipaddr.fromByteArray(bytes).range() !== 'unicast';
}

/** '::a.b.c.d' → '::xxxx:yyyy': ipaddr.js reads any dotted tail as IPv4-mapped, which it is not. */
function hexTail(ip: string): string {
  const m = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (!m) return ip;
  const [a, b, c, d] = m.slice(2).map(Number) as [number, number, number, number];
  return `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * True for addresses outside global unicast, including every IPv6 form that embeds a refused IPv4
 * address (see the header). Not an IP address at all: false.
 */
export function isPrivateAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIP(bare)) return false;
  if (isIP(bare) === 4) return ipaddr.parse(bare).range() !== 'unicast';
  const addr = ipaddr.parse(hexTail(bare));
  const b = addr.toByteArray();
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4Private(b.slice(12)); // ::ffff:a.b.c.d
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return v4Private(b.slice(12)); // ::ffff:0:a.b.c.d (SIIT)
  if (zero(0, 12)) return true; // ::, ::1 and IPv4-compatible ::a.b.c.d (deprecated; never a real host)
  const nat64 = [0x00, 0x64, 0xff, 0x9b];
  if (nat64.every((x, i) => b[i] === x)) {
    if (zero(4, 12)) return v4Private(b.slice(12)); // 64:ff9b::/96
    if (b[4] === 0 && b[5] === 1) return true; // 64:ff9b:1::/48, local-use NAT64: an operator's own network
  }
  if (b[0] === 0x20 && b[1] === 0x02) return v4Private(b.slice(2, 6)); // 6to4 2002:AABB:CCDD::/48
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) return true; // Teredo tunnels
  return addr.range() !== 'unicast';
}

function isMetadataAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIP(bare)) return false;
  const addr = ipaddr.process(bare); // IPv4-mapped IPv6 → IPv4
  return METADATA_ADDRESSES.has(addr.toNormalizedString()) || METADATA_ADDRESSES.has(addr.toString());
}

/** Why this address may not be reached under the current policy, or undefined when it may. */
export function addressProblem(ip: string, host = ip): string | undefined {
  if (isMetadataAddress(ip)) return `host ${host} is an instance metadata address (${ip}), which the service never calls for a tenant`;
  if (privateNetworksDenied() && isPrivateAddress(ip)) {
    return `host ${host} resolves to a private network address (${ip}), which may not be reached here (CONNECTORS_DENY_PRIVATE_NETWORKS)`;
  }
  return undefined;
}

/**
 * What can be said about a host without resolving it: a metadata name, or a literal address the
 * policy refuses. Names are judged at connect time. Used for early 422s.
 */
export function literalHostProblem(host: string): string | undefined {
  const bare = host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (METADATA_HOSTS.has(bare)) return `host ${bare} is an instance metadata service, which the service never calls for a tenant`;
  return isIP(bare) ? addressProblem(bare, bare) : undefined;
}

/** literalHostProblem for the host of a URL; a string that is not a URL is left to its own validation. */
export function literalUrlProblem(url: string): string | undefined {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined;
  }
  return literalHostProblem(host);
}

/** The service's stores that the SDK reaches through AWS_ENDPOINT_URL_<STORE> (ALL: AWS_ENDPOINT_URL). */
const SERVICE_STORES = ['S3', 'DYNAMODB', 'SQS', 'SFN', 'EVENTBRIDGE', 'SESV2', 'KMS', 'ALL'] as const;
export type ServiceStore = (typeof SERVICE_STORES)[number];

const bareHost = (h: string) => h.replace(/^\[|\]$/g, '').replace(/%.*$/, '').replace(/\.+$/, '').toLowerCase();

function serviceEndpoints(): { store: ServiceStore; host: string; port: number }[] {
  const out: { store: ServiceStore; host: string; port: number }[] = [];
  for (const store of SERVICE_STORES) {
    const raw = process.env[store === 'ALL' ? 'AWS_ENDPOINT_URL' : `AWS_ENDPOINT_URL_${store}`];
    if (!raw) continue;
    try {
      const u = new URL(raw);
      out.push({ store, host: bareHost(u.hostname), port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)) });
    } catch {
      // not a URL: the SDK refuses it; nothing to compare
    }
  }
  return out;
}

/** True for an address of this machine: loopback, unspecified (0.0.0.0, ::), an interface's address. */
function isThisMachine(ip: string): boolean {
  const bare = bareHost(ip);
  if (!isIP(bare)) return false;
  const addr = ipaddr.process(bare);
  if (addr.range() === 'loopback' || addr.range() === 'unspecified') return true;
  const norm = addr.toNormalizedString();
  return Object.values(networkInterfaces())
    .flat()
    .some((i) => i && ipaddr.isValid(bareHost(i.address)) && ipaddr.process(bareHost(i.address)).toNormalizedString() === norm);
}

const isLocalName = (h: string) => h === 'localhost' || h.endsWith('.localhost') || isThisMachine(h);

/**
 * Why connecting to `target` (an address, or a name before resolution) at `port` would reach one of
 * the service's own stores, or undefined. `allowed`: stores the caller may reach (the S3 family: S3).
 */
export function serviceEndpointProblem(target: string, port: number | string | undefined | null, host = target, allowed: readonly ServiceStore[] = []): string | undefined {
  const p = Number(port);
  if (!p) return undefined;
  const t = bareHost(target);
  for (const e of serviceEndpoints()) {
    if (e.port !== p || allowed.includes(e.store)) continue;
    const same = isLocalName(e.host) ? isLocalName(t) : isIP(t) && isIP(e.host) ? ipaddr.process(t).toNormalizedString() === ipaddr.process(e.host).toNormalizedString() : t === e.host;
    if (same) return `host ${bareHost(host)}:${p} is the service's own ${e.store === 'ALL' ? 'AWS' : e.store} endpoint, which connectors may not reach`;
  }
  return undefined;
}

export class OutboundPolicyError extends Error {
  override readonly name = 'OutboundPolicyError';
  readonly code = 'EOUTBOUNDPOLICY';
}

/** A dns lookup that resolves every address and refuses the name if any of them is refused. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  const named = literalHostProblem(hostname);
  if (named) return callback(new OutboundPolicyError(named), '', 0);
  dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    for (const a of addresses) {
      const problem = addressProblem(a.address, hostname);
      if (problem) return callback(new OutboundPolicyError(problem), '', 0);
    }
    if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/** guardedLookup that also refuses the service's own endpoints at `port` (see serviceEndpointProblem). */
export function guardedLookupFor(port: number | string | undefined | null, allowed: readonly ServiceStore[] = []): LookupFunction {
  return (hostname, options, callback) => {
    guardedLookup(hostname, { ...(options as LookupOptions), all: true }, ((err: Error | null, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      for (const a of addresses) {
        const problem = serviceEndpointProblem(a.address, port, hostname, allowed);
        if (problem) return callback(new OutboundPolicyError(problem), '', 0);
      }
      if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    }) as unknown as Parameters<LookupFunction>[2]);
  };
}

/** What can be said of host:port before connecting: literalHostProblem, then the service's endpoints. */
export function literalTargetProblem(host: string, port: number | string | undefined | null, allowed: readonly ServiceStore[] = []): string | undefined {
  return literalHostProblem(host) ?? serviceEndpointProblem(host, port, host, allowed);
}

/**
 * Resolves a host under the policy now and throws the reason if it is refused (for connection checks'
 * early, readable FAILURE). Not a substitute for the connect-time check of the agents below.
 */
export async function assertAllowedHost(host: string): Promise<void> {
  const bare = host.replace(/^\[|\]$/g, '');
  const literal = literalHostProblem(bare);
  if (literal) throw new OutboundPolicyError(literal);
  if (isIP(bare) || !privateNetworksDenied()) return;
  let addrs: string[];
  try {
    addrs = (await dnsLookupAsync(bare, { all: true })).map((a) => a.address);
  } catch (err) {
    throw new Error(`cannot resolve ${bare}: ${(err as Error).message}`);
  }
  for (const a of addrs) {
    const problem = addressProblem(a, bare);
    if (problem) throw new OutboundPolicyError(problem);
  }
}

/** assertAllowedHost for the host of an http(s) URL. */
export async function assertAllowedUrl(url: string): Promise<void> {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    throw new Error(`${JSON.stringify(url)} is not a URL`);
  }
  await assertAllowedHost(host);
}

type ConnectOptions = { host?: string | null; hostname?: string | null; port?: number | string | null; lookup?: LookupFunction };
type CreateConnection = (options: ConnectOptions, cb: (err: Error | null, socket?: Socket) => void) => Socket | undefined;

/** Wraps an agent's createConnection: literal hosts checked, names resolved through guardedLookupFor. */
function guardConnections<A extends HttpAgent | HttpsAgent>(agent: A, allowed: readonly ServiceStore[] = []): A {
  const original = (agent as unknown as { createConnection: CreateConnection }).createConnection.bind(agent);
  (agent as unknown as { createConnection: CreateConnection }).createConnection = (options, cb) => {
    const problem = literalTargetProblem(String(options.host ?? options.hostname ?? ''), options.port, allowed);
    if (problem) {
      // Reported through the request's 'error' event, like a refused connection.
      process.nextTick(() => cb(new OutboundPolicyError(problem)));
      return undefined;
    }
    return original({ ...options, lookup: guardedLookupFor(options.port, allowed) }, cb);
  };
  return agent;
}

/**
 * How long a kept-alive connection may sit idle in an agent's pool before the client closes it. Servers
 * close idle connections too (Node's default after 5 s, others later); a request written on a socket just
 * as the server closes it fails with "socket hang up", and when several pooled sockets went idle together
 * the retry meets the same fate. Closing first, below the shortest usual server timeout, avoids that race.
 */
export const FREE_SOCKET_IDLE_MS = 4000;

/** A pooled socket closes itself after FREE_SOCKET_IDLE_MS idle; in use, it keeps no such timeout. */
type PoolHooks = { keepSocketAlive(socket: Socket): boolean; reuseSocket(socket: Socket, req: unknown): void };
function closeIdleSockets<A extends HttpAgent | HttpsAgent>(a: A): A {
  const agent = a as unknown as PoolHooks; // both are public Agent methods; @types/node names only the first
  const keep = agent.keepSocketAlive.bind(agent);
  const reuse = agent.reuseSocket.bind(agent);
  // Node's agent destroys a socket that times out while in its free list
  agent.keepSocketAlive = (socket) => {
    const kept = keep(socket);
    if (kept) socket.setTimeout(FREE_SOCKET_IDLE_MS);
    return kept;
  };
  agent.reuseSocket = (socket, req) => {
    socket.setTimeout(0);
    reuse(socket, req);
  };
  return a;
}

/** An http.Agent that connects only where the policy allows. */
export function guardedHttpAgent(options: HttpAgentOptions = { keepAlive: true }, allowed: readonly ServiceStore[] = []): HttpAgent {
  return closeIdleSockets(guardConnections(new HttpAgent(options), allowed));
}

/** An https.Agent that connects only where the policy allows (TLS options, e.g. `ca`, as usual). */
export function guardedHttpsAgent(options: HttpsAgentOptions = { keepAlive: true }, allowed: readonly ServiceStore[] = []): HttpsAgent {
  return closeIdleSockets(guardConnections(new HttpsAgent(options), allowed));
}

let sharedAgents: { httpAgent: HttpAgent; httpsAgent: HttpsAgent } | undefined;
/** Shared guarded agents for SDK clients (AWS SDK `requestHandler: { httpAgent, httpsAgent }`). */
export function guardedAgents(): { httpAgent: HttpAgent; httpsAgent: HttpsAgent } {
  return (sharedAgents ??= { httpAgent: guardedHttpAgent(), httpsAgent: guardedHttpsAgent() });
}

let s3Agents: { httpAgent: HttpAgent; httpsAgent: HttpsAgent } | undefined;
/**
 * The S3 family's agents (s3, delta, watsonx object storage): as guardedAgents, but the service's S3
 * endpoint may be reached (locally, tenants' buckets live on the same emulator); their clients refuse
 * the service's bucket on every request (connectors/service-boundary.ts refuseServiceBucketRequests).
 */
export function guardedS3Agents(): { httpAgent: HttpAgent; httpsAgent: HttpsAgent } {
  const allowed = ['S3', 'ALL'] as const;
  return (s3Agents ??= { httpAgent: guardedHttpAgent({ keepAlive: true }, allowed), httpsAgent: guardedHttpsAgent({ keepAlive: true }, allowed) });
}

/**
 * An undici `connect` under the policy: literal hosts and the service's endpoints judged before
 * connecting, names resolved through guardedLookupFor (extra TLS options, e.g. `ca`, as given).
 */
export function guardedUndiciConnect(extra: Record<string, unknown> = {}): buildConnector.connector {
  return (opts, cb) => {
    const problem = literalTargetProblem(opts.hostname, opts.port);
    if (problem) return cb(new OutboundPolicyError(problem), null);
    return buildConnector({ ...extra, lookup: guardedLookupFor(opts.port) } as buildConnector.BuildOptions)(opts, cb);
  };
}

const fetchDispatcher = new UndiciAgent({ connect: guardedUndiciConnect() });

/**
 * fetch whose every connection (redirect hops included) goes through the policy. Pass it as the
 * `fetch` of API clients (openai, voyageai) and of the VLM adapters.
 */
export const guardedFetch: typeof fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
  undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as object), dispatcher: fetchDispatcher } as Parameters<typeof undiciFetch>[1])) as unknown as typeof fetch;

/**
 * A TCP connection under the policy, TLS over it when `tls` is given (the server name is the host's
 * unless `tls` names one): a literal host is judged first, a name resolves through guardedLookup.
 */
export function guardedConnect(host: string, port: number, tls?: TlsConnectionOptions): Socket {
  const problem = literalTargetProblem(host, port);
  if (problem) {
    const s = new Socket();
    process.nextTick(() => s.destroy(new OutboundPolicyError(problem)));
    return s;
  }
  if (tls) return tlsConnect({ ...tls, host, port, lookup: guardedLookupFor(port), ...(tls.servername || isIP(host) ? {} : { servername: host }) });
  return netConnect({ host, port, lookup: guardedLookupFor(port) });
}

/**
 * http2.connect options under the policy, for clients that bring their own HTTP/2 stack (the AWS
 * SDK's NodeHttp2Handler takes them as `nodeHttp2ConnectOptions`): a session's socket comes from
 * guardedConnect, with the TLS options http2 itself would use (ALPN h2, the caller's `ca` and such).
 */
export const guardedHttp2ConnectOptions: Partial<SecureClientSessionOptions & ClientSessionOptions> = {
  createConnection(authority: URL, options: SecureClientSessionOptions) {
    const host = authority.hostname.replace(/^\[|\]$/g, '');
    const secure = authority.protocol !== 'http:';
    const port = Number(authority.port) || (secure ? 443 : 80);
    const { createConnection: _self, ...tls } = options;
    return guardedConnect(host, port, secure ? { ...(tls as TlsConnectionOptions), ALPNProtocols: ['h2'] } : undefined);
  },
};

/**
 * An unconnected socket whose connect(port, host) goes through the policy, for database drivers
 * that take a socket factory (pg's `stream`) and call connect themselves.
 */
export function guardedSocket(): Socket {
  const socket = new Socket();
  const connect = socket.connect.bind(socket) as (options: { port: number; host: string; lookup: LookupFunction }) => Socket;
  (socket as unknown as { connect: (port: number, host: string) => Socket }).connect = (port: number, host: string) => {
    const problem = literalTargetProblem(host, port);
    if (problem) {
      process.nextTick(() => socket.destroy(new OutboundPolicyError(problem)));
      return socket;
    }
    return connect({ port, host, lookup: guardedLookupFor(port) });
  };
  return socket;
}

/** The reason of a refused connection anywhere in an error's cause chain, for readable failures. */
export function policyReason(err: unknown): string | undefined {
  for (let e = err as { cause?: unknown; code?: string; message?: string } | undefined, depth = 0; e && depth < 6; e = e.cause as typeof e, depth++) {
    if (e instanceof OutboundPolicyError || e.code === 'EOUTBOUNDPOLICY') return e.message;
  }
  return undefined;
}
