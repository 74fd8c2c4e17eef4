// The Bedrock runtime client shared by the embedding and enrichment providers (the only AWS SDK
// import under lambdas/engine, used as a model client, not as an AWS adapter of the service): loaded
// lazily so nothing else pays for it, SDK retries off (the callers' runners retry, honouring
// Retry-After), and its errors classified once.
import { assertAllowedUrl, guardedHttp2ConnectOptions } from '../../net/outbound';
import { parseRetryAfter } from '../../retry';
import { isRetryableStatus, type ErrorInfo } from '../embedding/runner';

export type BedrockModule = typeof import('@aws-sdk/client-bedrock-runtime');
let modulePromise: Promise<BedrockModule> | undefined;
const loadModule = () => (modulePromise ??= import('@aws-sdk/client-bedrock-runtime'));

export interface BedrockTarget {
  region?: string;
  baseUrl?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
}

export type BedrockSession = { mod: BedrockModule; client: InstanceType<BedrockModule['BedrockRuntimeClient']> };

/**
 * A getter of the module and one client for `c`, created on first use. The client speaks HTTP/2,
 * whose sessions take no agent. An endpoint from node settings or the environment is under the
 * outbound policy: the sessions' sockets come from its http2 connect options, so every connection
 * resolves through the policy's lookup (a name that answers differently at connect time than at an
 * earlier check is still refused), and it is checked before each call for an early, readable reason.
 * AWS's own endpoint (none given) is not a tenant's choice and may resolve privately (VPC endpoints).
 */
export function bedrockSession(c: BedrockTarget): () => Promise<BedrockSession> {
  let session: Promise<BedrockSession> | undefined;
  return async () => {
    if (c.baseUrl) await assertAllowedUrl(c.baseUrl);
    return (session ??= loadModule().then((mod) => ({
      mod,
      client: new mod.BedrockRuntimeClient({
        region: c.region ?? 'us-east-1',
        maxAttempts: 1,
        // The SDK's own handler options for this client (one stream per session), sockets guarded.
        ...(c.baseUrl ? { endpoint: c.baseUrl, requestHandler: { disableConcurrentStreams: true, nodeHttp2ConnectOptions: guardedHttp2ConnectOptions } } : {}),
        ...(c.accessKeyId && c.secretAccessKey
          ? { credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, ...(c.sessionToken ? { sessionToken: c.sessionToken } : {}) } }
          : {}),
      }),
    })));
  };
}

/** Throttling and 5xx are retryable; a Retry-After header is honoured. */
export function classifyBedrockError(err: unknown): ErrorInfo {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number }; $retryable?: unknown; $response?: { headers?: Record<string, string> } };
  const status = e?.$metadata?.httpStatusCode;
  const throttled = e?.name === 'ThrottlingException' || e?.name === 'ServiceUnavailableException' || e?.name === 'ModelNotReadyException';
  const after = parseRetryAfter(e?.$response?.headers);
  return {
    status,
    retryable: throttled || (status !== undefined ? isRetryableStatus(status) : e?.$retryable !== undefined),
    ...(after !== undefined ? { retryAfterMs: after } : {}),
    message: e?.name && e.name !== 'Error' ? `${e.name}: ${e.message ?? ''}` : (e?.message ?? String(err)),
  };
}
