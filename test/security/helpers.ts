// Shared helpers of the security tier: a keyed local stack with two tenants, job launching and
// waiting, and reading 422 bodies.
import { eventually, startTestStack, type TestStack } from '../support/local-stack';
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

export function jobForm(requestData: unknown, files: { name: string; text: string }[]): FormData {
  const form = new FormData();
  form.append('request_data', JSON.stringify(requestData));
  for (const f of files) form.append('input_files', new Blob([f.text], { type: 'text/plain' }), f.name);
  return form;
}

/** POST /api/v1/jobs/, waiting out the one-launch-per-second rule. */
export async function launchJob(stack: TestStack, as: { headers: Record<string, string> }, form: FormData) {
  for (;;) {
    const r = await stack.call('POST', '/api/v1/jobs/', { ...as, raw: form });
    if (r.status !== 429) return r;
    await new Promise((res) => setTimeout(res, 300));
  }
}

export function waitForJob(stack: TestStack, as: { headers: Record<string, string> }, id: string) {
  return eventually(async () => {
    const r = await stack.call('GET', `/api/v1/jobs/${id}`, as);
    return ['COMPLETED', 'FAILED', 'STOPPED'].includes(r.body.status) ? r.body : undefined;
  }, `job ${id} to finish`, 120_000);
}

/** The `loc` paths of a 422 body, joined with dots. */
export function locs(body: { detail?: { loc: (string | number)[] }[] }): string[] {
  return Array.isArray(body?.detail) ? body.detail.map((d) => d.loc.join('.')) : [];
}

export function messages(body: { detail?: { msg: string }[] | string }): string {
  return Array.isArray(body?.detail) ? body.detail.map((d) => d.msg).join(' | ') : String(body?.detail ?? '');
}

/** Sets environment variables for the duration of fn, restoring them afterwards. */
export async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T> | T): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
