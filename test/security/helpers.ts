// Shared helpers of the security tier: a keyed local stack with two tenants, a keyed service process
// per test, job launching and waiting, and reading 422 bodies.
import { after, beforeEach } from 'node:test';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { jobForm as postForm, jobReaching, launchUntilAccepted } from '../support/e2e-jobs';
export { withEnv } from '../support/env';
import { authService } from '../../lambdas/services/core';

export interface Tenants {
  stack: TestStack;
  /** Headers acting as tenant A / tenant B. */
  asA: { headers: Record<string, string> };
  asB: { headers: Record<string, string> };
}

export async function keyedStack(opts: Parameters<typeof startTestStack>[0] = {}): Promise<Tenants> {
  const stack = await startTestStack({ authMode: 'keyed', ...opts });
  const keyA = (await authService().createKey('tenant-a', 'alice')).key;
  const keyB = (await authService().createKey('tenant-b', 'bob')).key;
  return { stack, asA: { headers: { 'service-api-key': keyA } }, asB: { headers: { 'service-api-key': keyB } } };
}

/**
 * A keyed service process (as `npm start` runs it) with a key of `tenant`, handed to `bind`: a fresh
 * one before each test when the previous test left none alive, so each test shows its own outcome;
 * stopped after the file.
 */
export function serviceEachTest(tenant: string, bind: (svc: ServiceProcess, key: string) => void): void {
  let svc: ServiceProcess | undefined;
  beforeEach(async () => {
    if (NEEDS_LOCAL || (await svc?.healthy())) return;
    await svc?.stop();
    svc = await startServiceProcess({ authMode: 'keyed' });
    bind(svc, svc.createKey(tenant, 'alice'));
  });
  after(async () => {
    await svc?.stop();
  });
}

/** A job's form of text/plain files. */
export const jobForm = (requestData: unknown, files: { name: string; text: string }[]) =>
  postForm(requestData, files.map((f) => ({ name: f.name, data: f.text, type: 'text/plain' })));

/** POST /api/v1/jobs/, waiting out the one-launch-per-second rule. */
export const launchJob = (stack: TestStack, as: { headers: Record<string, string> }, form: FormData) => launchUntilAccepted(stack, form, '/api/v1/jobs/', as);

/** The job once it has ended, read as `as`. */
export const waitForJob = (stack: TestStack, as: { headers: Record<string, string> }, id: string) => jobReaching(stack, id, { as, what: `job ${id} to finish` });

/** The `loc` paths of a 422 body, joined with dots. */
export function locs(body: { detail?: { loc: (string | number)[] }[] }): string[] {
  return Array.isArray(body?.detail) ? body.detail.map((d) => d.loc.join('.')) : [];
}

export function messages(body: { detail?: { msg: string }[] | string }): string {
  return Array.isArray(body?.detail) ? body.detail.map((d) => d.msg).join(' | ') : String(body?.detail ?? '');
}
