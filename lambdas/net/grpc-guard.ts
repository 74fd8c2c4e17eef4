// gRPC channels under the outbound policy. The official Weaviate and Milvus clients open gRPC channels
// through @grpc/grpc-js, which resolves host names itself and takes no lookup or socket hook, so the
// HTTP agents of ./outbound cannot guard them. grpc-js does let a process replace its name resolvers:
// guardGrpcChannels() registers resolvers for the `dns`, `ipv4` and `ipv6` schemes that resolve every
// address of the name (as guardedLookup does) and hand the channel only checked addresses, or an
// UNAVAILABLE error carrying the policy's reason. The channel then connects to exactly the addresses
// that were checked (no second lookup, so no rebinding window); TLS still verifies the host name,
// because grpc-js takes the server name from the target, not from the resolved address.
// The resolvers are process-wide: every gRPC channel of this process is a tenant's (connectors).
// TLS channels made without roots of their own (ChannelCredentials.createSsl(), as the Weaviate client
// does) verify against the system roots plus CONNECTOR_CA_FILE, as the connectors' HTTP clients do.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ChannelCredentials, experimental, Metadata, status } from '@grpc/grpc-js';
import { connectorCa } from '../connectors/agents';
import { addressProblem, literalTargetProblem, serviceEndpointProblem } from './outbound';

const DEFAULT_PORT = 443;

type Endpoint = { addresses: { host: string; port: number }[] };

/** The addresses a gRPC target may connect to, or the policy's reason (thrown) when it may not. */
export async function resolveGrpcTarget(target: experimental.GrpcUri): Promise<Endpoint[]> {
  const hostPorts = target.scheme === 'ipv4' || target.scheme === 'ipv6' ? target.path.split(',') : [target.path];
  const endpoints: Endpoint[] = [];
  for (const hp of hostPorts) {
    const parsed = experimental.splitHostPort(hp);
    if (!parsed) throw new Error(`cannot parse gRPC target ${hp}`);
    const host = parsed.host;
    const port = parsed.port ?? DEFAULT_PORT;
    const literal = literalTargetProblem(host, port);
    if (literal) throw new Error(literal);
    if (isIP(host)) {
      endpoints.push({ addresses: [{ host, port }] });
      continue;
    }
    let addrs: { address: string }[];
    try {
      addrs = await dnsLookup(host, { all: true });
    } catch (err) {
      throw new Error(`cannot resolve ${host}: ${(err as Error).message}`);
    }
    for (const a of addrs) {
      const problem = addressProblem(a.address, host) ?? serviceEndpointProblem(a.address, port, host);
      if (problem) throw new Error(problem);
    }
    for (const a of addrs) endpoints.push({ addresses: [{ host: a.address, port }] });
  }
  return endpoints;
}

/** Least time between two resolutions of one channel (grpc-js re-resolves after every failed connect). */
const MIN_RESOLUTION_INTERVAL_MS = 1000;

class GuardedResolver implements experimental.Resolver {
  private generation = 0;
  private last = 0;
  private timer: NodeJS.Timeout | undefined;
  constructor(
    private readonly target: experimental.GrpcUri,
    private readonly listener: experimental.ResolverListener,
  ) {}

  updateResolution(): void {
    if (this.timer) return;
    // Always asynchronous, and spaced: a literal address resolves at once, and grpc-js asks again
    // after each refused connection; without spacing that loop would starve the event loop.
    const wait = Math.max(0, this.last + MIN_RESOLUTION_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.last = Date.now();
      this.resolve();
    }, wait);
    this.timer.unref?.();
  }

  private resolve(): void {
    const generation = ++this.generation;
    resolveGrpcTarget(this.target).then(
      (endpoints) => {
        if (generation === this.generation) this.listener({ ok: true, value: endpoints } as never, {}, null, '');
      },
      (err: Error) => {
        if (generation !== this.generation) return;
        this.listener({ ok: false, error: { code: status.UNAVAILABLE, details: err.message, metadata: new Metadata() } } as never, {}, null, err.message);
      },
    );
  }

  destroy(): void {
    this.generation++;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  static getDefaultAuthority(target: experimental.GrpcUri): string {
    return target.path;
  }
}

let installed = false;

/** Puts every gRPC channel of the process under the outbound policy (idempotent). */
export function guardGrpcChannels(): void {
  if (installed) return;
  for (const scheme of ['dns', 'ipv4', 'ipv6']) experimental.registerResolver(scheme, GuardedResolver);
  const createSsl = ChannelCredentials.createSsl.bind(ChannelCredentials);
  ChannelCredentials.createSsl = (rootCerts, ...rest) => {
    const ca = rootCerts ? undefined : connectorCa();
    return createSsl(rootCerts ?? (ca ? Buffer.from(ca.join('\n')) : rootCerts), ...rest);
  };
  installed = true;
}
