// Outbound policy for libraries that call the global fetch and take no fetch or dispatcher option
// (weaviate-client's REST half). Node's fetch sends every request through the process-wide undici
// dispatcher; this module replaces it, once, by a router that sends a request through a guarded
// agent when it was started inside withGuardedGlobalFetch() (an AsyncLocalStorage scope, so it follows
// the library's promises), and through the previous dispatcher otherwise: the service's own fetch
// calls are unchanged. The guarded agent is of the same class as Node's default one, connecting with
// guardedLookup (every address of the name checked, at connect time, on the address connected to);
// literal hosts are judged before dispatch.
import { AsyncLocalStorage } from 'node:async_hooks';
import { guardedLookupFor, literalTargetProblem, OutboundPolicyError } from './outbound';

const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');
const scope = new AsyncLocalStorage<true>();

type Dispatcher = { dispatch(opts: { origin?: string | URL }, handler: { onError?(err: Error): void }): boolean };

let routed: Dispatcher | undefined;
/** One guarded agent per port: the lookup refuses the service's own endpoints at that port too. */
const guarded = new Map<string, Dispatcher>();

/** Installs the router, again if something replaced the global dispatcher since (then around that one). */
function install(): void {
  void globalThis.fetch; // Node creates its default dispatcher when fetch is first touched
  const g = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  if (routed && g[GLOBAL_DISPATCHER] === routed) return;
  const previous = g[GLOBAL_DISPATCHER];
  if (!previous) throw new Error('no global fetch dispatcher to guard');
  const AgentClass = previous.constructor as new (opts: object) => Dispatcher;
  const agentFor = (port: string) => {
    let a = guarded.get(port);
    if (!a) guarded.set(port, (a = new AgentClass({ connect: { lookup: guardedLookupFor(port) } })));
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

/** Runs fn so that every global fetch it starts (and its promises start) goes through the policy. */
export function withGuardedGlobalFetch<T>(fn: () => Promise<T>): Promise<T> {
  install();
  return scope.run(true, fn);
}
