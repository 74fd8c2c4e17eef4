// Starts the whole local service (emulators + router) on free ports in a temporary data directory,
// exactly as `npm start` does, for integration and end-to-end tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../local/stack';
import { ROUTES } from '../../lambdas/routes';

export { eventually } from './eventually';

/** The route a request hits, by the same path matching as the router. */
function routeFor(method: string, path: string) {
  const pathname = new URL(path, 'http://x').pathname.replace(/\/+$/, '');
  return ROUTES.find(
    (r) => r.method === method && new RegExp(`^${r.path.replace(/\/+$/, '').replace(/\{\w+\}/g, '[^/]+')}$`).test(pathname),
  );
}

/**
 * With WPS_E2E_URL set, the e2e suite runs against that deployed API (for example a LocalStack or AWS
 * deployment: see README) instead of starting the local stack; WPS_E2E_API_KEY is sent as the key.
 * Tests that need the local emulators' internals are skipped then (`{ skip: REMOTE && '...' }`).
 */
export const REMOTE = Boolean(process.env.WPS_E2E_URL);
export const NEEDS_LOCAL = REMOTE && 'needs the local emulators (not available against WPS_E2E_URL)';

export interface TestStack extends LocalStack {
  remote: boolean;
  dataDir: string;
  /** fetch relative to the stack URL, JSON helpers included. */
  call(method: string, path: string, opts?: { body?: unknown; headers?: Record<string, string>; raw?: RequestInit['body'] }): Promise<{ status: number; body: any; headers: Headers; text: string }>;
  close(): Promise<void>;
}

export async function startTestStack(opts: Partial<LocalStackOptions> = {}): Promise<TestStack> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'wps-test-'));
  const stack: LocalStack = REMOTE
    ? { url: process.env.WPS_E2E_URL!.replace(/\/+$/, ''), endpoints: {}, credentials: { accessKeyId: '', secretAccessKey: '' }, env: {}, eventsIdle: async () => undefined, tasksIdle: async () => undefined, stop: async () => undefined }
    : await startLocalStack({ dataDir, port: 0, ...opts });
  const call: TestStack['call'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (REMOTE && process.env.WPS_E2E_API_KEY && !headers['service-api-key'] && !headers['unstructured-api-key']) {
      headers['unstructured-api-key'] = process.env.WPS_E2E_API_KEY;
    }
    let body: RequestInit['body'] = o.raw;
    if (o.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(o.body);
    }
    const res = await fetch(stack.url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    // Every successful response must match the schema the OpenAPI document declares for it.
    const route = routeFor(method, path);
    if (route?.response && res.status === (route.status ?? 200) && (res.headers.get('content-type') ?? '').includes('json')) {
      const check = route.response.safeParse(parsed);
      if (!check.success) {
        throw new Error(`${method} ${path}: response does not match the declared ${route.operationId} schema: ${JSON.stringify(check.error.issues).slice(0, 500)}`);
      }
    }
    return { status: res.status, body: parsed, headers: res.headers, text };
  };
  return {
    ...stack,
    remote: REMOTE,
    dataDir,
    call,
    close: async () => {
      await stack.stop();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
