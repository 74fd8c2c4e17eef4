// The account a connector call is made for. Connector definitions are account-agnostic; the few that
// must confine what one account reaches (the `local` type's per-account folder) read it from here.
// The adapter (adapters/connector-catalog.ts) runs every call for an account inside withTenant.
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<{ accountId: string }>();

export function withTenant<T>(accountId: string, fn: () => T): T {
  return current.run({ accountId }, fn);
}

/** An async iterable whose every step runs for the account (a generator resumes in its caller's context otherwise). */
export function tenantIterable<T>(accountId: string, make: () => AsyncIterable<T>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const it = withTenant(accountId, () => make()[Symbol.asyncIterator]());
      return {
        next: () => withTenant(accountId, () => it.next()),
        return: (v?: unknown) => withTenant(accountId, () => it.return?.(v) ?? Promise.resolve({ done: true as const, value: undefined })),
      } as AsyncIterator<T>;
    },
  };
}

export function currentAccountId(): string | undefined {
  return current.getStore()?.accountId;
}
