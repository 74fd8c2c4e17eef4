// Connections to a tenant's Weaviate cluster through the official client (weaviate-client v3): REST
// for the schema (collections) and gRPC for batch inserts and deletes.
//
// cluster_url as the platform takes it: a bare host or https URL is a Weaviate Cloud cluster (REST on
// https://<host>, gRPC on grpc-<host>:443, exactly as the client's connectToWeaviateCloud derives
// them). A URL with an explicit port (or http) is a gateway serving REST and gRPC on that one port
// (a self-hosted cluster behind a proxy, and the local stand-in of the tests). An API key goes to
// https:// only (weaviateClearText); TLS trusts CONNECTOR_CA_FILE on REST and gRPC.
//
// Outbound policy: both hosts are checked before connecting (a readable FAILURE); then, at connect
// time, the gRPC channel resolves only through the guarded resolvers (lambdas/net/grpc-guard.ts) and
// the REST calls, which the client makes with the global fetch, run inside withGuardedGlobalFetch
// (lambdas/net/global-fetch-guard.ts): both connect only to addresses the policy allows.
import weaviate, { ApiKey, type WeaviateClient } from 'weaviate-client';
import { assertAllowedHost } from '../../net/outbound';
import { guardGrpcChannels } from '../../net/grpc-guard';
import { withGuardedGlobalFetch } from '../../net/global-fetch-guard';
import { describeError } from '../definition';
import { httpRequest } from '../net-check';
import { clearTextProblem } from '../secure-transport';

export interface WeaviateConnection {
  cluster_url: string;
  api_key: string;
}

export interface Endpoints {
  cloud: boolean;
  http: { host: string; port: number; secure: boolean };
  grpc: { host: string; port: number; secure: boolean };
}

/** Where the client will connect for a cluster_url (no I/O). */
export function endpointsOf(clusterUrl: string): Endpoints {
  const raw = clusterUrl.trim();
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    throw new Error(`cluster_url ${JSON.stringify(clusterUrl)} is not a host name or URL`);
  }
  if (!url.hostname) throw new Error(`cluster_url ${JSON.stringify(clusterUrl)} names no host`);
  const secure = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (secure && !url.port) {
    // connectToWeaviateCloud's derivation (weaviate.network clusters use <id>.grpc.<rest>).
    const [ident, ...rest] = host.split('.');
    const grpcHost = host.endsWith('.weaviate.network') ? `${ident}.grpc.${rest.join('.')}` : `grpc-${host}`;
    return { cloud: true, http: { host, port: 443, secure: true }, grpc: { host: grpcHost, port: 443, secure: true } };
  }
  const port = Number(url.port || (secure ? 443 : 80));
  return { cloud: false, http: { host, port, secure }, grpc: { host, port, secure } };
}

/**
 * Why cluster_url may not get the API key: an http:// gateway gets it in clear text over REST and gRPC
 * (secure-transport.ts). A keyless cluster may be http (a local, anonymous one).
 */
export function weaviateClearText(c: { cluster_url?: unknown; api_key?: unknown }): string | undefined {
  return typeof c.cluster_url === 'string' && c.api_key ? clearTextProblem(c.cluster_url.trim(), 'cluster_url', 'API key') : undefined;
}

const TIMEOUTS = { init: 5, query: 30, insert: 90 };

export async function connect(c: WeaviateConnection): Promise<WeaviateClient> {
  const clear = weaviateClearText(c);
  if (clear) throw new Error(clear);
  const ep = endpointsOf(c.cluster_url);
  await assertAllowedHost(ep.http.host);
  if (ep.grpc.host !== ep.http.host) await assertAllowedHost(ep.grpc.host);
  guardGrpcChannels();
  const auth = c.api_key ? new ApiKey(c.api_key) : undefined;
  try {
    if (ep.cloud) return await weaviate.connectToWeaviateCloud(c.cluster_url, { authCredentials: auth, timeout: TIMEOUTS });
    return await weaviate.connectToCustom({
      httpHost: ep.http.host,
      httpPort: ep.http.port,
      httpSecure: ep.http.secure,
      grpcHost: ep.grpc.host,
      grpcPort: ep.grpc.port,
      grpcSecure: ep.grpc.secure,
      authCredentials: auth,
      timeout: TIMEOUTS,
    });
  } catch (err) {
    let msg = weaviateMessage(err, c.api_key);
    // The client's fetch error keeps no cause ("fetch failed"): ask the cluster's readiness endpoint
    // once more, through the guarded fetch, for the network reason (refused, unresolvable, policy).
    if (/fetch failed/.test(msg)) {
      const ready = `${ep.http.secure ? 'https' : 'http'}://${ep.http.host.includes(':') ? `[${ep.http.host}]` : ep.http.host}:${ep.http.port}/v1/.well-known/ready`;
      const signal = AbortSignal.timeout(TIMEOUTS.init * 1000);
      msg = await httpRequest(ready, { method: 'GET' }, signal).then(
        (r) => `${msg} (readiness answered ${r.status})`,
        (e: Error) => e.message,
      );
    }
    throw new Error(`cannot connect to Weaviate at ${ep.http.host}:${ep.http.port}: ${msg}`);
  }
}

/**
 * Connects, runs fn with the client and closes it; every REST call of the client (it uses the global
 * fetch) is made under the outbound policy. Use this, not connect(), outside this module.
 */
export function useWeaviate<T>(c: WeaviateConnection, fn: (client: WeaviateClient) => Promise<T>, connectWith: () => Promise<WeaviateClient> = () => connect(c)): Promise<T> {
  return withGuardedGlobalFetch(async () => {
    const client = await connectWith();
    try {
      return await fn(client);
    } finally {
      await client.close().catch(() => undefined);
    }
  });
}

/** The client's (and so the server's) message, without the API key should a server echo it. */
export function weaviateMessage(err: unknown, apiKey?: string): string {
  let msg = describeError(err).replace(/^Weaviate\w*Error: /, '');
  if (apiKey && apiKey.length >= 4) msg = msg.split(apiKey).join('**********');
  return msg;
}

/**
 * Whether a failed call is worth repeating: HTTP 429/5xx from REST calls (the error's code), and
 * gRPC RESOURCE_EXHAUSTED/UNAVAILABLE/INTERNAL, which the client only keeps in its message.
 */
export function retryableWeaviate(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'number') return code === 429 || code === 408 || code >= 500;
  return /\b(RESOURCE_EXHAUSTED|UNAVAILABLE|INTERNAL|DEADLINE_EXCEEDED)\b|status code: (429|5\d\d)\b/.test(describeError(err));
}
