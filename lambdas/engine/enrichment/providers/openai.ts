// OpenAI chat completions through the official `openai` client (image as a data: URL). The client's
// own retries are off: the enrichment runner retries, honouring Retry-After.
import { OpenAI } from 'openai';
import { classifyOpenAIError } from '../../providers/openai-errors';
import { guardedFetch } from '../../../net/outbound';
import { RefusalError, type ModelClient } from '../client';
import type { ModelConfig } from '../settings';

export function createOpenAIClient(c: ModelConfig): ModelClient {
  const client = new OpenAI({ apiKey: c.apiKey, baseURL: c.baseUrl, maxRetries: 0, timeout: c.timeoutMs, fetch: guardedFetch });
  return {
    label: `openai/${c.model}`,
    classify: classifyOpenAIError,
    async complete(req) {
      const res = await client.chat.completions.create({
        model: c.model,
        max_tokens: c.maxTokens,
        messages: [
          { role: 'system', content: req.system },
          {
            role: 'user',
            content: [
              { type: 'text', text: req.prompt },
              ...(req.image ? [{ type: 'image_url' as const, image_url: { url: `data:${req.image.mimeType};base64,${req.image.base64}` } }] : []),
            ],
          },
        ],
      });
      const choice = res.choices?.[0];
      if (choice?.message?.refusal) throw new RefusalError(`refused: ${choice.message.refusal}`);
      if (choice?.finish_reason === 'content_filter') throw new RefusalError('refused: content filter');
      const text = choice?.message?.content;
      if (!text) throw new Error('answer has no text');
      return text;
    },
  };
}
