// OpenAI (or an OpenAI-compatible endpoint): Chat Completions with an inline PNG data URL.
// Env: OPENAI_API_KEY (required), OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_VLM_MODEL.
import { base64, httpError, type Env, type VlmClient } from './index';

export function openaiProvider(env: Env, model: string | undefined, fetchImpl: typeof fetch): VlmClient | undefined {
  const key = env.OPENAI_API_KEY;
  if (!key) return undefined;
  const baseUrl = (env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  const m = model ?? env.OPENAI_VLM_MODEL ?? 'gpt-4o';
  return {
    name: 'openai',
    model: m,
    async complete(png, prompt, signal) {
      const res = await fetchImpl(`${baseUrl}/chat/completions`, {
        method: 'POST',
        signal,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({
          model: m,
          temperature: 0,
          messages: [{
            role: 'user',
            content: [
              { type: 'text', text: prompt },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${base64(png)}` } },
            ],
          }],
        }),
      });
      if (!res.ok) throw await httpError(res, 'OpenAI');
      const json = (await res.json()) as { choices?: { message?: { content?: string } }[] };
      const text = json.choices?.[0]?.message?.content;
      if (typeof text !== 'string') throw new Error('OpenAI answer has no message content');
      return text;
    },
  };
}
