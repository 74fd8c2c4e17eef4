// A bounded HTTP request for connection checks of hosted services we do not drive through an SDK.
//
// Checks reach hosts that tenants name, so the request goes through the outbound policy (lambdas/net/outbound.ts):
// the host is checked early for a readable reason, and again on the address really connected to.
import { assertAllowedUrl, guardedFetch, policyReason } from '../net/outbound';
import { describeError } from './definition';

export interface HttpResult {
  status: number;
  body: string;
}

/** A bounded fetch that turns network failures into readable reasons. */
export async function httpRequest(url: string, init: RequestInit, signal: AbortSignal): Promise<HttpResult> {
  await assertAllowedUrl(url);
  let res: Response;
  try {
    res = await guardedFetch(url, { ...init, signal, redirect: 'manual' });
  } catch (err) {
    const host = safeHost(url);
    if (signal.aborted) throw new Error(`request to ${host} timed out`);
    const refused = policyReason(err);
    if (refused) throw new Error(refused);
    const cause = (err as { cause?: unknown }).cause;
    throw new Error(`cannot reach ${host}: ${describeError(cause instanceof Error ? cause : err)}`);
  }
  const body = await res.text().catch(() => '');
  return { status: res.status, body: body.slice(0, 2000) };
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
