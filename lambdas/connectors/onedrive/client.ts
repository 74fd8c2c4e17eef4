// Microsoft Graph for the `onedrive` destination: @microsoft/microsoft-graph-client with an
// @azure/identity ClientSecretCredential (client credentials against `<authority_url>/<tenant>`, scope
// https://graph.microsoft.com/.default), as the platform's connector does with msal.
//
// Outbound policy: identity's HTTP (MSAL's token and OpenID-configuration calls ride on it) gets the
// guarded agent (with CONNECTOR_CA_FILE) through a pipeline policy; Graph calls go through the
// client's middleware chain ending in our fetch (undici, guarded lookup, the same CA bundle) instead
// of the global fetch, literal addresses judged first. The Graph base is GRAPH_API_ENDPOINT (tests
// point it at the stand-in), else https://graph.microsoft.com; a custom base is declared as a custom
// host so the client attaches the token to it. Instance discovery is off: the authority is the
// configured one (it is the tenant's choice, like the platform's), never looked up elsewhere.
import { createHash } from 'node:crypto';
import { get as httpsGet } from 'node:https';
import { ClientSecretCredential } from '@azure/identity';
import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import { AuthenticationHandler, Client, GraphError, type Context, type Middleware } from '@microsoft/microsoft-graph-client';
import { TokenCredentialAuthenticationProvider } from '@microsoft/microsoft-graph-client/authProviders/azureTokenCredentials/index.js';
import type { RefinementCtx } from 'zod';
import { Agent as UndiciAgent, fetch as undiciFetch } from 'undici';
import { connectorCa, sharedConnectorAgent } from '../agents';
import { describeError } from '../definition';
import { guardedLookup, literalUrlProblem, OutboundPolicyError, policyReason } from '../../net/outbound';
import { retryAfterMs, withRetry } from '../records/retry';
import type { UploadContext } from '../records/types';

export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
/** Graph's simple upload takes up to 4 MB; larger files go through an upload session. */
export const SIMPLE_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;
/** Upload-session slices must be multiples of 320 KiB (Graph docs); 10 × 320 KiB. */
export const SESSION_SLICE_BYTES = 10 * 320 * 1024;

/** What a Graph client needs: the app's client credentials at the tenant's authority. */
export interface GraphCredentials {
  authority_url: string;
  tenant: string;
  client_id: string;
  client_cred: string;
}

export interface OneDriveTarget extends GraphCredentials {
  user_pname: string;
  remote_url: string;
}

/** Config issues of the authority and tenant (every Graph connector type's schema refines with it). */
export function credentialIssues(c: Record<string, unknown>, ctx: RefinementCtx): void {
  if (typeof c.authority_url === 'string') {
    // MSAL only talks to an https authority; literal private addresses are refused up front.
    if (!/^https:\/\/[^/\s]+\/?$/i.test(c.authority_url)) ctx.addIssue({ code: 'custom', path: ['authority_url'], message: 'authority_url must be an https origin, e.g. https://login.microsoftonline.com' });
    else {
      const problem = literalUrlProblem(c.authority_url);
      if (problem) ctx.addIssue({ code: 'custom', path: ['authority_url'], message: problem });
    }
  }
  if (typeof c.tenant === 'string' && !/^[0-9A-Za-z.-]+$/.test(c.tenant)) ctx.addIssue({ code: 'custom', path: ['tenant'], message: 'tenant must be a directory id or domain (letters, digits, dots, dashes)' });
}

/** Redirects followed per Graph request (a /content download answers 302 to a pre-authenticated URL). */
const MAX_REDIRECTS = 5;

/** The folder path inside the drive: onedrive://Documents/out → Documents/out. */
export function folderOf(remoteUrl: string): string {
  const m = /^onedrive:\/\/(.*)$/.exec(remoteUrl);
  if (!m) throw new Error(`remote_url ${JSON.stringify(remoteUrl)} is not of the form onedrive://<folder path>`);
  const path = m[1]!.replace(/^\/+|\/+$/g, '');
  if (!path) throw new Error('remote_url names no folder (onedrive://<folder path>)');
  if (path.split('/').some((s) => !s || s === '.' || s === '..')) throw new Error(`remote_url has an invalid folder path ${JSON.stringify(path)}`);
  return path;
}

export function graphBase(): string {
  return (process.env.GRAPH_API_ENDPOINT || 'https://graph.microsoft.com').replace(/\/+$/, '');
}

/** `/users/<upn>/drive/root:/<path>:` with each segment encoded. */
export function itemPath(upn: string, path: string): string {
  return `/users/${encodeURIComponent(upn)}/drive/root:/${path.split('/').map(encodeURIComponent).join('/')}:`;
}

/** Every identity request on the guarded agent (identity takes no agent option; the pipeline carries one). */
const GUARDED_AGENT: PipelinePolicy = {
  name: 'guardedAgent',
  sendRequest: (request, next) => {
    request.agent = sharedConnectorAgent(new URL(request.url).protocol);
    return next(request);
  },
};

let dispatcher: { agent: UndiciAgent; ca: string } | undefined;
function graphDispatcher(): UndiciAgent {
  const ca = connectorCa();
  const key = ca ? ca[ca.length - 1]! : '';
  if (!dispatcher || dispatcher.ca !== key) dispatcher = { agent: new UndiciAgent({ keepAliveTimeout: 10_000, connect: { lookup: guardedLookup, ...(ca ? { ca } : {}) } }), ca: key };
  return dispatcher.agent;
}

/** The end of the Graph middleware chain: our fetch in place of the global one. */
class GuardedFetchHandler implements Middleware {
  constructor(private readonly signal?: AbortSignal) {}
  async execute(context: Context): Promise<void> {
    let url = typeof context.request === 'string' ? context.request : (context.request as Request).url;
    const signals = [AbortSignal.timeout(120_000), this.signal].filter((s): s is AbortSignal => Boolean(s));
    let options = { ...(context.options as RequestInit) };
    try {
      // Redirects are followed here, hop by hop, so every target is judged like the first: a
      // download's 302 to a literal private address is refused, and the bearer token never
      // leaves the origin it was issued for (Graph's download URLs are pre-authenticated).
      for (let hop = 0; ; hop++) {
        // Names are judged at connect time (guardedLookup); a literal address never reaches a lookup.
        const problem = literalUrlProblem(url);
        if (problem) throw new OutboundPolicyError(problem);
        const res = (await undiciFetch(url, { ...options, redirect: 'manual', signal: AbortSignal.any(signals), dispatcher: graphDispatcher() } as never)) as unknown as Response;
        const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
        if (!location || hop >= MAX_REDIRECTS) {
          context.response = res;
          return;
        }
        await res.body?.cancel();
        const next = new URL(location, url);
        if (next.origin !== new URL(url).origin) options = { ...options, headers: withoutAuthorization(options.headers) };
        if (res.status === 303) options = { ...options, method: 'GET', body: undefined };
        url = next.href;
      }
    } catch (err) {
      if (err instanceof OutboundPolicyError) throw err;
      // The client rebuilds errors from name and message only (GraphErrorHandler): carry the cause
      // there, the system code as the name (a GraphError's `code`, where retries look).
      const refused = policyReason(err);
      if (refused) throw new OutboundPolicyError(refused);
      const cause = ((err as { cause?: Error & { code?: string } }).cause ?? err) as Error & { code?: string };
      const e = new Error(`cannot reach ${new URL(url).host}: ${cause.message}`);
      if (cause.code) e.name = cause.code;
      throw e;
    }
  }
}

function withoutAuthorization(headers: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((v, k) => {
    if (k !== 'authorization') out[k] = v;
  });
  return out;
}

export interface GraphHandle {
  client: Client;
  credential: ClientSecretCredential;
}

function newCredential(c: GraphCredentials): ClientSecretCredential {
  return new ClientSecretCredential(c.tenant, c.client_id, c.client_cred, {
    authorityHost: c.authority_url,
    disableInstanceDiscovery: true,
    additionalPolicies: [{ policy: GUARDED_AGENT, position: 'perCall' }],
    retryOptions: { maxRetries: 1 },
  });
}

/**
 * Credentials kept per app (authority, tenant, client id, secret digest), so a run's many list and
 * read calls share MSAL's cached token instead of asking the authority once per document.
 */
const credentials = new Map<string, ClientSecretCredential>();
const CREDENTIALS_KEPT = 64;
function sharedCredential(c: GraphCredentials): ClientSecretCredential {
  const key = [c.authority_url, c.tenant, c.client_id, createHash('sha256').update(c.client_cred).digest('hex')].join('\n');
  let cred = credentials.get(key);
  if (!cred) {
    if (credentials.size >= CREDENTIALS_KEPT) credentials.delete(credentials.keys().next().value!);
    cred = newCredential(c);
  } else credentials.delete(key);
  credentials.set(key, cred);
  return cred;
}

/** A Graph client; `fresh` for checks, which must prove the credentials now, not a cached token. */
export function graphClient(c: GraphCredentials, signal?: AbortSignal, opts: { fresh?: boolean } = {}): GraphHandle {
  const credential = opts.fresh ? newCredential(c) : sharedCredential(c);
  const auth = new AuthenticationHandler(new TokenCredentialAuthenticationProvider(credential, { scopes: [GRAPH_SCOPE] }));
  auth.setNext(new GuardedFetchHandler(signal));
  const base = graphBase();
  const client = Client.initWithMiddleware({
    middleware: auth,
    baseUrl: `${base}/`,
    defaultVersion: 'v1.0',
    customHosts: new Set([new URL(base).hostname]),
  });
  return { client, credential };
}

/** Status of a Graph or identity error. */
function statusOf(err: unknown): number | undefined {
  const e = err as { statusCode?: unknown; status?: unknown };
  const s = e?.statusCode ?? e?.status;
  return typeof s === 'number' && s >= 100 && s < 600 ? s : undefined;
}

/** Graph errors keep the response headers (Retry-After) where retry.ts looks. */
function normalize(err: unknown): unknown {
  if (err instanceof GraphError) {
    const headers: Record<string, string> = {};
    err.headers?.forEach((v, k) => (headers[k] = v));
    return Object.assign(err, { status: err.statusCode, response: { status: err.statusCode, headers } });
  }
  return err;
}

/** A failure reason with the store's own text (Graph's error code and message, identity's AADSTS text), never the secret. */
export function graphReason(op: string, c: GraphCredentials, err: unknown): Error {
  const refused = policyReason(err) ?? ((err as GraphError)?.code === 'OutboundPolicyError' ? (err as Error).message : undefined);
  if (refused) return new Error(`${op} refused: ${refused}`);
  const e = err as { name?: string; code?: string; message?: string; errorResponse?: { error?: string; errorDescription?: string } };
  if (e?.name === 'AuthenticationRequiredError' || e?.name === 'CredentialUnavailableError' || e?.name === 'AuthenticationError') {
    const first = String(e.errorResponse?.errorDescription ?? e.message ?? '').split('\n').find((l) => l.trim() && !/^(ClientSecretCredential|AggregateAuthenticationError)/.test(l)) ?? e.message ?? '';
    const code = e.errorResponse?.error;
    return new Error(`token request to ${c.authority_url.replace(/\/+$/, '')}/${c.tenant} failed: ${code ? `${code}: ` : ''}${first.trim()}`.replaceAll(c.client_cred, '**********'));
  }
  const status = statusOf(err);
  const text = `${err instanceof GraphError && e.code ? `${e.code}: ` : ''}${(e?.message || describeError(err)).split('\n')[0]}`.replaceAll(c.client_cred, '**********');
  return new Error(`${op} failed: ${text}${status ? ` (HTTP ${status})` : ''}`);
}

/** One Graph call with retries on 429/5xx/transient errors, Retry-After honoured. */
export function graphCall<T>(op: string, c: GraphCredentials, fn: () => Promise<T>, ctx: UploadContext = {}, attempts = 5): Promise<T> {
  return withRetry(
    async () => {
      try {
        return await fn();
      } catch (err) {
        throw normalize(err);
      }
    },
    { signal: ctx.signal, attempts, onRetry: (err, attempt, delayMs) => ctx.log?.('onedrive call retried', { op, attempt, delayMs, status: statusOf(err), retryAfterMs: retryAfterMs(err) }) },
  ).catch(async (err) => {
    // MSAL reports any failure to read the authority's OpenID configuration (refused connection,
    // unknown tenant) as endpoints_resolution_error and keeps the cause: ask the authority ourselves.
    if (/endpoints_resolution_error/.test(String((err as Error)?.message))) throw await authorityReason(c);
    throw graphReason(op, c, err);
  });
}

/** What the authority answers for the tenant's OpenID configuration, through the guarded agent. */
async function authorityReason(c: GraphCredentials): Promise<Error> {
  const authority = `${c.authority_url.replace(/\/+$/, '')}/${c.tenant}`;
  const url = `${authority}/v2.0/.well-known/openid-configuration`;
  const answer = await new Promise<string>((resolve) => {
    const req = httpsGet(url, { agent: sharedConnectorAgent('https:'), timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body = (body + d).slice(0, 2000)));
      res.on('end', () => {
        let text = body;
        try {
          const j = JSON.parse(body) as { error?: string; error_description?: string };
          text = j.error_description ? `${j.error ? `${j.error}: ` : ''}${j.error_description.split('\n')[0]}` : body;
        } catch {
          // not JSON: the raw text
        }
        resolve(res.statusCode === 200 ? 'the OpenID configuration was readable but MSAL refused it' : `HTTP ${res.statusCode}: ${text.slice(0, 500)}`);
      });
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err) => resolve(policyReason(err) ? `refused: ${policyReason(err)}` : describeError(err)));
  });
  return new Error(`token request to ${authority} failed: OpenID configuration not readable (${answer})`);
}
