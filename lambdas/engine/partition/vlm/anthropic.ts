// Anthropic Messages API with a base64 PNG image block.
// Env: ANTHROPIC_API_KEY (required), ANTHROPIC_BASE_URL (default https://api.anthropic.com), ANTHROPIC_VLM_MODEL.
import { base64, httpError, type Env, type VlmClient } from './index';

export function anthropicProvider(env: Env, model: string | undefined, fetchImpl: typeof fetch): VlmClient | undefined {
  const key = env.ANTHROPIC_API_KEY;
  if (!key) return undefined;
  const baseUrl = (env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com').replace(/\/+$/, '');
  const m = model ?? env.ANTHROPIC_VLM_MODEL ?? 'claude-sonnet-4-5';
  return {
    name: 'anthropic',
    model: m,
    async complete(png, prompt, signal) {
      const res = await fetchImpl(`${baseUrl}/v1/messages`, {
        method: 'POST',
        signal,
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({
          model: m,
          max_tokens: 8192,
          messages: [{
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64(png) } },
              { type: 'text', text: prompt },
            ],
          }],
        }),
      });
      if (!res.ok) throw await httpError(res, 'Anthropic');
      const json = (await res.json()) as { content?: { type: string; text?: string }[] };
      const text = json.content?.filter((c) => c.type === 'text').map((c) => c.text ?? '').join('');
      if (!text) throw new Error('Anthropic answer has no text content');
      return text;
    },
  };
}
