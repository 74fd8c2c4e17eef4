// Google Cloud Storage through the official client (@google-cloud/storage), for the `gcs` file
// destination: remote_url gs://<bucket>/<prefix> (or gcs://), service_account_key = the JSON key of
// a service account. The platform (gcsfs) also takes 'google_default', 'cloud', 'cache', 'browser' or
// a key file path: those mean the machine's own credentials or files, which a tenant must never get,
// so only a key given inline is accepted (an 'anon' public bucket is not writable anyway).
//
// Auth: the key signs a self-signed JWT carrying the devstorage scope (google-auth-library's
// JWTAccess, `useJWTAccessWithScope`, what Google's own Go storage client does), sent as the bearer
// token: no OAuth token exchange round-trip, and a stand-in can verify the signature with the key's
// public half. The client keeps its auth on a custom endpoint (`useAuthWithCustomEndpoint`).
//
// Outbound policy: the client speaks HTTP through two stacks. gaxios (resumable uploads, auth) takes
// the guarded agents through the JWT client's transporter options. teeny-request (every other call:
// multipart uploads, metadata) takes no agent option; it keeps its keep-alive agents in an exported
// pool keyed 'http:forever'/'https:forever' (the client always asks for `forever`), filled once on
// first use: the guarded agents are put there before any client exists. Endpoint: GCS_API_ENDPOINT
// (tests point it at the stand-in), else https://storage.googleapis.com.
import { Storage, type Bucket } from '@google-cloud/storage';
import { JWT } from 'google-auth-library';
import type { z } from 'zod';
// The module the client's teeny-request draws agents from (one hoisted copy, pinned in package.json).
import * as teenyAgents from 'teeny-request/build/src/agents.js';
import { describeError, joinKey } from '../definition';
import { assertAllowedUrl, guardedAgents, policyReason } from '../../net/outbound';
import { withRetry } from '../records/retry';
import type { UploadContext } from '../records/types';

export const GCS_SCOPE = 'https://www.googleapis.com/auth/devstorage.read_write';
/** Below this size one multipart request; above it a resumable session (gcsfs switches at 5 MiB too). */
export const RESUMABLE_ABOVE_BYTES = 5 * 1024 * 1024;

export interface GcsTarget {
  remote_url: string;
  service_account_key: string;
}

export interface GcsLocation {
  bucket: string;
  /** '' or ending in '/'. */
  prefix: string;
}

export function parseGcsUrl(url: string): GcsLocation {
  const m = /^(?:gs|gcs):\/\/([^/]+)\/?(.*)$/.exec(url);
  if (!m) throw new Error(`remote_url ${JSON.stringify(url)} is not of the form gs://bucket/prefix`);
  const bucket = m[1]!;
  // Bucket names: 3-63 (222 with dots) lowercase letters, digits, '-', '_', '.'.
  if (!/^[a-z0-9][a-z0-9._-]{1,221}[a-z0-9]$/.test(bucket)) throw new Error(`remote_url names an invalid bucket ${JSON.stringify(bucket)}`);
  let prefix = m[2] ?? '';
  if (prefix && !prefix.endsWith('/')) prefix += '/';
  return { bucket, prefix };
}

/**
 * The derived input schema refined as source and destination both need it: a gs:// or gcs:// url
 * parseGcsUrl accepts. The key itself is judged at check and write time: a validation item would
 * echo it as `input`.
 */
export function gcsInput<C>(base: z.ZodTypeAny): z.ZodType<C> {
  return (base as z.ZodType<Record<string, unknown>>).superRefine((c, ctx) => {
    if (typeof c.remote_url === 'string' && /^(gs|gcs):\/\//.test(c.remote_url)) {
      try {
        parseGcsUrl(c.remote_url);
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['remote_url'], message: describeError(err) });
      }
    }
  }) as unknown as z.ZodType<C>;
}

export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  project_id?: string;
}

/** The service account key, or an Error that quotes nothing of it. */
export function parseServiceAccountKey(raw: string): ServiceAccountKey {
  let key: Record<string, unknown>;
  try {
    key = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    throw new Error('service_account_key is not JSON: give the JSON key of a service account (type "service_account")');
  }
  if (!key || typeof key !== 'object' || key.type !== 'service_account') {
    throw new Error('service_account_key is not a service account key (its "type" must be "service_account"); ambient credentials and key files are not accepted');
  }
  if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string' || !key.private_key.includes('PRIVATE KEY')) {
    throw new Error('service_account_key lacks client_email or a PEM private_key');
  }
  return key as unknown as ServiceAccountKey;
}

let pooled = false;
/** Puts the guarded agents in the pool teeny-request draws from (test/security/gcs-outbound proves it is the client's). */
function guardTeenyRequest(): void {
  if (pooled) return;
  const pool = teenyAgents.pool as Map<string, unknown>;
  const { httpAgent, httpsAgent } = guardedAgents();
  pool.set('http:forever', httpAgent);
  pool.set('https:forever', httpsAgent);
  pool.set('http', httpAgent);
  pool.set('https', httpsAgent);
  pooled = true;
}

export function gcsEndpoint(): string {
  return (process.env.GCS_API_ENDPOINT || 'https://storage.googleapis.com').replace(/\/+$/, '');
}

export interface GcsHandle {
  bucket: Bucket;
  loc: GcsLocation;
}

export async function gcsBucketFor(c: GcsTarget): Promise<GcsHandle> {
  const loc = parseGcsUrl(c.remote_url);
  const key = parseServiceAccountKey(c.service_account_key);
  const endpoint = gcsEndpoint();
  try {
    await assertAllowedUrl(endpoint);
  } catch (err) {
    throw gcsReason('connect', loc.bucket, err);
  }
  guardTeenyRequest();
  const { httpAgent, httpsAgent } = guardedAgents();
  const auth = new JWT({
    email: key.client_email,
    key: key.private_key,
    keyId: key.private_key_id,
    scopes: [GCS_SCOPE],
    transporterOptions: { agent: (url: URL) => (url.protocol === 'http:' ? httpAgent : httpsAgent) },
  });
  auth.useJWTAccessWithScope = true;
  const storage = new Storage({
    apiEndpoint: endpoint,
    authClient: auth,
    useAuthWithCustomEndpoint: true,
    projectId: key.project_id,
    // Retries are ours (withRetry: 429/5xx/transient, Retry-After honoured), never nested in the client's.
    retryOptions: { autoRetry: false, maxRetries: 0 },
    timeout: 60_000,
  });
  return { bucket: storage.bucket(loc.bucket), loc };
}

function statusOfGcs(err: unknown): number | undefined {
  const e = err as { code?: unknown; status?: unknown; response?: { status?: unknown } };
  for (const v of [e?.code, e?.status, e?.response?.status]) if (typeof v === 'number' && v >= 100 && v < 600) return v;
  return undefined;
}

/** A failure reason with the store's own text and status, never the key. */
export function gcsReason(op: string, bucket: string, err: unknown): Error {
  const refused = policyReason(err);
  if (refused) return new Error(`${op} on bucket ${JSON.stringify(bucket)} refused: ${refused}`);
  const status = statusOfGcs(err);
  const e = err as { errors?: { message?: string }[]; message?: string };
  const text = (e?.errors?.map((x) => x?.message).filter(Boolean).join('; ') || describeError(err)).split('\n')[0]!.slice(0, 500);
  if (status === 404) return new Error(`bucket ${JSON.stringify(bucket)} does not exist or is not visible to the service account (${op}: ${text})`);
  if (status === 401 || status === 403) return new Error(`access to bucket ${JSON.stringify(bucket)} denied (${op}: ${text}, HTTP ${status})`);
  return new Error(`${op} on bucket ${JSON.stringify(bucket)} failed: ${text}${status ? ` (HTTP ${status})` : ''}`);
}

function withAbort<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Writes one object at `<prefix><key>` (same key, same object: a rewrite replaces it). Small bodies
 * go as one multipart request, large ones through a resumable session, as the client does them.
 */
export async function putObject(c: GcsTarget, key: string, data: Uint8Array, ctx: UploadContext = {}): Promise<string> {
  const { signal } = ctx;
  const { bucket, loc } = await gcsBucketFor(c);
  const name = joinKey(loc.prefix, key);
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const file = bucket.file(name);
  const contentType = 'application/json';
  try {
    await withRetry(async () => {
      if (body.byteLength <= RESUMABLE_ABOVE_BYTES) {
        return withAbort(file.save(body, { resumable: false, contentType, validation: 'crc32c' }), signal);
      }
      // The session is opened first (an authenticated POST): save() alone would open it without
      // credentials on a custom endpoint (7.22 does not pass useAuthWithCustomEndpoint to it). The
      // session URI then authenticates its PUTs, as GCS documents.
      const [uri] = await withAbort(file.createResumableUpload({ metadata: { contentType } }), signal);
      return withAbort(file.save(body, { resumable: true, uri, contentType, validation: 'crc32c' }), signal);
    }, { signal, attempts: 5, onRetry: (err, attempt, delayMs) => ctx.log?.('gcs upload retried', { attempt, delayMs, status: statusOfGcs(err) }) });
  } catch (err) {
    throw gcsReason('upload', loc.bucket, err);
  }
  return name;
}
