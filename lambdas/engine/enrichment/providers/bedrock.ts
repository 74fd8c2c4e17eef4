// Amazon Bedrock Converse through the official Bedrock runtime client (loaded lazily; the only AWS
// SDK import of this module, used as a model client, not as an AWS adapter of the service).
import { assertAllowedUrl } from '../../../net/outbound';
import { isRetryableStatus } from '../../embedding/runner';
import { RefusalError, type ErrorInfo, type ModelClient } from '../client';
import type { ModelConfig } from '../settings';

type BedrockModule = typeof import('@aws-sdk/client-bedrock-runtime');
let modulePromise: Promise<BedrockModule> | undefined;
const loadModule = () => (modulePromise ??= import('@aws-sdk/client-bedrock-runtime'));

const FORMATS: Record<string, 'png' | 'jpeg' | 'gif' | 'webp'> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };

function classify(err: unknown): ErrorInfo {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number }; $response?: { headers?: Record<string, string> } };
  const status = e?.$metadata?.httpStatusCode;
  const throttled = e?.name === 'ThrottlingException' || e?.name === 'ServiceUnavailableException' || e?.name === 'ModelNotReadyException';
  const after = e?.$response?.headers?.['retry-after'];
  return {
    status,
    retryable: throttled || (status !== undefined && isRetryableStatus(status)),
    ...(after && Number.isFinite(Number(after)) ? { retryAfterMs: Number(after) * 1000 } : {}),
    message: e?.name && e.name !== 'Error' ? `${e.name}: ${e.message ?? ''}` : (e?.message ?? String(err)),
  };
}

export function createBedrockClient(c: ModelConfig): ModelClient {
  let clientPromise: Promise<{ mod: BedrockModule; client: InstanceType<BedrockModule['BedrockRuntimeClient']> }> | undefined;
  const getClient = () =>
    (clientPromise ??= loadModule().then((mod) => ({
      mod,
      client: new mod.BedrockRuntimeClient({
        region: c.region ?? 'us-east-1',
        maxAttempts: 1,
        ...(c.baseUrl ? { endpoint: c.baseUrl } : {}),
        ...(c.accessKeyId && c.secretAccessKey
          ? { credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, ...(c.sessionToken ? { sessionToken: c.sessionToken } : {}) } }
          : {}),
      }),
    })));
  return {
    label: `bedrock/${c.model}`,
    classify,
    async complete(req) {
      // HTTP/2 sessions take no agent: a settings endpoint is checked under the outbound policy first
      if (c.baseUrl) await assertAllowedUrl(c.baseUrl);
      const { mod, client } = await getClient();
      const res = await client.send(
        new mod.ConverseCommand({
          modelId: c.model,
          system: [{ text: req.system }],
          inferenceConfig: { maxTokens: c.maxTokens },
          messages: [
            {
              role: 'user',
              content: [
                ...(req.image ? [{ image: { format: FORMATS[req.image.mimeType] ?? 'png', source: { bytes: Buffer.from(req.image.base64, 'base64') } } }] : []),
                { text: req.prompt },
              ],
            },
          ],
        }),
      );
      if (res.stopReason === 'content_filtered' || res.stopReason === 'guardrail_intervened') throw new RefusalError(`refused: ${res.stopReason}`);
      const text = res.output?.message?.content?.map((b) => b.text ?? '').join('');
      if (!text) throw new Error('answer has no text');
      return text;
    },
  };
}
