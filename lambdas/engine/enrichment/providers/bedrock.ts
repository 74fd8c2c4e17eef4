// Amazon Bedrock Converse through the official Bedrock runtime client (loaded lazily; the only AWS
// SDK import of this module, used as a model client, not as an AWS adapter of the service).
import { bedrockSession, classifyBedrockError } from '../../providers/bedrock';
import { RefusalError, type ModelClient } from '../client';
import type { ModelConfig } from '../settings';

const FORMATS: Record<string, 'png' | 'jpeg' | 'gif' | 'webp'> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };

export function createBedrockClient(c: ModelConfig): ModelClient {
  const getClient = bedrockSession(c);
  return {
    label: `bedrock/${c.model}`,
    classify: classifyBedrockError,
    async complete(req) {
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
