// Vertex AI generateContent through Google's official `@google/genai` client (vertexai: true):
// express mode with an API key, or a project with application default credentials. The client
// calls the global fetch and takes no fetch of its own, so each call runs inside
// withGuardedGlobalFetch: every connection it opens (to a settings endpoint, or to the host the
// location names) resolves through the outbound policy's lookup. A settings endpoint is also checked
// before each call, for an early, readable reason. Its errors carry the status but not the headers:
// retries back off without Retry-After.
import { ApiError, GoogleGenAI } from '@google/genai';
import { withGuardedGlobalFetch } from '../../../net/global-fetch-guard';
import { assertAllowedUrl } from '../../../net/outbound';
import { isRetryableStatus } from '../../embedding/runner';
import { RefusalError, type ErrorInfo, type ModelClient } from '../client';
import type { ModelConfig } from '../settings';

function classify(err: unknown): ErrorInfo {
  if (err instanceof ApiError) return { status: err.status, retryable: isRetryableStatus(err.status), message: err.message.slice(0, 500) };
  return { retryable: false, message: err instanceof Error ? err.message : String(err) };
}

const REFUSED = new Set(['SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'RECITATION', 'IMAGE_SAFETY']);

export function createVertexClient(c: ModelConfig): ModelClient {
  const ai = new GoogleGenAI({
    vertexai: true,
    ...(c.apiKey ? { apiKey: c.apiKey } : { project: c.project, location: c.location }),
    httpOptions: { timeout: c.timeoutMs, ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}) },
  });
  return {
    label: `vertexai/${c.model}`,
    classify,
    async complete(req) {
      if (c.baseUrl) await assertAllowedUrl(c.baseUrl);
      const res = await withGuardedGlobalFetch(() =>
        ai.models.generateContent({
          model: c.model,
          contents: [{ role: 'user', parts: [...(req.image ? [{ inlineData: { mimeType: req.image.mimeType, data: req.image.base64 } }] : []), { text: req.prompt }] }],
          config: { systemInstruction: req.system, maxOutputTokens: c.maxTokens },
        }),
      );
      const blocked = res.promptFeedback?.blockReason;
      if (blocked) throw new RefusalError(`refused: ${blocked}`);
      const cand = res.candidates?.[0];
      if (cand?.finishReason && REFUSED.has(String(cand.finishReason))) throw new RefusalError(`refused: ${cand.finishReason}`);
      const text = cand?.content?.parts?.map((p) => p.text ?? '').join('');
      if (!text) throw new Error('answer has no text');
      return text;
    },
  };
}
