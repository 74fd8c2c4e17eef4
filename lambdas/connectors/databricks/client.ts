// Databricks workspace REST calls as the Databricks SDK makes them for the platform's volumes
// connector: OAuth machine-to-machine (client credentials of a service principal) at
// `<host>/oidc/v1/token`, scope all-apis, then Bearer calls to the REST API (SCIM Me, Files API).
// HTTPS only (a secret is in every call; CONNECTOR_CA_FILE trusts a private or test CA), over the
// outbound policy's fetch (records/http.ts), with retries on 429 (Retry-After honoured)
// and 5xx. Errors carry Databricks' error_code and message, never the secret or the token.
import { createHash } from 'node:crypto';
import { outboundFetch, storeCall } from '../records/http';
import { redact } from '../agents';
import { clearTextProblem } from '../secure-transport';

export interface DatabricksAuth {
  host: string;
  client_id?: string;
  client_secret?: string;
  /** A personal access token: used as the Bearer token as it is (instead of OAuth M2M). */
  token?: string;
}

/**
 * The workspace URL: https:// added when the host has no scheme (the platform's field is a bare host
 * or URL). Every call carries a client secret or token, so http:// is refused (secure-transport.ts).
 */
export function workspaceUrl(host: string, field = 'host'): URL {
  const withScheme = /^[a-z]+:\/\//i.test(host) ? host : `https://${host}`;
  const url = new URL(withScheme);
  const clear = clearTextProblem(url.href, field, 'client secret or token');
  if (clear) throw new Error(clear);
  if (url.protocol !== 'https:') throw new Error(`${field} scheme ${url.protocol} is not supported: use https://`);
  url.pathname = '/';
  url.search = '';
  return url;
}

const tokens = new Map<string, { token: string; expiresAt: number }>();

export class DatabricksClient {
  private readonly base: URL;
  private readonly fetch: typeof globalThis.fetch;

  constructor(
    private readonly auth: DatabricksAuth,
    private readonly signal?: AbortSignal,
  ) {
    this.base = workspaceUrl(auth.host);
    this.fetch = outboundFetch({ store: 'Databricks', signal });
  }

  private clean(msg: string): string {
    return redact(msg, [this.auth.client_secret, this.auth.token, ...[...tokens.values()].map((t) => t.token)]);
  }

  private async failure(res: Response, what: string): Promise<Error> {
    const text = await res.text().catch(() => '');
    let detail = text.slice(0, 500);
    try {
      const j = JSON.parse(text) as { error_code?: string; message?: string; error?: string; error_description?: string };
      detail = [j.error_code ?? j.error, j.message ?? j.error_description].filter(Boolean).join(': ') || detail;
    } catch {
      // not JSON: the text as it is
    }
    return Object.assign(new Error(this.clean(`${what}: Databricks answered HTTP ${res.status}${detail ? ` ${detail}` : ''}`)), { httpStatus: res.status });
  }

  /** An OAuth access token for the service principal (cached until a minute before it expires). */
  async token(): Promise<string> {
    if (this.auth.token) return this.auth.token;
    if (!this.auth.client_id || !this.auth.client_secret) throw new Error('no credentials: give token, or client_id and client_secret');
    const key = createHash('sha256').update(`${this.base.href}\0${this.auth.client_id}\0${this.auth.client_secret}`).digest('hex');
    const cached = tokens.get(key);
    if (cached && cached.expiresAt > Date.now() + 60_000) return cached.token;
    const res = await storeCall(
      () =>
        this.fetch(new URL('oidc/v1/token', this.base).href, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`${this.auth.client_id}:${this.auth.client_secret}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'grant_type=client_credentials&scope=all-apis',
        }),
      { signal: this.signal },
    ).catch((err: unknown) => {
      throw new Error(this.clean(`OAuth token request failed: ${(err as Error).message}`));
    });
    if (!res.ok) throw await this.failure(res, 'OAuth token request failed (client_id/client_secret of a service principal)');
    const body = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new Error('OAuth token request failed: no access_token in the answer');
    tokens.set(key, { token: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 });
    return body.access_token;
  }

  /** One REST call with the bearer token; 429/5xx retried. Non-2xx answers throw with Databricks' text (a HEAD's 404 is returned). */
  async call(method: string, path: string, what: string, body?: Uint8Array, query = ''): Promise<Response> {
    const token = await this.token();
    const url = new URL(path.replace(/^\//, ''), this.base).href + query;
    const res = await storeCall(
      () =>
        this.fetch(url, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/octet-stream' } : {}) },
          body,
        }),
      { signal: this.signal },
    ).catch((err: unknown) => {
      throw new Error(this.clean(`${what}: ${(err as Error).message}`));
    });
    if (!res.ok && !(method === 'HEAD' && res.status === 404)) throw await this.failure(res, what);
    return res;
  }
}
