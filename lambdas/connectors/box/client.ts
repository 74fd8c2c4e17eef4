// The Box client of the `box` source: the official box-typescript-sdk-gen (BoxClient), authenticated
// as the platform's connector does (a bearer access_token, or box_app_config: the JWT app settings
// JSON of the Box Developer Console, enterprise subject), its network session on the guarded agents
// (lambdas/net/outbound.ts: names resolved and judged at connect time, CONNECTOR_CA_FILE trusted).
// The SDK's own retries are off (one attempt): calls go through withRetry (429/5xx with
// Retry-After, transient errors). The error answer is read from the response an interceptor keeps:
// the SDK's ESM build declares BoxApiError's fields as class fields, which erase the status,
// headers and body its base constructor assigned (1.19.1). The SDK reports a failed
// connection as a status-0 error without its cause, so the host is judged by the policy first for a
// readable refusal. BOX_API_URL (operator/test setting) points the API base at a stand-in.
import { createPrivateKey } from 'node:crypto';
import { z } from 'zod';
import { BoxClient, BoxDeveloperTokenAuth, BoxJwtAuth, JwtConfig } from 'box-typescript-sdk-gen';
import { BaseUrls } from 'box-typescript-sdk-gen/lib/networking/baseUrls.generated';
import { NetworkSession } from 'box-typescript-sdk-gen/lib/networking/network.generated';
import { BoxRetryStrategy } from 'box-typescript-sdk-gen/lib/networking/retries.generated';
import type { Interceptor } from 'box-typescript-sdk-gen/lib/networking/interceptors.generated';
import type { FetchResponse } from 'box-typescript-sdk-gen/lib/networking/fetchResponse.generated';
import { redact, sharedConnectorAgent } from '../agents';
import { describeError, type ConnectorConfig } from '../definition';
import { withRetry } from '../records/retry';
import { assertAllowedUrl, policyReason } from '../../net/outbound';

export interface BoxConfig extends ConnectorConfig {
  box_app_config?: string | null;
  access_token?: string | null;
  refresh_token?: string | null;
  remote_url: string;
  recursive: boolean;
}

/** Box API base; BOX_API_URL overrides it (tests point it at a local stand-in). */
export function boxApi(): string {
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

/** The SDK's JWT auth, after a readable judgement of the app config (the SDK's errors are not). */
function jwtAuth(text: string): BoxJwtAuth {
  let parsed: z.infer<typeof AppConfig>;
  try {
    parsed = AppConfig.parse(JSON.parse(text));
  } catch {
    throw new Error('box_app_config is not a Box JWT app configuration (JSON with boxAppSettings.appAuth and enterpriseID)');
  }
  const { appAuth } = parsed.boxAppSettings;
  try {
    createPrivateKey({ key: appAuth.privateKey, format: 'pem', ...(appAuth.passphrase ? { passphrase: appAuth.passphrase } : {}) });
  } catch {
    throw new Error('box_app_config private key cannot be read (wrong passphrase or format)');
  }
  // The SDK reads enterpriseID as a string.
  const normalized = JSON.stringify({ ...JSON.parse(text), enterpriseID: String(parsed.enterpriseID) });
  return new BoxJwtAuth({ config: JwtConfig.fromConfigJsonString(normalized) });
}

export interface BoxHandle {
  client: BoxClient;
  /** The last answer of the client (reset before every request; none after a failed connection). */
  last: { response?: FetchResponse };
}

export function boxClient(c: BoxConfig): BoxHandle {
  const auth = c.access_token ? new BoxDeveloperTokenAuth({ token: c.access_token }) : c.box_app_config ? jwtAuth(c.box_app_config) : undefined;
  if (!auth) throw new Error('no credentials: give access_token or box_app_config');
  const last: BoxHandle['last'] = {};
  const keep: Interceptor = {
    beforeRequest: (options) => {
      last.response = undefined;
      return options;
    },
    afterRequest: (response) => (last.response = response),
  };
  const networkSession = new NetworkSession({
    baseUrls: new BaseUrls({ baseUrl: boxApi() }),
    // node-fetch takes an agent per URL: the guarded agent of its protocol.
    agent: (url: URL) => sharedConnectorAgent(url.protocol),
    retryStrategy: new BoxRetryStrategy({ maxAttempts: 1, maxRetriesOnException: 0 }),
    interceptors: [keep],
  });
  return { client: new BoxClient({ auth, networkSession }), last };
}

/** A Box error answer: status and headers where retry.ts looks for them. */
class BoxAnswerError extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

/** Box's own text: the API's code and message, or the OAuth error of the token endpoint. */
function reason(op: string, c: BoxConfig, err: unknown): Error {
  const refused = policyReason(err);
  const secrets = [c.access_token, c.refresh_token, c.box_app_config];
  if (refused) return new Error(`box ${op} refused: ${refused}`);
  if (err instanceof BoxAnswerError) {
    const body = (err.body && typeof err.body === 'object' ? err.body : {}) as Record<string, unknown>;
    const text = body.error
      ? `${String(body.error)}${body.error_description ? `: ${String(body.error_description)}` : ''}`
      : [body.code, body.message].filter((x) => typeof x === 'string' && x).join(': ');
    // Box answers a bad token with an empty body and the reason in WWW-Authenticate.
    const challenge = /error_description="([^"]*)"/.exec(err.headers['www-authenticate'] ?? '')?.[1];
    const what = err.status === 401 ? 'Box rejected the access token' : `box ${op} failed`;
    return new Error(redact(`${what}: ${text || challenge || 'no detail'} (HTTP ${err.status})`, secrets));
  }
  if ((err as Error)?.name === 'BoxApiError') {
    return new Error(redact(`box ${op} failed: no answer from ${new URL(boxApi()).host} (connection failed)`, secrets));
  }
  return new Error(redact(`box ${op} failed: ${describeError(err)}`, secrets));
}

/** The JSON error body of a binary-format answer (a download), which the SDK leaves unread. */
async function bodyOf(answer: FetchResponse): Promise<unknown> {
  const stream = answer.content as unknown as AsyncIterable<Uint8Array> | undefined;
  if (!stream || typeof stream[Symbol.asyncIterator] !== 'function') return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(Buffer.from(chunk));
    if ((size += chunk.length) > 64 * 1024) break;
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** One SDK call under the policy, with retries, failing with Box's text. */
export async function boxCall<T>(op: string, c: BoxConfig, box: BoxHandle, fn: (client: BoxClient) => Promise<T>, signal?: AbortSignal, attempts = 5): Promise<T> {
  try {
    await assertAllowedUrl(boxApi());
    return await withRetry(
      async () => {
        try {
          return await fn(box.client);
        } catch (err) {
          const answer = box.last.response;
          if (answer && answer.status >= 300) throw new BoxAnswerError(answer.status, answer.headers ?? {}, answer.data ?? (await bodyOf(answer)));
          throw err;
        }
      },
      { signal, attempts },
    );
  } catch (err) {
    throw reason(op, c, err);
  }
}
