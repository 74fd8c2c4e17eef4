// Bounded waits inside one request: never past what the runtime allows (a Lambda behind API Gateway
// has 29 s), and ended early when the client goes away.

import type { McpContext } from './context';

/** How long a tool asked to wait up to `seconds` may wait in this request. */
export function waitBudgetMs(ctx: McpContext, seconds: number): number {
  return Math.max(0, Math.min(seconds * 1000, ctx.remainingMs()));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * What one request may spend waiting: on AWS the API Gateway integration answers 504 after 29 s,
 * so tools stop waiting well before; under npm start a request may run 10 minutes (local/router.ts).
 */
export const API_GATEWAY_BUDGET_MS = 24_000;
export const LOCAL_BUDGET_MS = 9 * 60_000;
