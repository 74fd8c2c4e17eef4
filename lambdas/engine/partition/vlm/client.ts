// What the three provider adapters (openai.ts, anthropic.ts, bedrock.ts) share, below index.ts which
// picks one: the client shape, the image encoding, and one call with its failure turned into the page's error.
import { policyReason } from '../../../net/outbound';
import type { ErrorInfo } from '../../embedding/runner';

/** What a provider adapter implements: one page image in, the model's raw text out. */
export interface VlmClient {
  name: string;
  model: string;
  complete(png: Uint8Array, prompt: string, signal?: AbortSignal): Promise<string>;
}

export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * One provider call, its failure turned into the page's error: a refusal of the outbound policy with
 * its reason, else the HTTP status and the provider's message as the client's classification reads them.
 */
export async function callProvider<T>(who: string, classify: (err: unknown) => ErrorInfo, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const refused = policyReason(err);
    if (refused) throw new Error(`${who} request refused: ${refused}`);
    const info = classify(err);
    throw new Error(info.status !== undefined ? `${who} returned HTTP ${info.status}: ${info.message}` : `${who} request failed: ${info.message}`);
  }
}
