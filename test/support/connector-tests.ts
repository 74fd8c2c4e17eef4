// Scaffolding the connector integration tests (test/integration/connectors) share: environment
// variables pointed at a stand-in and put back afterwards, a config's validation issues as text,
// a connection check that must succeed or fail, and the outbound policy keeping a stand-in unreached.
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { resetConfig } from '../../lambdas/config';
import { savedEnv, setEnv } from './env';
import { checkConnection } from '../../lambdas/connectors/registry';

/**
 * The environment variables `names`, as they are now: `set` changes some of them (an undefined value
 * unsets one; the config re-read), `restore` puts them back (those named, or every one; unset where
 * it was unset).
 */
export function envScope(names: string[]) {
  const saved = savedEnv(names);
  return {
    set(vars: Record<string, string | undefined>): void {
      setEnv(vars);
      resetConfig();
    },
    restore(...keys: string[]): void {
      saved.restore(...keys);
      resetConfig();
    },
  };
}

/** Runs `fn` with `vars` set (undefined: unset; the config re-read), then puts them back as they were. */
export async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const env = envScope(Object.keys(vars));
  env.set(vars);
  try {
    return await fn();
  } finally {
    env.restore();
  }
}

/** The validation issues `make` throws, each `loc: msg`, joined by '; ' ('' when it throws none). */
export function configIssues(make: () => unknown): string {
  try {
    make();
    return '';
  } catch (e: any) {
    return e.issues.map((i: any) => `${i.loc.join('.')}: ${i.msg}`).join('; ');
  }
}

/** `make`'s validation issues for an override: `(over) => configIssues(() => make(over))`. */
export const issuesWith = (make: (over: Record<string, unknown>) => unknown) => (over: Record<string, unknown>): string => configIssues(() => make(over));

/** After the file: the environment scope put back, then the stand-in (`standIn()`, if started) stopped. */
export function restoreAfter(env: { restore(): void }, standIn: () => { stop(): Promise<unknown> } | undefined): void {
  after(async () => {
    env.restore();
    await standIn()?.stop();
  });
}

type Kind = 'source' | 'destination';

/** A connection check that must be a SUCCESS; with `reason`, its reason must equal it. */
export async function checkSucceeds(kind: Kind, type: string, config: Record<string, unknown>, reason?: string) {
  const r = await checkConnection(kind, type, config);
  assert.equal(r.status, 'SUCCESS', r.reason);
  if (reason !== undefined) assert.equal(r.reason, reason);
  return r;
}

/** A connection check that must be a FAILURE whose reason matches `reason` (a RegExp) or equals it. */
export async function checkFails(kind: Kind, type: string, config: Record<string, unknown>, reason: RegExp | string, opts: { timeoutMs?: number } = {}) {
  const r = await checkConnection(kind, type, config, opts);
  assert.equal(r.status, 'FAILURE');
  if (typeof reason === 'string') assert.equal(r.reason, reason);
  else assert.match(r.reason!, reason);
  return { ...r, reason: r.reason! };
}

/**
 * Runs `fn` with private networks denied (CONNECTORS_DENY_PRIVATE_NETWORKS=true, and `vars`; put back
 * after), then asserts that `calls()` (what the stand-in received) did not change: nothing reached it.
 */
export async function nothingReached(calls: () => number, fn: () => Promise<unknown>, opts: { vars?: Record<string, string | undefined>; message?: string } = {}) {
  await withEnv({ CONNECTORS_DENY_PRIVATE_NETWORKS: 'true', ...opts.vars }, async () => {
    const seen = calls();
    await fn();
    assert.equal(calls(), seen, opts.message);
  });
}
