// OpenAI (or an OpenAI-compatible endpoint): Chat Completions with an inline PNG data URL, through
// the official `openai` client (its retries off, as before: a failed page fails).
// Env: OPENAI_API_KEY (required), OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_VLM_MODEL.
import { OpenAI } from 'openai';
import { classifyOpenAIError } from '../../providers/openai-errors';
import { base64, callProvider, type VlmClient } from './client';
import type { Env } from './credentials';

export function openaiProvider(key: string, env: Env, model: string | undefined, fetchImpl: typeof fetch): VlmClient {
  const m = model ?? env.OPENAI_VLM_MODEL ?? 'gpt-4o';
  const client = new OpenAI({ apiKey: key, baseURL: env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1', organization: null, project: null, maxRetries: 0, fetch: fetchImpl });
  return {
    name: 'openai',
    model: m,
    async complete(png, prompt, signal) {
      const res = await callProvider('OpenAI', classifyOpenAIError, () =>
        client.chat.completions.create(
          {
            model: m,
            temperature: 0,
            messages: [{
              role: 'user',
              content: [
                { type: 'text', text: prompt },
                { type: 'image_url', image_url: { url: `data:image/png;base64,${base64(png)}` } },
              ],
            }],
          },
          { signal },
        ),
      );
      const text = res.choices?.[0]?.message?.content;
      if (typeof text !== 'string') throw new Error('OpenAI answer has no message content');
      return text;
    },
  };
}
