// The console's only way to the service: its public REST API, relative to the page (works under an
// API Gateway stage path). The API key lives in memory and in sessionStorage (this tab's session
// only: never in a URL, never in localStorage). Every failure becomes an ApiError carrying the
// API's `detail` (a string, or the 422 list of {loc, msg, type}).

const KEY_SLOT = 'wps-console-key';

export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationItem[],
  ) {
    super(typeof detail === 'string' ? detail : detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '));
  }
  /** The 422 items naming `field` (the last part of their loc). */
  about(field: string): string[] {
    return Array.isArray(this.detail) ? this.detail.filter((d) => d.loc[d.loc.length - 1] === field).map((d) => d.msg) : [];
  }
}

let apiKey: string | undefined = sessionStorage.getItem(KEY_SLOT) ?? undefined;
const signedOutListeners = new Set<(reason: string) => void>();

/** The service's root, from the page's own URL (…/console → …/). */
export const apiBase = new URL('.', window.location.href);

export function setKey(key: string | undefined): void {
  apiKey = key;
  if (key) sessionStorage.setItem(KEY_SLOT, key);
  else sessionStorage.removeItem(KEY_SLOT);
}
export const hasKey = () => apiKey !== undefined;

/** Called with the reason when the API refuses the key (expired, revoked, wrong). */
export function onSignedOut(fn: (reason: string) => void): () => void {
  signedOutListeners.add(fn);
  return () => signedOutListeners.delete(fn);
}

async function detailOf(res: Response): Promise<string | ValidationItem[]> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { detail?: unknown; message?: unknown };
    if (Array.isArray(body.detail)) return body.detail as ValidationItem[];
    if (typeof body.detail === 'string') return body.detail;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 500) || `${res.status} ${res.statusText}`;
}

export interface CallOptions {
  method?: string;
  json?: unknown;
  form?: FormData;
  query?: Record<string, string | number | boolean | undefined>;
  /** Answer as a Response (downloads), not parsed. */
  raw?: boolean;
  signal?: AbortSignal;
}

export async function call<T = unknown>(path: string, opts: CallOptions = {}): Promise<T> {
  const url = new URL(path.replace(/^\//, ''), apiBase);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (apiKey) headers['unstructured-api-key'] = apiKey;
  let body: BodyInit | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) body = opts.form;
  let res: Response;
  try {
    res = await fetch(url, { method: opts.method ?? 'GET', headers, body, signal: opts.signal, credentials: 'omit' });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, `The service did not answer: ${(err as Error).message}`);
  }
  if (!res.ok) {
    const detail = await detailOf(res);
    const error = new ApiError(res.status, detail);
    if (res.status === 401) for (const fn of signedOutListeners) fn(error.message);
    throw error;
  }
  if (opts.raw) return res as unknown as T;
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Whether the service asks for a key: a cheap authenticated read without one. */
export async function needsKey(): Promise<boolean> {
  const res = await fetch(new URL('api/v1/templates/', apiBase), { headers: { accept: 'application/json' }, credentials: 'omit' });
  return res.status === 401;
}
