// Amazon Bedrock Converse through the official Bedrock runtime client (the shared lazy session of
// lambdas/engine/providers/bedrock.ts: SDK retries off, an endpoint checked under the outbound policy).
// Env: AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN), AWS_REGION (default
// us-east-1), BEDROCK_VLM_MODEL (default an Anthropic Claude model id), BEDROCK_ENDPOINT (override).
// The keys count only with BEDROCK_ENDPOINT, BEDROCK_USE_DEFAULT_CREDENTIALS=true, or on a Lambda (./credentials.ts).
import { bedrockSession, classifyBedrockError } from '../../providers/bedrock';
import { callProvider, type VlmClient } from './client';
import type { Env } from './credentials';

/** `keys`: what ./credentials.ts bedrockKeys() accepts as Bedrock access. */
export function bedrockProvider(keys: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }, env: Env, model: string | undefined): VlmClient {
  const m = model ?? env.BEDROCK_VLM_MODEL ?? 'anthropic.claude-3-5-sonnet-20240620-v1:0';
  const session = bedrockSession({
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    baseUrl: env.BEDROCK_ENDPOINT,
    ...keys,
  });
  return {
    name: 'bedrock',
    model: m,
    async complete(png, prompt, signal) {
      const res = await callProvider('Bedrock', classifyBedrockError, async () => {
        const { mod, client } = await session();
        return client.send(
          new mod.ConverseCommand({
            modelId: m,
            messages: [{ role: 'user', content: [{ image: { format: 'png', source: { bytes: png } } }, { text: prompt }] }],
            inferenceConfig: { maxTokens: 8192, temperature: 0 },
          }),
          { abortSignal: signal },
        );
      });
      const text = res.output?.message?.content?.map((c) => c.text ?? '').join('');
      if (!text) throw new Error('Bedrock answer has no text content');
      return text;
    },
  };
}
