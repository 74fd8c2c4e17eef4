// Box source: the file-sharing source config of spec §2.1. remote_url must begin with box://,
// recursive defaults to true (required in the output shape), box_app_config / access_token /
// refresh_token are secrets (all optional; the spec overrides the SDK, which requires box_app_config).
// Check: with access_token, GET /2.0/users/me; with box_app_config (a Box JWT app config JSON), the
// JWT grant at the token endpoint and then /users/me. Without network this fails with the reason.
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { z } from 'zod';
import { defineConnector, type ConnectorConfig } from '../definition';
import { httpRequest } from '../net-check';
import { inputSchema, outputSchema, secretFieldNames, type FieldSpec } from '../schema';

const FIELDS: FieldSpec[] = [
  { name: 'box_app_config', type: 'string', required: false, requiredInResponse: false, secret: true },
  { name: 'access_token', type: 'string', required: false, requiredInResponse: false, secret: true },
  { name: 'refresh_token', type: 'string', required: false, requiredInResponse: false, secret: true },
  { name: 'remote_url', type: 'string', required: true, pattern: '^box:\\/\\/', requiredInResponse: false },
  { name: 'recursive', type: 'boolean', required: false, default: true, requiredInResponse: true },
];

export interface BoxConfig extends ConnectorConfig {
  box_app_config?: string | null;
  access_token?: string | null;
  refresh_token?: string | null;
  remote_url: string;
  recursive: boolean;
}

/** Box API base; BOX_API_URL overrides it (tests point it at a local stand-in). */
function boxApi(): string {
  return (process.env.BOX_API_URL ?? 'https://api.box.com').replace(/\/+$/, '');
}

const AppConfig = z.object({
  boxAppSettings: z.object({
    clientID: z.string(),
    clientSecret: z.string(),
    appAuth: z.object({ publicKeyID: z.string(), privateKey: z.string(), passphrase: z.string().optional() }),
  }),
  enterpriseID: z.union([z.string(), z.number()]),
});

function b64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

async function jwtAccessToken(appConfigText: string, signal: AbortSignal): Promise<string> {
  let parsed: z.infer<typeof AppConfig>;
  try {
    parsed = AppConfig.parse(JSON.parse(appConfigText));
  } catch {
    throw new Error('box_app_config is not a Box JWT app configuration (JSON with boxAppSettings.appAuth and enterpriseID)');
  }
  const { clientID, clientSecret, appAuth } = parsed.boxAppSettings;
  let key;
  try {
    key = createPrivateKey({ key: appAuth.privateKey, format: 'pem', ...(appAuth.passphrase ? { passphrase: appAuth.passphrase } : {}) });
  } catch {
    throw new Error('box_app_config private key cannot be read (wrong passphrase or format)');
  }
  const aud = `${boxApi()}/oauth2/token`;
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: appAuth.publicKeyID }));
  const claims = b64url(
    JSON.stringify({
      iss: clientID,
      sub: String(parsed.enterpriseID),
      box_sub_type: 'enterprise',
      aud,
      jti: randomUUID(),
      exp: Math.floor(Date.now() / 1000) + 45,
    }),
  );
  const assertion = `${header}.${claims}.${b64url(sign('sha256', Buffer.from(`${header}.${claims}`), key))}`;
  const res = await httpRequest(
    aud,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
        client_id: clientID,
        client_secret: clientSecret,
      }).toString(),
    },
    signal,
  );
  if (res.status !== 200) throw new Error(`Box refused the JWT grant (HTTP ${res.status}): ${res.body.slice(0, 200)}`);
  const token = (JSON.parse(res.body) as { access_token?: string }).access_token;
  if (!token) throw new Error('Box token response has no access_token');
  return token;
}

export const boxSource = defineConnector<BoxConfig>({
  kind: 'source',
  type: 'box',
  input: inputSchema(FIELDS) as unknown as z.ZodType<BoxConfig>,
  output: outputSchema(FIELDS),
  secretFields: secretFieldNames(FIELDS),
  async check(c, ctx) {
    let token = c.access_token ?? undefined;
    if (!token && c.box_app_config) token = await jwtAccessToken(c.box_app_config, ctx.signal);
    if (!token) throw new Error('no credentials: give access_token or box_app_config');
    const res = await httpRequest(`${boxApi()}/2.0/users/me`, { headers: { Authorization: `Bearer ${token}` } }, ctx.signal);
    if (res.status === 401) throw new Error('Box rejected the access token (HTTP 401)');
    if (res.status !== 200) throw new Error(`Box answered HTTP ${res.status}`);
  },
});
