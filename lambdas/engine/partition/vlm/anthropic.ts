// Anthropic Messages API with a base64 PNG image block, through the official `@anthropic-ai/sdk`
// client (its retries off, as before: a failed page fails).
// Env: ANTHROPIC_API_KEY (required), ANTHROPIC_BASE_URL (default https://api.anthropic.com), ANTHROPIC_VLM_MODEL.
import Anthropic from '@anthropic-ai/sdk';
import { classifyAnthropicError } from '../../providers/anthropic-errors';
import { base64, callProvider, type VlmClient } from './client';
import type { Env } from './credentials';

export function anthropicProvider(key: string, env: Env, model: string | undefined, fetchImpl: typeof fetch): VlmClient {
  const m = model ?? env.ANTHROPIC_VLM_MODEL ?? 'claude-sonnet-4-6';
  // authToken null: an ANTHROPIC_AUTH_TOKEN in the process environment is not sent beside the key
  const client = new Anthropic({ apiKey: key, authToken: null, baseURL: env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com', maxRetries: 0, fetch: fetchImpl });
  return {
    name: 'anthropic',
    model: m,
    async complete(png, prompt, signal) {
      const res = await callProvider('Anthropic', classifyAnthropicError, () =>
        client.messages.create(
          {
            model: m,
            max_tokens: 8192,
            messages: [{
              role: 'user',
              content: [
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64(png) } },
                { type: 'text', text: prompt },
              ],
            }],
          },
          { signal },
        ),
      );
      const text = res.content?.filter((c) => c.type === 'text').map((c) => c.text).join('');
      if (!text) throw new Error('Anthropic answer has no text content');
      return text;
    },
  };
}
