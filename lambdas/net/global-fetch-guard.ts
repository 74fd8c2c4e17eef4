// Outbound policy for libraries that call the global fetch and take no fetch option (weaviate-client's
// REST half, @google/genai, @qdrant/js-client-rest). Node's fetch sends a request through the
// process-wide undici dispatcher, or through the `dispatcher` the caller gives (the Qdrant client
// brings an undici agent of its own, resolving names itself). This module replaces both, once: the
// global dispatcher by a router, the global fetch by a wrapper. A request started inside
// withGuardedGlobalFetch() (an AsyncLocalStorage scope, so it follows the library's promises) goes
// through a guarded agent whatever dispatcher it names; any other goes where it would have gone: the
// service's own fetch calls are unchanged. The guarded agent is of the same class as Node's default
// one, connecting with guardedLookupFor its port (every address of the name checked, at connect time, on the
// address connected to); literal hosts are judged before dispatch. TLS is verified against the
// system roots plus CONNECTOR_CA_FILE (a private CA, or the tests' TLS stand-ins), as the connectors'
// other clients do.
import { AsyncLocalStorage } from 'node:async_hooks';
import { connectorCa } from '../connectors/agents';
import { guardedLookupFor, literalTargetProblem, OutboundPolicyError } from './outbound';

const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');
const scope = new AsyncLocalStorage<true>();

type Dispatcher = { dispatch(opts: { origin?: string | URL }, handler: { onError?(err: Error): void }): boolean };

let routed: Dispatcher | undefined;
let wrappedFetch: typeof fetch | undefined;
/** One guarded agent per port and CA bundle: the lookup refuses the service's own endpoints at that port too. */
const guarded = new Map<string, Dispatcher>();

/** Installs the router and the fetch wrapper, again if something replaced either since (then around that one). */
function install(): void {
  void globalThis.fetch; // Node creates its default dispatcher when fetch is first touched
  const g = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  if (!routed || g[GLOBAL_DISPATCHER] !== routed) {
    const previous = g[GLOBAL_DISPATCHER];
    if (!previous) throw new Error('no global fetch dispatcher to guard');
    const AgentClass = previous.constructor as new (opts: object) => Dispatcher;
    const agentFor = (port: string) => {
      const ca = connectorCa();
      const key = `${port}|${ca ? ca[ca.length - 1] : ''}`;
      let a = guarded.get(key);
      if (!a) guarded.set(key, (a = new AgentClass({ connect: { lookup: guardedLookupFor(port), ...(ca ? { ca } : {}) } })));
      return a;
    };
    routed = g[GLOBAL_DISPATCHER] = new Proxy(previous, {
      get(target, prop) {
        if (prop === 'dispatch') {
          return (opts: { origin?: string | URL }, handler: { onError?(err: Error): void }) => {
            if (!scope.getStore()) return target.dispatch(opts, handler);
            const origin = opts.origin ? new URL(String(opts.origin)) : undefined;
            const port = origin ? origin.port || (origin.protocol === 'https:' ? '443' : '80') : '';
            const problem = literalTargetProblem(origin?.hostname ?? '', port);
            if (problem) {
              queueMicrotask(() => handler.onError?.(new OutboundPolicyError(problem)));
              return true;
            }
            return agentFor(port).dispatch(opts, handler);
          };
        }
        const v = Reflect.get(target, prop, target);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  }
  if (globalThis.fetch !== wrappedFetch) {
    const previous = globalThis.fetch;
    // In the scope every request goes to the router (which guards there), whatever dispatcher it names.
    wrappedFetch = globalThis.fetch = function fetch(input: Parameters<typeof previous>[0], init?: RequestInit) {
      if (!scope.getStore()) return previous(input, init);
      return previous(input, { ...init, dispatcher: routed } as RequestInit);
    };
  }
}

/** Runs fn so that every global fetch it starts (and its promises start) goes through the policy. */
export function withGuardedGlobalFetch<T>(fn: () => Promise<T>): Promise<T> {
  install();
  return scope.run(true, fn);
}
