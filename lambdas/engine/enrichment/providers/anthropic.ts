// Anthropic Messages through the official `@anthropic-ai/sdk` client (image as a base64 block).
// authToken null: the client would otherwise add the process's ANTHROPIC_AUTH_TOKEN as a bearer
// token, to whatever endpoint the node names.
import Anthropic from '@anthropic-ai/sdk';
import { guardedFetch } from '../../../net/outbound';
import { classifyAnthropicError } from '../../providers/anthropic-errors';
import { RefusalError, type ModelClient } from '../client';
import type { ModelConfig } from '../settings';

type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export function createAnthropicClient(c: ModelConfig): ModelClient {
  const client = new Anthropic({ apiKey: c.apiKey, authToken: null, baseURL: c.baseUrl, maxRetries: 0, timeout: c.timeoutMs, fetch: guardedFetch });
  return {
    label: `anthropic/${c.model}`,
    classify: classifyAnthropicError,
    async complete(req) {
      const res = await client.messages.create({
        model: c.model,
        max_tokens: c.maxTokens,
        system: req.system,
        messages: [
          {
            role: 'user',
            content: [
              ...(req.image ? [{ type: 'image' as const, source: { type: 'base64' as const, media_type: req.image.mimeType as ImageMime, data: req.image.base64 } }] : []),
              { type: 'text' as const, text: req.prompt },
            ],
          },
        ],
      });
      if (res.stop_reason === 'refusal') throw new RefusalError('refused by the model');
      const text = res.content?.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('');
      if (!text) throw new Error('answer has no text');
      return text;
    },
  };
}
