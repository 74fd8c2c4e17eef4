// Which webhook URLs a channel may name. HTTPS always; plain http:// only to a loopback receiver and
// only when the local stack switched that on (LOCAL_WEBHOOKS_ALLOW_LOOPBACK=true on `npm start`):
// the switch is a call made by local/stack.ts, not an environment variable read here, so no
// deployment can turn it on (test/infra proves the CDK never sets the variable). A leaf module (the
// request schemas import it, and every Lambda bundles those).
import { isIP } from 'node:net';

let loopbackHttp = false;

/** Called by the local stack only (local/stack.ts). */
export function allowLoopbackHttpWebhooks(on: boolean): void {
  loopbackHttp = on;
}

function isLoopbackName(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/** Why a URL cannot be a webhook target by its form alone (scheme, host), or undefined. */
export function webhookUrlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'URL must be an absolute https:// URL';
  }
  if (!u.hostname) return 'URL must be an absolute https:// URL';
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:' && loopbackHttp && isLoopbackName(u.hostname)) return undefined;
  if (loopbackHttp) return 'URL must be an absolute https:// URL (http:// only to a loopback host: localhost, 127.0.0.1, [::1])';
  // -- under npm start, say how a local receiver over http:// is allowed (never on AWS) --
  if (u.protocol === 'http:' && isLoopbackName(u.hostname) && !process.env.AWS_LAMBDA_FUNCTION_NAME) {
    return 'URL must be an absolute https:// URL (under npm start, LOCAL_WEBHOOKS_ALLOW_LOOPBACK=true allows http:// to a loopback receiver)';
  }
  return 'URL must be an absolute https:// URL';
}
