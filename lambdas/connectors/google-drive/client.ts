// Google Drive v3 through the official client (@googleapis/drive, on google-auth-library 9 and
// gaxios 6: the auth stack the gcs connector already runs under the outbound policy; 13+ moves to
// gaxios 7 and 26 needs Node 22).
//
// Auth, as the platform's connector: a service account key (JSON) signs a JWT that google-auth-
// library's JWT client exchanges at Google's token endpoint for an access token (scope
// drive.readonly), or a user's oauth_token is sent as it is. Key files and ambient credentials are
// never used (parseServiceAccountKey).
//
// Outbound policy: every request of the client and of the token exchange goes through one
// transporter, a gaxios instance whose agent is the guarded one (checked at connect). Endpoints:
// GOOGLE_DRIVE_API_ENDPOINT (default https://www.googleapis.com/) and GOOGLE_OAUTH_TOKEN_URL
// (default: the client's own token URL) are operator settings (tests point them at the stand-in);
// both are judged by the policy before use.
// Retries are ours (withRetry, Retry-After honoured), so the client's own are off (retry: false).
import { drive as driveApi, type drive_v3 } from '@googleapis/drive';
import { Gaxios, type GaxiosOptions } from 'gaxios';
import { JWT, OAuth2Client } from 'google-auth-library';
import { describeError } from '../definition';
import { parseServiceAccountKey } from '../gcs/client';
import { assertAllowedUrl, guardedAgents, policyReason } from '../../net/outbound';

export const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive.readonly';
/** The token URL gtoken (google-auth-library's JWT exchange) posts to; also the assertion's audience. */
const CLIENT_TOKEN_URL = 'https://www.googleapis.com/oauth2/v4/token';

export interface DriveAuthConfig {
  service_account_key?: string | Record<string, unknown> | null;
  oauth_token?: string | null;
}

export function driveEndpoint(): string {
  const u = process.env.GOOGLE_DRIVE_API_ENDPOINT || 'https://www.googleapis.com/';
  return u.endsWith('/') ? u : `${u}/`;
}

function tokenUrl(): string {
  return process.env.GOOGLE_OAUTH_TOKEN_URL || CLIENT_TOKEN_URL;
}

/** The one transporter of a client: guarded agents, the token URL setting applied. */
function transporter(): Gaxios {
  const { httpAgent, httpsAgent } = guardedAgents();
  const g = new Gaxios({ agent: (url: URL) => (url.protocol === 'http:' ? httpAgent : httpsAgent), timeout: 60_000, retry: false } as GaxiosOptions);
  const override = tokenUrl();
  g.interceptors.request.add({
    resolved: async (opts) => {
      if (override !== CLIENT_TOKEN_URL && String(opts.url) === CLIENT_TOKEN_URL) opts.url = override;
      return opts;
    },
  });
  return g;
}

export async function driveClient(c: DriveAuthConfig): Promise<drive_v3.Drive> {
  const hasKey = Boolean(c.service_account_key);
  if (hasKey === Boolean(c.oauth_token)) {
    throw new Error(hasKey ? 'cannot use both service account and oauth_token authentication' : 'either service_account_key or oauth_token must be set');
  }
  try {
    await assertAllowedUrl(driveEndpoint());
    if (hasKey) await assertAllowedUrl(tokenUrl());
  } catch (err) {
    throw driveReason('connect', err);
  }
  const t = transporter();
  let auth: JWT | OAuth2Client;
  if (hasKey && c.service_account_key && typeof c.service_account_key === 'object' && 'id' in c.service_account_key && !('private_key' in c.service_account_key)) {
    throw new Error('service_account_key is a secret reference, which this deployment does not resolve: give the JSON key of the service account');
  }
  if (hasKey) {
    const raw = typeof c.service_account_key === 'string' ? c.service_account_key : JSON.stringify(c.service_account_key);
    const key = parseServiceAccountKey(raw);
    auth = new JWT({ email: key.client_email, key: key.private_key, keyId: key.private_key_id, scopes: [DRIVE_SCOPE], transporter: t as never });
  } else {
    auth = new OAuth2Client({ transporter: t as never });
    auth.setCredentials({ access_token: c.oauth_token! });
  }
  return driveApi({ version: 'v3', auth, rootUrl: driveEndpoint(), retry: false }) as unknown as drive_v3.Drive;
}

/** The HTTP status of a client error. */
export function driveStatus(err: unknown): number | undefined {
  const e = err as { status?: unknown; code?: unknown; response?: { status?: unknown } };
  for (const v of [e?.response?.status, e?.status, e?.code]) if (typeof v === 'number' && v >= 100 && v < 600) return v;
  return undefined;
}

/** Google's own error text: the API's error.message, or the token endpoint's error_description. */
function googleText(err: unknown): string {
  const data = (err as { response?: { data?: unknown } })?.response?.data;
  let body: unknown = data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
    try {
      body = JSON.parse(Buffer.from(data as ArrayBuffer).toString('utf8'));
    } catch {
      body = undefined;
    }
  } else if (typeof data === 'string') {
    try {
      body = JSON.parse(data);
    } catch {
      body = data;
    }
  }
  const b = body as { error?: { message?: string } | string; error_description?: string } | undefined;
  if (b && typeof b.error === 'object' && b.error?.message) return b.error.message;
  if (b && typeof b.error === 'string') return b.error_description ? `${b.error}: ${b.error_description}` : b.error;
  return describeError(err).split('\n')[0]!;
}

/** A failure with Drive's text and status, never a credential. */
export function driveReason(op: string, err: unknown, what?: string): Error {
  const refused = policyReason(err);
  if (refused) return new Error(`Google Drive ${op} refused: ${refused}`);
  const status = driveStatus(err);
  const text = googleText(err).slice(0, 500);
  const subject = what ? ` ${what}` : '';
  if (status === 401 || /invalid_grant/.test(text)) return new Error(`Google Drive authentication failed (${op}${subject}: ${text}${status ? `, HTTP ${status}` : ''})`);
  if (status === 404) return new Error(`Google Drive${subject || ' file'} not found or not shared with the account (${op}: ${text})`);
  if (status === 403) return new Error(`Google Drive access denied (${op}${subject}: ${text}, HTTP 403)`);
  return new Error(`Google Drive ${op}${subject} failed: ${text}${status ? ` (HTTP ${status})` : ''}`);
}
