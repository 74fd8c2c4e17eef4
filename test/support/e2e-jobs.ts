// The scaffolding the end-to-end job files share, through the HTTP API of a running stack: one stack
// for the file (with environment variables set before it starts and put back after), a job's
// multipart form, a launch that waits out the one-launch-per-second rule, and waiting for a job's end.
import { after, before } from 'node:test';
import { eventually, startTestStack, type TestStack } from './local-stack';
import { savedEnv, setEnv } from './env';

/**
 * Starts one stack before the file's tests and hands it to `bind`; first `start` (the file's
 * stand-ins), then `env()` set (`keep`: more variables the tests change). After: the stack closed,
 * `stop`, every variable put back.
 */
export function stackForFile(bind: (stack: TestStack) => void, hooks: { env?: () => Record<string, string | undefined>; keep?: readonly string[]; start?: () => unknown; stop?: () => unknown } = {}): void {
  let stack: TestStack | undefined;
  let saved: ReturnType<typeof savedEnv> | undefined;
  before(async () => {
    await hooks.start?.();
    const vars = hooks.env?.() ?? {};
    saved = savedEnv([...(hooks.keep ?? []), ...Object.keys(vars)]);
    setEnv(vars);
    stack = await startTestStack();
    bind(stack);
  });
  after(async () => {
    await stack?.close();
    await hooks.stop?.();
    saved?.restore();
  });
}

/** request_data as JSON and each file as an input_files part (of its `type`, or none). */
export function jobForm(requestData: unknown, files: { name: string; data: Uint8Array | string; type?: string }[]): FormData {
  const form = new FormData();
  form.append('request_data', JSON.stringify(requestData));
  for (const f of files) form.append('input_files', new Blob([f.data], f.type === undefined ? {} : { type: f.type }), f.name);
  return form;
}

/** POSTs `form` to `path` (create job by default), again while it answers 429 (one launch a second). */
export async function launchUntilAccepted(stack: TestStack, form: FormData, path = '/api/v1/jobs/', as: { headers?: Record<string, string> } = {}) {
  for (;;) {
    const r = await stack.call('POST', path, { ...as, raw: form });
    if (r.status !== 429) return r;
    await new Promise((res) => setTimeout(res, 300));
  }
}

/** Job `id` once its status is one of `statuses` (default: an end), within `timeoutMs`. */
export function jobReaching(stack: TestStack, id: string, opts: { statuses?: string[]; what?: string; timeoutMs?: number; as?: { headers?: Record<string, string> } } = {}) {
  const statuses = opts.statuses ?? ['COMPLETED', 'FAILED', 'STOPPED'];
  return eventually(async () => {
    const r = await stack.call('GET', `/api/v1/jobs/${id}`, opts.as ?? {});
    return statuses.includes(r.body.status) ? r.body : undefined;
  }, opts.what ?? `job ${id}`, opts.timeoutMs ?? 120_000);
}
